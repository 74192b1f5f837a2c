import type { AdmissionRefusal } from '../quota';
import { retryAfterSeconds } from '../http/wire-errors';

/**
 * Sentry's data categories each of our limits covers. The event quota counts errors and
 * messages (`error`, and `default` for message events of older SDKs); the log quota counts log
 * records (`log_item`). The key's per-second rate limit covers everything the key sends: no
 * categories, which Sentry's SDKs read as "all".
 */
const CATEGORIES: Record<AdmissionRefusal['limit'], string> = {
  events: 'error;default',
  logs: 'log_item',
  key: '',
};

/**
 * `X-Sentry-Rate-Limits` (develop.sentry.dev/sdk/rate-limiting): comma-separated
 * `<seconds>:<categories>:<scope>:<reason>`, one per limit that refused something, so that an
 * SDK backs off only what is limited. With `Retry-After`, the longest wait.
 */
export function sentryRateLimits(refusals: AdmissionRefusal[]): { header: string; retryAfter: number } {
  const seen = new Map<string, number>();
  for (const r of refusals) seen.set(r.limit, Math.max(seen.get(r.limit) ?? 0, retryAfterSeconds(r.retryAfter ?? 1)));
  const parts: string[] = [];
  let retryAfter = 1;
  for (const [limit, seconds] of seen) {
    const scope = limit === 'key' ? 'key' : 'organization';
    const reason = limit === 'key' ? 'rate_limited' : 'usage_exceeded';
    parts.push(`${seconds}:${CATEGORIES[limit as AdmissionRefusal['limit']]}:${scope}:${reason}`);
    retryAfter = Math.max(retryAfter, seconds);
  }
  return { header: parts.join(', '), retryAfter };
}
