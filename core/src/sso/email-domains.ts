import { AppError } from '../errors';

export const MAX_EMAIL_DOMAINS = 20;
// Letters, digits and hyphens in dot-separated labels, at least two labels (a TLD alone is refused).
const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

/** The allowed email domains, lower-cased and without repeats; refuses anything that is not a host name. */
export function parseEmailDomains(values: readonly string[]): string[] {
  const domains = [...new Set(values.map((v) => v.trim().toLowerCase().replace(/^@/, '')).filter(Boolean))];
  if (domains.length === 0) throw new AppError('BAD_USER_INPUT', 'emailDomains: name at least one domain');
  if (domains.length > MAX_EMAIL_DOMAINS) {
    throw new AppError('BAD_USER_INPUT', `emailDomains: at most ${MAX_EMAIL_DOMAINS} domains`);
  }
  for (const d of domains) {
    if (!DOMAIN.test(d))
      throw new AppError('BAD_USER_INPUT', `emailDomains: ${JSON.stringify(d.slice(0, 80))} is not a domain`);
  }
  return domains;
}

/** The domain part of an address, lower-cased; null when there is none. */
export function emailDomainOf(email: string): string | null {
  const at = email.lastIndexOf('@');
  if (at < 1 || at === email.length - 1) return null;
  return email
    .slice(at + 1)
    .trim()
    .toLowerCase();
}
