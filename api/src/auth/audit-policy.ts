/**
 * Which mutations must write an audit row (core/src/audit), read by the schema walk in
 * api/test/audit-log.test.ts: every mutation of the `admin` scope (scope-policy.ts), plus the
 * ones below, fails that test when running it writes no row, unless it is exempt here with a
 * reason. A new admin mutation therefore needs an audit row or a sentence saying why not.
 */
export const AUDITED_BEYOND_ADMIN: ReadonlySet<string> = new Set([
  // sign-ins and joining are the first lines of an incident's timeline
  'login',
  'acceptInvitation',
  'signupWithInvitation',
  // `write` for tokens (nothing is lost), but a project and its name are what the log's readers look for
  'createProject',
  'renameProject',
]);

/** Admin-scope mutations that write no audit row, and why. */
export const AUDIT_EXEMPT_MUTATIONS: Readonly<Record<string, string>> = {
  testAlertRule:
    "Sends one test notification through a rule's saved channel and stores nothing: where data goes is recorded when the channel is set (alert_rule.created / channels_changed).",
  muteAlertRule:
    'Pauses one rule for a while and changes neither where data goes nor who can see it; the rule shows its mute in the dashboard.',
  createCheckoutSession:
    'Only makes a Stripe Checkout URL; the plan changes when Stripe confirms payment, recorded from the webhook (organization.plan_changed, actor stripe).',
  createBillingPortalSession:
    'Only makes a Stripe billing-portal URL; what the owner changes there reaches us as webhooks, recorded as plan changes.',
};
