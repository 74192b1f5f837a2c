import { AppError } from '../errors';

// Deliberately loose: the only real check of an address is mail reaching it.
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,253}\.[^\s@]{1,63}$/;

export function normalizeEmail(email: string): string {
  const normalized = email.trim().toLowerCase();
  if (!EMAIL.test(normalized)) throw new AppError('BAD_USER_INPUT', 'email: must be a valid email address');
  return normalized;
}
