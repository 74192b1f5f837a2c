import { SECRET_FIELDS } from '@tracker/core';

export { isMaskedUrl, maskSecret, maskUrl } from '@tracker/core';

/**
 * Which GraphQL output fields show a secret column, by core's field rules (core/src/access/
 * field-rules.ts says which columns are secret and how they are masked; access/rules.ts who sees
 * them in full: owners and admins of the object's organization calling with a session or an
 * `admin`-scope API token). Enforced by secret-guard.ts for every field of every type.
 *
 * api/test/secret-fields.test.ts fails when the schema gains a field whose name looks secret
 * (token, secret, key, url, dsn, link, password…) that is in neither table below.
 */

export interface SensitiveField {
  /** What a caller without the right sees instead of the value. */
  mask(value: string): string | null;
  /** The project whose owners and admins see the value in full, read from the parent object. */
  projectOf(parent: unknown): string;
}

const projectIdOf = (parent: unknown): string => (parent as { projectId: string }).projectId;

/** The core rule for `Entity.column`: the API names no mask of its own. */
function secretColumn(name: string): SensitiveField['mask'] {
  const rule = SECRET_FIELDS.get(name);
  if (!rule) throw new Error(`${name} is not in core's SECRET_FIELDS`);
  return (value) => rule.mask(value);
}

/** `Type.field` → its masking. Every value here is masked unless the caller may manage it. */
export const SENSITIVE_FIELDS: ReadonlyMap<string, SensitiveField> = new Map([
  ['AlertRule.secret', { mask: secretColumn('AlertRule.secret'), projectOf: projectIdOf }],
  ['AlertChannel.url', { mask: secretColumn('AlertRule.url'), projectOf: projectIdOf }],
  ['AlertDelivery.response', { mask: secretColumn('AlertDelivery.lastResponse'), projectOf: projectIdOf }],
]);

/**
 * Fields whose names look secret but that every caller who reaches them may see in full, each
 * with the reason. Reviewed together with SENSITIVE_FIELDS (issue 15).
 */
export const REVIEWED_FIELDS: ReadonlyMap<string, string> = new Map([
  [
    'Mutation.resetPassword',
    'answers a Boolean; the reset token is an input, shown to nobody (it arrives by email or from the operator)',
  ],
  [
    'TwoFactorEnrolmentType.secret',
    "the caller's own pending TOTP secret, for their app (sessions only): shown at enrolment, never after",
  ],
  ['TwoFactorEnrolmentType.qrCodeDataUrl', 'the same pending secret as a QR code, to the same caller only'],
  ['ProjectType.dsn', 'DSN keys are public by design: shipped in browser bundles, they can only send events'],
  [
    'ProjectType.traceUrlTemplate',
    "a link to the project's trace viewer with {traceId} in it, checked to carry no credentials when saved",
  ],
  [
    'Monitor.url',
    'the address an uptime monitor checks, set by the project; URLs with credentials are refused when saved',
  ],
  ['ProjectKey.publicKey', 'a DSN key: public by design'],
  ['ProjectKey.dsn', 'a DSN: public by design'],
  [
    'UploadToken.prefix',
    'a few characters to recognise the token, never the secret; the query is for owners and admins',
  ],
  ['ApiToken.prefix', "a few characters to recognise the token; the list is the caller's own tokens"],
  [
    'AuditActor.apiTokenId',
    'the id of the API token a change was made with (auditLog: owners, admin scope); not a credential',
  ],
  ['AuditActor.apiTokenName', 'the name its owner gave the token, not the secret'],
  [
    'AuditActor.apiTokenPrefix',
    'a few characters to recognise the token in the audit log (owners only), never the secret',
  ],
  ['CreatedUploadToken.token', 'the answer of createUploadToken (owners and admins, admin scope), shown once'],
  ['CreatedApiToken.token', "the answer of createApiToken (sessions only), the caller's own, shown once"],
  ['AuthPayload.token', "the caller's own new session"],
  ['SignUpPayload.token', "the caller's own new session (sign-up without email); null with email"],
  [
    'Mutation.confirmEmailAddress',
    'answers the confirmed email and organization slug; the confirmation token is an input that arrived by email',
  ],
  ['SsoSettings.clientSecretHint', 'never the secret: its last 4 characters at most (maskSecret), and owners only'],
  ['SsoSettings.callbackUrl', "Tracker's own redirect URI, to register at the provider"],
  ['SsoStart.authorizationUrl', "the provider's sign-in page with this attempt's state: for the browser that asked"],
  [
    'InvitationResult.link',
    'the answer of inviteMember (owners and admins, admin scope); only the invited address can use it',
  ],
  ['BillingSessionType.url', 'the answer of the billing mutations (owners, admin scope): a short-lived Stripe page'],
  ['AlertChannel.email', 'an address to send alerts to, not a credential'],
  ['Event.url', 'the page the error happened on, as the SDK sent it (event data is for triage)'],
  [
    'Feedback.url',
    'the page the feedback was written on, as the SDK sent it (sensitive query values scrubbed at ingest)',
  ],
  [
    'EventRequest.url',
    'the URL of the request the error happened in; sensitive query parameters filtered at ingest (docs/privacy.md)',
  ],
  ['PageVitals.url', 'the page measured, as the SDK sent it'],
  ['EventTag.key', 'a tag name'],
  ['TagBreakdown.key', 'a tag name'],
  ['TagFilter.key', "a tag name in an alert rule's conditions"],
  ['AdminStripeStatus.secretKey', 'a boolean: whether STRIPE_SECRET_KEY is set, never its value (instance admins)'],
  ['AdminStripeStatus.webhookSecret', 'a boolean: whether STRIPE_WEBHOOK_SECRET is set (instance admins)'],
]);
