/**
 * Field-level rules: how a secret looks to a caller who may not see it. Who may see it in full
 * is rules.ts `canSeeSecrets` (owners and admins with a session or an `admin` token); which
 * fields are secret is listed once, in SECRET_FIELDS below, by entity and column, so an edge
 * that shows one of them (the API's secret guard) cannot choose its own rule.
 */

/** `whsec_Ab3…` → `whsec_…a1b2`: the prefix says what it is, the last 4 characters which one. */
export function maskSecret(value: string): string {
  const prefix = /^[A-Za-z]+_/.exec(value)?.[0] ?? '';
  const rest = value.slice(prefix.length);
  // A short secret would give away a large share of itself in 4 characters.
  return rest.length >= 16 ? `${prefix}…${rest.slice(-4)}` : `${prefix}…`;
}

/**
 * `https://hooks.slack.com/services/T0/B0/XYZ` → `https://hooks.slack.com/…`: where alerts go,
 * without the path and query that hold the capability (or the user-info that holds a password).
 */
export function maskUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return '…';
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? `${url.origin}/…` : '…';
}

/**
 * True for a value that is exactly what maskUrl shows: sending it back as a channel URL would
 * replace the real target with the mask, so the alert-rule writes refuse it.
 */
export function isMaskedUrl(value: string): boolean {
  return value.endsWith('/…') && maskUrl(value) === value;
}

export interface SecretField {
  /** What a caller who may not see the value gets instead (null: nothing at all). */
  mask(value: string): string | null;
}

/** `Entity.column` → its mask. Every value here is masked unless the caller may manage its project. */
export const SECRET_FIELDS: ReadonlyMap<string, SecretField> = new Map([
  // The webhook signing secret: whoever holds it can forge alerts to the receiver.
  ['AlertRule.secret', { mask: maskSecret }],
  // Slack incoming-webhook URLs (and many webhook URLs) are bearer capabilities: posting to them
  // needs nothing else.
  ['AlertRule.url', { mask: maskUrl }],
  // The start of what an alert's receiver answered: a rule may point at a service inside the
  // network (TRACKER_ALLOW_PRIVATE_TARGETS), and its answer is that service's, not ours to show
  // every member (issue 28). Not stored at all when the target is on a private address.
  ['AlertDelivery.lastResponse', { mask: () => null }],
]);
