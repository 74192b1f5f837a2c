export { generateDsnKey, generateToken, hashToken } from './tokens';
export { hashPassword, MIN_PASSWORD_LENGTH, verifyPassword } from './passwords';
