import { AppError } from '../errors';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../security';

/** The rules for a password being set (sign-up, change); the message names the field. */
export function checkNewPassword(field: string, password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw new AppError('BAD_USER_INPUT', `${field}: must be at least ${MIN_PASSWORD_LENGTH} characters`);
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    throw new AppError('BAD_USER_INPUT', `${field}: must be at most ${MAX_PASSWORD_LENGTH} characters`);
  }
}
