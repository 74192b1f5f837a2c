export { authenticate, logOut } from './authenticate';
export type { Principal } from './authenticate';
export { createSession, SESSION_TTL_MS } from './create-session';
export { logIn } from './log-in';
export { normalizeEmail } from './normalize-email';
export { signUp } from './sign-up';
export type { SignUpInput, SignUpResult } from './sign-up';
