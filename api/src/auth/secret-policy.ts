/**
 * Which output fields carry a secret, and how callers who may not see it get it: the one table
 * to read when auditing what a member or a read-only token can learn. Enforced by
 * secret-guard.ts for every field of every type. Full values go to owners and admins of the
 * object's organization calling with a session or an `admin`-scope API token (the ones who can
 * also change them); everyone else (members, `read` and `write` tokens) gets the mask.
 *
 * api/test/secret-fields.test.ts fails when the schema gains a field whose name looks secret
 * (token, secret, key, url, dsn, link, password…) that is in neither table below.
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
 * replace the real target with the mask, so the mutations refuse it.
 */
export function isMaskedUrl(value: string): boolean {
  return value.endsWith('/…') && maskUrl(value) === value;
}

export interface SensitiveField {
  /** What a caller without the right sees instead of the value. */
  mask(value: string): string | null;
  /** The project whose owners and admins see the value in full, read from the parent object. */
  projectOf(parent: unknown): string;
}

const projectIdOf = (parent: unknown): string => (parent as { projectId: string }).projectId;

/** `Type.field` → its masking. Every value here is masked unless the caller may manage it. */
export const SENSITIVE_FIELDS: ReadonlyMap<string, SensitiveField> = new Map([
  // The webhook signing secret: whoever holds it can forge alerts to the receiver.
  ['AlertRule.secret', { mask: maskSecret, projectOf: projectIdOf }],
  // Slack incoming-webhook URLs (and many webhook URLs) are bearer capabilities: posting to them
  // needs nothing else.
  ['AlertChannel.url', { mask: maskUrl, projectOf: projectIdOf }],
]);

/**
 * Fields whose names look secret but that every caller who reaches them may see in full, each
 * with the reason. Reviewed together with SENSITIVE_FIELDS (issue 15).
 */
export const REVIEWED_FIELDS: ReadonlyMap<string, string> = new Map([
  ['ProjectType.dsn', 'DSN keys are public by design: shipped in browser bundles, they can only send events'],
  ['ProjectKey.publicKey', 'a DSN key: public by design'],
  ['ProjectKey.dsn', 'a DSN: public by design'],
  [
    'UploadToken.prefix',
    'a few characters to recognise the token, never the secret; the query is for owners and admins',
  ],
  ['ApiToken.prefix', "a few characters to recognise the token; the list is the caller's own tokens"],
  ['CreatedUploadToken.token', 'the answer of createUploadToken (owners and admins, admin scope), shown once'],
  ['CreatedApiToken.token', "the answer of createApiToken (sessions only), the caller's own, shown once"],
  ['AuthPayload.token', "the caller's own new session"],
  [
    'InvitationResult.link',
    'the answer of inviteMember (owners and admins, admin scope); only the invited address can use it',
  ],
  ['BillingSessionType.url', 'the answer of the billing mutations (owners, admin scope): a short-lived Stripe page'],
  ['AlertChannel.email', 'an address to send alerts to, not a credential'],
  ['Event.url', 'the page the error happened on, as the SDK sent it (event data is for triage)'],
  ['PageVitals.url', 'the page measured, as the SDK sent it'],
  ['EventTag.key', 'a tag name'],
  ['TagBreakdown.key', 'a tag name'],
]);
