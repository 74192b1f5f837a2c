/**
 * The access rule, walked over the whole schema (issue 18): every root Query and Mutation is
 * called with arguments naming organization A's objects by
 *   - B's owner (another tenant), with a session and with API tokens of each scope;
 *   - a plain member of A, with a session and with an `admin`-scope token (a role short of
 *     owner and admin must not be lifted by a token's scope);
 *   - A's owner with `read` and `write` tokens (a scope short of what the field needs).
 * Each answer must be exactly what FIELDS says (an error code, null, an empty list, or a normal
 * answer), and none may contain what the caller must not learn: for B, any id or secret of A;
 * for A's member and A's low-scope tokens, A's secrets (webhook secret and URL, upload and API
 * tokens, invitation links, sessions).
 *
 * FIELDS must name exactly the schema's root fields: a field added without a row fails here.
 *
 * And an instance admin (issue 31, decision 051), the instance's first account, a member of none
 * of A: admins are not tenants, so every field about A answers them as it answers B (NOT_FOUND,
 * null), the admin fields answer them only, with a session, and their answers carry A's
 * organization (its counts) and nothing else of A.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { ApolloServer } from '@apollo/server';
import {
  addComment,
  authenticateBearer,
  createApiToken,
  createSession,
  hasScope,
  loadConfig,
  mergeIssues,
  openDatabase,
  sessionCaller,
  type ApiScope,
  type Database,
} from '@tracker/core';
import { createTestPostgres, type TestPostgres } from '@tracker/core/testing';
import { getNamedType, isNonNullType, isObjectType, type GraphQLField, type GraphQLObjectType } from 'graphql';
import { createApollo } from '../src/api.plugin';
import { INSTANCE_ADMIN_FIELDS, requiredScope, SESSION_ONLY_MUTATIONS } from '../src/auth/scope-policy';
import { createContext, type Context } from '../src/context';
import { getSchema } from '../src/schema';

const PASSWORD = 'correct horse battery';
/** The capability lives in the path and query: a mask keeps the origin only. */
const WEBHOOK = { type: 'WEBHOOK', url: 'https://hooks.example.com/tracker/walkSecretPath?sig=walkCapability' };

/** What a call must answer: an error code, null, an empty list, or a normal answer ('ok'). */
type Outcome =
  | 'NOT_FOUND'
  | 'FORBIDDEN'
  | 'null'
  | 'empty'
  | 'ok'
  | 'BAD_USER_INPUT'
  | 'BILLING_NOT_CONFIGURED'
  | 'UNAUTHENTICATED'
  | 'UNAVAILABLE';

/** A's objects. Secrets are what its plain member and low-scope tokens must never see. */
interface Tenant {
  organization: string;
  project: string;
  projectKey: string;
  issue: string;
  issue2: string;
  event: string;
  alertRule: string;
  uploadToken: string;
  apiToken: string;
  invitation: string;
  ownerId: string;
  ownerEmail: string;
  member: string;
  memberEmail: string;
  /** The owner's saved search: nobody else may see or delete it. */
  savedSearch: string;
  /** A session of the owner: nobody else may sign it out. */
  ownerSession: string;
  secrets: string[];
}

interface Make {
  /** A fresh open issue of A (for calls that a member may make and that change it). */
  issue(): Promise<string>;
  /** A fresh comment by A's owner on A's issue (only its author may edit or delete it). */
  comment(): Promise<string>;
  /** A fresh issue of A with another one merged into it (for unmergeIssue). */
  mergedIssue(): Promise<string>;
  /** A fresh cron monitor of A (for calls that change or delete it). */
  monitor(): Promise<string>;
}

interface Row {
  /** Arguments naming A's objects (or, for fields about the caller, harmless ones). */
  args(a: Tenant, make: Make): Promise<Record<string, unknown>> | Record<string, unknown>;
  /** What B's owner gets (with a session, or a token whose scope admits the field). */
  outsider: Outcome;
  /** What A's plain member gets (with a session, or a token whose scope admits the field). */
  member: Outcome;
  /** What the instance admin (no member of A) gets with a session; default: what B's owner gets. */
  admin?: Outcome;
  /** Ends the caller's session: run with a fresh one. */
  endsSession?: boolean;
}

const ISSUE = (a: Tenant) => ({ id: a.issue });

/** Every root field. Keep in schema order: Query first, then Mutation. */
const FIELDS: Record<string, Row> = {
  // Query
  alertRules: { args: (a) => ({ projectId: a.project }), outsider: 'NOT_FOUND', member: 'ok' },
  // The instance's channels: nobody's data.
  alertChannels: { args: () => ({}), outsider: 'ok', member: 'ok' },
  viewer: { args: () => ({}), outsider: 'ok', member: 'ok' },
  issues: { args: (a) => ({ projectId: a.project }), outsider: 'NOT_FOUND', member: 'ok' },
  issue: { args: ISSUE, outsider: 'null', member: 'ok' },
  event: { args: (a) => ({ id: a.event }), outsider: 'null', member: 'ok' },
  organization: { args: (a) => ({ id: a.organization }), outsider: 'null', member: 'ok' },
  project: { args: (a) => ({ id: a.project }), outsider: 'null', member: 'ok' },
  projectKeys: { args: (a) => ({ projectId: a.project }), outsider: 'NOT_FOUND', member: 'ok' },
  projectInboundFilters: { args: (a) => ({ projectId: a.project }), outsider: 'NOT_FOUND', member: 'ok' },
  releases: { args: (a) => ({ projectId: a.project }), outsider: 'NOT_FOUND', member: 'ok' },
  release: { args: (a) => ({ projectId: a.project, version: '0.1.0' }), outsider: 'NOT_FOUND', member: 'ok' },
  unregisteredReleases: { args: (a) => ({ projectId: a.project }), outsider: 'NOT_FOUND', member: 'ok' },
  uploadTokens: { args: (a) => ({ projectId: a.project }), outsider: 'NOT_FOUND', member: 'FORBIDDEN' },
  billing: { args: (a) => ({ organizationId: a.organization }), outsider: 'NOT_FOUND', member: 'ok' },
  plans: { args: () => ({}), outsider: 'ok', member: 'ok' },
  members: { args: (a) => ({ organizationId: a.organization }), outsider: 'NOT_FOUND', member: 'ok' },
  invitations: { args: (a) => ({ organizationId: a.organization }), outsider: 'NOT_FOUND', member: 'FORBIDDEN' },
  // The token is the capability: without it, nothing.
  invitation: { args: () => ({ token: `eti_${randomUUID()}` }), outsider: 'null', member: 'null' },
  // Single sign-on settings: owners only (they decide who becomes a member).
  ssoSettings: { args: (a) => ({ organizationId: a.organization }), outsider: 'NOT_FOUND', member: 'FORBIDDEN' },
  apiTokens: { args: () => ({}), outsider: 'ok', member: 'ok' },
  usage: { args: (a) => ({ organizationId: a.organization }), outsider: 'NOT_FOUND', member: 'ok' },
  vitals: { args: (a) => ({ projectId: a.project }), outsider: 'NOT_FOUND', member: 'ok' },
  vitalsByUrl: { args: (a) => ({ projectId: a.project }), outsider: 'NOT_FOUND', member: 'ok' },
  vitalsTimeSeries: { args: (a) => ({ projectId: a.project }), outsider: 'NOT_FOUND', member: 'ok' },
  logs: { args: (a) => ({ projectId: a.project }), outsider: 'NOT_FOUND', member: 'ok' },
  feedback: { args: (a) => ({ projectId: a.project, issueId: a.issue }), outsider: 'NOT_FOUND', member: 'ok' },
  // The member's own list: the owner's saved search must not appear in it (idsOfA is only for outsiders,
  // so the member half is checked in saved-searches.test.ts).
  savedSearches: { args: (a) => ({ projectId: a.project }), outsider: 'NOT_FOUND', member: 'ok' },
  // Issue 31: the caller's own sessions; a preview any member may ask for (it saves nothing).
  sessions: { args: () => ({}), outsider: 'ok', member: 'ok' },
  previewScrubbing: { args: (a) => ({ projectId: a.project }), outsider: 'NOT_FOUND', member: 'ok' },
  monitors: { args: (a) => ({ projectId: a.project }), outsider: 'NOT_FOUND', member: 'ok' },

  // Owners only (admins too are refused: api/test/audit-log.test.ts).
  auditLog: { args: (a) => ({ organizationId: a.organization }), outsider: 'NOT_FOUND', member: 'FORBIDDEN' },
  // Mutation: alert rules (they send data to outside URLs: owners and admins)
  createAlertRule: {
    args: (a) => ({ projectId: a.project, kind: 'NEW_ISSUE', channel: WEBHOOK }),
    outsider: 'NOT_FOUND',
    member: 'FORBIDDEN',
  },
  updateAlertRule: { args: (a) => ({ id: a.alertRule, enabled: false }), outsider: 'NOT_FOUND', member: 'FORBIDDEN' },
  deleteAlertRule: { args: (a) => ({ id: a.alertRule }), outsider: 'NOT_FOUND', member: 'FORBIDDEN' },
  muteAlertRule: {
    args: (a) => ({ id: a.alertRule, until: new Date(Date.now() + 86_400_000).toISOString() }),
    outsider: 'NOT_FOUND',
    member: 'FORBIDDEN',
  },
  // Muting one issue's alerts is triage, like snoozing it: every member.
  muteIssueAlerts: {
    args: async (_a, m) => ({ issueId: await m.issue(), until: null }),
    outsider: 'NOT_FOUND',
    member: 'ok',
  },
  // Sends to the rule's target now: owners and admins, like changing it.
  testAlertRule: { args: (a) => ({ id: a.alertRule }), outsider: 'NOT_FOUND', member: 'FORBIDDEN' },

  // Mutation: accounts (about the caller; A's data must not come back)
  signup: {
    args: () => ({ email: `walk-${randomUUID()}@example.com`, password: PASSWORD, organizationName: 'W' }),
    outsider: 'ok',
    member: 'ok',
  },
  login: {
    // A fresh email each call: the sign-in throttle (decision 060) would answer RATE_LIMITED after 5.
    args: () => ({ email: `walk-${randomUUID()}@example.com`, password: 'not the password' }),
    outsider: 'UNAUTHENTICATED',
    member: 'UNAUTHENTICATED',
  },
  logout: { args: () => ({}), outsider: 'ok', member: 'ok', endsSession: true },
  // Sign-in, two-factor and reset (issue 32): about the caller or a capability token, never A's data.
  signIn: {
    args: () => ({ email: `walk-${randomUUID()}@example.com`, password: 'not the password' }),
    outsider: 'UNAUTHENTICATED',
    member: 'UNAUTHENTICATED',
  },
  signInWithTwoFactor: {
    args: () => ({ challenge: `etf_${randomUUID()}`, code: '123456' }),
    outsider: 'UNAUTHENTICATED',
    member: 'UNAUTHENTICATED',
  },
  // Email ownership (decision 066): a capability token, and the caller's own address.
  // No SMTP in this walk: nothing to send, said to the caller about their own account.
  resendEmailConfirmation: { args: () => ({}), outsider: 'UNAVAILABLE', member: 'UNAVAILABLE' },
  confirmEmailAddress: { args: () => ({ token: `etv_${randomUUID()}` }), outsider: 'NOT_FOUND', member: 'NOT_FOUND' },
  requestPasswordReset: { args: () => ({ email: `walk-${randomUUID()}@example.com` }), outsider: 'ok', member: 'ok' },
  passwordReset: { args: () => ({ token: `etr_${randomUUID()}` }), outsider: 'null', member: 'null' },
  resetPassword: {
    args: () => ({ token: `etr_${randomUUID()}`, newPassword: 'another long password' }),
    outsider: 'NOT_FOUND',
    member: 'NOT_FOUND',
  },
  twoFactor: { args: () => ({}), outsider: 'ok', member: 'ok' },
  startTwoFactorEnrolment: { args: () => ({}), outsider: 'ok', member: 'ok' },
  // 5 digits: refused as bad input before anything is looked at.
  confirmTwoFactor: { args: () => ({ code: '12345' }), outsider: 'BAD_USER_INPUT', member: 'BAD_USER_INPUT' },
  disableTwoFactor: { args: () => ({ code: '12345' }), outsider: 'BAD_USER_INPUT', member: 'BAD_USER_INPUT' },
  regenerateRecoveryCodes: { args: () => ({ code: '12345' }), outsider: 'BAD_USER_INPUT', member: 'BAD_USER_INPUT' },
  setOrganizationRequireTwoFactor: {
    args: (a) => ({ organizationId: a.organization, required: false }),
    outsider: 'NOT_FOUND',
    member: 'FORBIDDEN',
  },
  changePassword: {
    args: () => ({ currentPassword: 'not the password', newPassword: 'another long password' }),
    outsider: 'BAD_USER_INPUT',
    member: 'BAD_USER_INPUT',
  },

  // Mutation: issues (triage is every member's; deleting is owners' and admins')
  resolveIssue: { args: async (_a, m) => ({ id: await m.issue() }), outsider: 'NOT_FOUND', member: 'ok' },
  resolveIssues: {
    args: async (_a, m) => ({ ids: [await m.issue(), await m.issue()] }),
    outsider: 'empty',
    member: 'ok',
  },
  snoozeIssue: {
    args: async (_a, m) => ({ id: await m.issue(), until: '2999-01-01T00:00:00Z' }),
    outsider: 'NOT_FOUND',
    member: 'ok',
  },
  deleteIssue: { args: ISSUE, outsider: 'NOT_FOUND', member: 'FORBIDDEN' },
  mergeIssues: {
    args: async (_a, m) => ({ targetId: await m.issue(), sourceId: await m.issue() }),
    outsider: 'NOT_FOUND',
    member: 'ok',
  },
  reopenIssue: { args: async (_a, m) => ({ id: await m.issue() }), outsider: 'NOT_FOUND', member: 'ok' },
  unmergeIssue: { args: async (_a, m) => ({ id: await m.mergedIssue() }), outsider: 'NOT_FOUND', member: 'ok' },
  // Discarding throws future events away: owners and admins, like deleting.
  discardIssue: {
    args: async (_a, m) => ({ id: await m.issue(), discard: true }),
    outsider: 'NOT_FOUND',
    member: 'FORBIDDEN',
  },

  // Mutation: ownership and conversation (issue 19): any member assigns and comments; only a
  // comment's author edits or deletes it.
  assignIssue: {
    args: async (a, m) => ({ id: await m.issue(), userId: a.ownerId }),
    outsider: 'NOT_FOUND',
    member: 'ok',
  },
  addComment: { args: (a) => ({ issueId: a.issue, body: 'walk comment' }), outsider: 'NOT_FOUND', member: 'ok' },
  updateComment: {
    args: async (_a, m) => ({ id: await m.comment(), body: 'edited by someone else' }),
    outsider: 'NOT_FOUND',
    member: 'FORBIDDEN',
  },
  deleteComment: { args: async (_a, m) => ({ id: await m.comment() }), outsider: 'NOT_FOUND', member: 'FORBIDDEN' },
  // Mutation: saved searches (each person's own; another's is NOT_FOUND like a missing one)
  createSavedSearch: {
    args: (a) => ({ projectId: a.project, name: `walk ${randomUUID()}`, query: 'is:unresolved level:error' }),
    outsider: 'NOT_FOUND',
    member: 'ok',
  },
  deleteSavedSearch: { args: (a) => ({ id: a.savedSearch }), outsider: 'NOT_FOUND', member: 'NOT_FOUND' },

  // Mutation: monitors (issue 33): set-up every member may do, like alert-free triage tools
  createMonitor: {
    args: (a) => ({
      projectId: a.project,
      kind: 'CRON',
      input: { slug: `walk-${randomUUID()}`, crontab: '0 2 * * *' },
    }),
    outsider: 'NOT_FOUND',
    member: 'ok',
  },
  updateMonitor: {
    args: async (_a, m) => ({ id: await m.monitor(), input: { checkinMarginMinutes: 5 } }),
    outsider: 'NOT_FOUND',
    member: 'ok',
  },
  pauseMonitor: { args: async (_a, m) => ({ id: await m.monitor() }), outsider: 'NOT_FOUND', member: 'ok' },
  deleteMonitor: { args: async (_a, m) => ({ id: await m.monitor() }), outsider: 'NOT_FOUND', member: 'ok' },

  // Mutation: projects and keys
  createProject: {
    args: (a) => ({ organizationId: a.organization, name: 'walk' }),
    outsider: 'NOT_FOUND',
    member: 'FORBIDDEN',
  },
  renameProject: { args: (a) => ({ id: a.project, name: 'renamed' }), outsider: 'NOT_FOUND', member: 'FORBIDDEN' },
  updateProjectPrivacy: {
    args: (a) => ({ id: a.project, input: { scrubIpAddresses: false } }),
    outsider: 'NOT_FOUND',
    member: 'FORBIDDEN',
  },
  updateProjectTraceLink: {
    args: (a) => ({ id: a.project, template: 'https://jaeger.example.com/trace/{traceId}' }),
    outsider: 'NOT_FOUND',
    member: 'FORBIDDEN',
  },
  updateProjectInboundFilters: {
    args: (a) => ({ projectId: a.project, input: { localhost: true, errorMessages: ['*ResizeObserver*'] } }),
    outsider: 'NOT_FOUND',
    member: 'FORBIDDEN',
  },
  deleteProject: { args: (a) => ({ id: a.project }), outsider: 'NOT_FOUND', member: 'FORBIDDEN' },
  rotateProjectKey: { args: (a) => ({ projectId: a.project }), outsider: 'NOT_FOUND', member: 'FORBIDDEN' },
  updateProjectKey: {
    args: (a) => ({ projectId: a.project, keyId: a.projectKey, rateLimitPerSecond: 1000 }),
    outsider: 'NOT_FOUND',
    member: 'FORBIDDEN',
  },
  disableProjectKey: {
    args: (a) => ({ projectId: a.project, keyId: a.projectKey }),
    outsider: 'NOT_FOUND',
    member: 'FORBIDDEN',
  },

  // Mutation: releases and upload tokens
  markRelease: { args: (a) => ({ projectId: a.project, version: '9.9.9' }), outsider: 'NOT_FOUND', member: 'ok' },
  createUploadToken: {
    args: (a) => ({ projectId: a.project, name: 'ci' }),
    outsider: 'NOT_FOUND',
    member: 'FORBIDDEN',
  },
  revokeUploadToken: {
    args: (a) => ({ projectId: a.project, id: a.uploadToken }),
    outsider: 'NOT_FOUND',
    member: 'FORBIDDEN',
  },

  // Mutation: billing (without Stripe both answer before looking at the id; billing.test.ts covers roles)
  createCheckoutSession: {
    args: (a) => ({ organizationId: a.organization, plan: 'pro' }),
    outsider: 'BILLING_NOT_CONFIGURED',
    member: 'BILLING_NOT_CONFIGURED',
  },
  createBillingPortalSession: {
    args: (a) => ({ organizationId: a.organization }),
    outsider: 'BILLING_NOT_CONFIGURED',
    member: 'BILLING_NOT_CONFIGURED',
  },

  // Mutation: members and invitations
  inviteMember: {
    args: (a) => ({ organizationId: a.organization, email: `walk-${randomUUID()}@example.com` }),
    outsider: 'NOT_FOUND',
    member: 'FORBIDDEN',
  },
  revokeInvitation: { args: (a) => ({ id: a.invitation }), outsider: 'NOT_FOUND', member: 'FORBIDDEN' },
  acceptInvitation: { args: () => ({ token: `eti_${randomUUID()}` }), outsider: 'NOT_FOUND', member: 'NOT_FOUND' },
  signupWithInvitation: {
    args: () => ({ token: `eti_${randomUUID()}`, password: PASSWORD }),
    outsider: 'NOT_FOUND',
    member: 'NOT_FOUND',
  },
  updateMemberRole: {
    args: (a) => ({ organizationId: a.organization, userId: a.ownerId, role: 'MEMBER' }),
    outsider: 'NOT_FOUND',
    member: 'FORBIDDEN',
  },
  removeMember: {
    args: (a) => ({ organizationId: a.organization, userId: a.ownerId }),
    outsider: 'NOT_FOUND',
    member: 'FORBIDDEN',
  },

  // Mutation: the account (issue 31; the caller's own only) and the organization's name
  revokeSession: { args: (a) => ({ id: a.ownerSession }), outsider: 'NOT_FOUND', member: 'NOT_FOUND' },
  revokeOtherSessions: { args: () => ({}), outsider: 'ok', member: 'ok' },
  changeEmail: {
    args: (a) => ({ currentPassword: 'not the password', newEmail: a.ownerEmail }),
    outsider: 'BAD_USER_INPUT',
    member: 'BAD_USER_INPUT',
  },
  confirmEmailChange: { args: () => ({ token: `etc_${randomUUID()}` }), outsider: 'NOT_FOUND', member: 'NOT_FOUND' },
  renameOrganization: {
    args: (a) => ({ id: a.organization, name: 'walk' }),
    outsider: 'NOT_FOUND',
    member: 'FORBIDDEN',
  },

  // Mutation: API tokens (the caller's own only)
  createApiToken: { args: () => ({ name: 'walk', scopes: ['READ'] }), outsider: 'ok', member: 'ok' },
  revokeApiToken: { args: (a) => ({ id: a.apiToken }), outsider: 'NOT_FOUND', member: 'NOT_FOUND' },

  // The instance admin's fields (issue 31): FORBIDDEN for everyone but the admin, and for every
  // token (auth/scope-policy.ts INSTANCE_ADMIN_FIELDS).
  adminOrganizations: { args: () => ({}), outsider: 'FORBIDDEN', member: 'FORBIDDEN', admin: 'ok' },
  adminDeadLetters: { args: () => ({}), outsider: 'FORBIDDEN', member: 'FORBIDDEN', admin: 'ok' },
  adminInstance: { args: () => ({}), outsider: 'FORBIDDEN', member: 'FORBIDDEN', admin: 'ok' },
  adminSetOrganizationPlan: {
    args: (a) => ({ organizationId: a.organization, plan: 'pro' }),
    outsider: 'FORBIDDEN',
    member: 'FORBIDDEN',
    admin: 'ok',
  },
  adminReplayDeadLetters: { args: () => ({ all: true }), outsider: 'FORBIDDEN', member: 'FORBIDDEN', admin: 'ok' },
  adminPurgeDeadLetters: {
    args: () => ({ olderThanDays: 30 }),
    outsider: 'FORBIDDEN',
    member: 'FORBIDDEN',
    admin: 'ok',
  },
  // No SMTP in this walk: the admin is told so; nobody else learns even that.
  adminSendTestEmail: { args: () => ({}), outsider: 'FORBIDDEN', member: 'FORBIDDEN', admin: 'BAD_USER_INPUT' },
  // Mutation: single sign-on (settings: owners only, checked before the provider is contacted;
  // the sign-in itself is for anyone signed out, and finds no provider for these)
  saveSsoSettings: {
    args: (a) => ({
      organizationId: a.organization,
      input: {
        issuerUrl: 'https://login.example.com',
        clientId: 'walk',
        clientSecret: 'walk',
        emailDomains: ['example.com'],
      },
    }),
    outsider: 'NOT_FOUND',
    member: 'FORBIDDEN',
  },
  deleteSsoSettings: { args: (a) => ({ organizationId: a.organization }), outsider: 'NOT_FOUND', member: 'FORBIDDEN' },
  startSsoLogin: { args: () => ({ email: 'walk@no-sso.example.com' }), outsider: 'NOT_FOUND', member: 'NOT_FOUND' },
  completeSsoLogin: {
    args: () => ({ parameters: '?code=walk&state=walk' }),
    outsider: 'UNAUTHENTICATED',
    member: 'UNAUTHENTICATED',
  },
};

/** Fields of a type, two levels deep, without required arguments: enough to show any leak. */
function selection(type: GraphQLObjectType, depth: number): string {
  const parts: string[] = ['__typename'];
  for (const f of Object.values(type.getFields())) {
    if (f.args.some((a) => isNonNullType(a.type) && a.defaultValue === undefined)) continue;
    const named = getNamedType(f.type);
    if (!isObjectType(named)) parts.push(f.name);
    else if (depth > 0) parts.push(`${f.name} { ${selection(named, depth - 1)} }`);
  }
  return parts.join(' ');
}

function operation(kind: 'query' | 'mutation', field: GraphQLField<unknown, unknown>, args: Record<string, unknown>) {
  const used = field.args.filter((a) => a.name in args);
  const defs = used.map((a) => `$${a.name}: ${String(a.type)}`).join(', ');
  const uses = used.map((a) => `${a.name}: $${a.name}`).join(', ');
  const named = getNamedType(field.type);
  const sel = isObjectType(named) ? ` { ${selection(named, 2)} }` : '';
  return `${kind}${defs ? `(${defs})` : ''} { ${field.name}${uses ? `(${uses})` : ''}${sel} }`;
}

interface WalkCaller {
  name: string;
  /** Whose rules apply: B's owner, A's plain member, A's owner, or the instance admin. */
  as: 'outsider' | 'member' | 'owner' | 'admin';
  /** Null for a session. */
  scope: ApiScope | null;
  token: string;
  /** To sign in again for a field that ends the session. */
  email: string;
}

describe('access rule walked over every root field (issue 18)', () => {
  let pg: TestPostgres;
  let db: Database;
  let apollo: ApolloServer<Context>;
  const config = loadConfig({ TRACKER_PUBLIC_URL: 'https://tracker.example.com' });
  let A: Tenant;
  /** Every id of A: none may reach B. */
  let idsOfA: string[];
  const callers: WalkCaller[] = [];

  async function run(source: string, variables: Record<string, unknown>, token: string) {
    const auth = await authenticateBearer(db.ds, token);
    const response = await apollo.executeOperation(
      { query: source, variables },
      // A fresh client address per call: the sign-in throttle's per-address count is tested in
      // password-reset-throttle.test.ts, and the walk's many refused guesses must not trip it here.
      { contextValue: createContext({ ds: db.ds, config }, auth.principal, { clientAddress: randomUUID() }) },
    );
    return JSON.parse(JSON.stringify((response.body as { singleResult: unknown }).singleResult));
  }
  async function ok(source: string, variables: Record<string, unknown>, token: string) {
    const r = await run(source, variables, token);
    assert.equal(r.errors, undefined, `${source}: ${JSON.stringify(r.errors)}`);
    return r.data;
  }
  async function signup(email: string) {
    const d = await ok(
      `mutation($e: String!, $p: String!) { signup(email: $e, password: $p, organizationName: "Org") { token user { id } organization { id } } }`,
      { e: email, p: PASSWORD },
      '',
    );
    return {
      token: d.signup.token as string,
      userId: d.signup.user.id as string,
      org: d.signup.organization.id as string,
    };
  }
  async function login(email: string): Promise<string> {
    const d = await ok(
      `mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }`,
      { e: email, p: PASSWORD },
      '',
    );
    return d.login.token;
  }

  const make: Make = {
    async issue() {
      const rows: Array<{ id: string }> = await db.ds.query(
        `INSERT INTO issues (project_id, fingerprint, title, type, level, first_seen, last_seen, event_count)
         VALUES ($1, $2, 'TypeError: fresh', 'TypeError', 'error', now(), now(), 1) RETURNING id`,
        [A.project, randomUUID()],
      );
      return rows[0].id;
    },
    async comment() {
      const c = await addComment(db.ds, {
        caller: sessionCaller(A.ownerId),
        issueId: A.issue,
        body: 'by the owner',
        now: new Date(),
      });
      return c.id;
    },
    async mergedIssue() {
      const targetId = await make.issue();
      const sourceId = await make.issue();
      await mergeIssues(db.ds, { caller: sessionCaller(A.ownerId), targetId, sourceId });
      return targetId;
    },
    async monitor() {
      // Straight into the table: the plan's limit is createMonitor's to test (monitors.test.ts).
      const rows: Array<{ id: string }> = await db.ds.query(
        `INSERT INTO monitors (project_id, kind, slug, name, crontab) VALUES ($1, 'cron', $2, 'walk', '0 2 * * *') RETURNING id`,
        [A.project, `walk-${randomUUID()}`],
      );
      return rows[0].id;
    },
  };

  before(async () => {
    pg = await createTestPostgres();
    db = await openDatabase({ databaseUrl: pg.url, dataDir: '' }, { migrate: true });
    apollo = await createApollo();

    // The instance's first account: its admin (decision 051), with an organization of its own.
    const adminEmail = `walk-admin-${randomUUID()}@example.com`;
    const admin = await signup(adminEmail);

    const ownerEmail = `walk-owner-${randomUUID()}@example.com`;
    const owner = await signup(ownerEmail);
    await db.ds.query(`UPDATE organizations SET plan = 'pro' WHERE id = $1`, [owner.org]);
    const project = await ok(
      `mutation($o: ID!) { createProject(organizationId: $o, name: "walk") { id } }`,
      { o: owner.org },
      owner.token,
    );
    const projectId = project.createProject.id as string;
    const keys = await ok(`query($p: ID!) { projectKeys(projectId: $p) { id } }`, { p: projectId }, owner.token);
    const issues: Array<{ id: string }> = await db.ds.query(
      `INSERT INTO issues (project_id, fingerprint, title, type, level, first_seen, last_seen, event_count)
       VALUES ($1, 'fp-1', 'TypeError: a', 'TypeError', 'error', now(), now(), 1),
              ($1, 'fp-2', 'TypeError: b', 'TypeError', 'error', now(), now(), 1)
       RETURNING id`,
      [projectId],
    );
    const events: Array<{ id: string }> = await db.ds.query(
      `INSERT INTO events (project_id, issue_id, event_id, timestamp, received_at, level, type, message, environment, retention_days)
       VALUES ($1, $2, $3, now(), now(), 'error', 'TypeError', 'a', 'production', 30) RETURNING event_id::text AS id`,
      [projectId, issues[0].id, randomUUID()],
    );
    await ok(
      `mutation($p: ID!) { markRelease(projectId: $p, version: "0.1.0") { version } }`,
      { p: projectId },
      owner.token,
    );
    const rule = await ok(
      `mutation($p: ID!, $c: AlertChannelInput!) { createAlertRule(projectId: $p, kind: NEW_ISSUE, channel: $c) { id secret } }`,
      { p: projectId, c: WEBHOOK },
      owner.token,
    );
    const upload = await ok(
      `mutation($p: ID!) { createUploadToken(projectId: $p, name: "ci") { token uploadToken { id } } }`,
      { p: projectId },
      owner.token,
    );
    const apiToken = await ok(
      `mutation { createApiToken(name: "mine", scopes: [READ]) { token apiToken { id } } }`,
      {},
      owner.token,
    );
    const invite = await ok(
      `mutation($o: ID!) { inviteMember(organizationId: $o, email: "someone@example.com") { link invitation { id } } }`,
      { o: owner.org },
      owner.token,
    );
    const saved = await ok(
      `mutation($p: ID!) { createSavedSearch(projectId: $p, name: "Mine", query: "is:unresolved") { id } }`,
      { p: projectId },
      owner.token,
    );
    const memberEmail = `walk-member-${randomUUID()}@example.com`;
    const member = await signup(memberEmail);
    await db.ds.query(`INSERT INTO memberships (organization_id, user_id, role) VALUES ($1, $2, 'member')`, [
      owner.org,
      member.userId,
    ]);

    const ownerTokens = {} as Record<ApiScope, string>;
    for (const scope of ['read', 'write', 'admin'] as const) {
      ownerTokens[scope] = (await createApiToken(db.ds, owner.userId, { name: scope, scopes: [scope] })).token;
    }
    const memberAdminToken = (await createApiToken(db.ds, member.userId, { name: 'm', scopes: ['admin'] })).token;

    A = {
      organization: owner.org,
      project: projectId,
      projectKey: keys.projectKeys[0].id,
      issue: issues[0].id,
      issue2: issues[1].id,
      event: events[0].id,
      alertRule: rule.createAlertRule.id,
      uploadToken: upload.createUploadToken.uploadToken.id,
      apiToken: apiToken.createApiToken.apiToken.id,
      invitation: invite.inviteMember.invitation.id,
      ownerId: owner.userId,
      ownerEmail,
      member: member.userId,
      memberEmail,
      savedSearch: saved.createSavedSearch.id,
      ownerSession: (await createSession(db.ds.manager, owner.userId)).sessionId,
      secrets: [
        rule.createAlertRule.secret,
        'walkSecretPath',
        'walkCapability',
        upload.createUploadToken.token,
        apiToken.createApiToken.token,
        invite.inviteMember.link,
        decodeURIComponent(invite.inviteMember.link.split('/').at(-1)),
        owner.token,
        member.token,
        ...Object.values(ownerTokens),
        memberAdminToken,
      ],
    };
    // The event's id is its UUID (issue 29): B must not learn it either.
    idsOfA = [
      A.organization,
      A.project,
      A.projectKey,
      A.issue,
      A.issue2,
      A.event,
      A.alertRule,
      A.uploadToken,
      A.apiToken,
    ];
    idsOfA.push(A.invitation, A.ownerId, A.member, A.savedSearch, A.ownerSession);

    const [{ is_admin: ownerIsAdmin }] = await db.ds.query('SELECT is_admin FROM users WHERE id = $1', [owner.userId]);
    assert.equal(ownerIsAdmin, false, 'only the first account is an admin');
    callers.push({
      name: 'the instance admin (session)',
      as: 'admin',
      scope: null,
      token: admin.token,
      email: adminEmail,
    });
    callers.push({
      name: 'the instance admin (admin token)',
      as: 'admin',
      scope: 'admin',
      token: (await createApiToken(db.ds, admin.userId, { name: 'a', scopes: ['admin'] })).token,
      email: adminEmail,
    });

    const outsiderEmail = `walk-outsider-${randomUUID()}@example.com`;
    const outsider = await signup(outsiderEmail);
    callers.push({
      name: "B's owner (session)",
      as: 'outsider',
      scope: null,
      token: outsider.token,
      email: outsiderEmail,
    });
    for (const scope of ['read', 'write', 'admin'] as const) {
      const token = (await createApiToken(db.ds, outsider.userId, { name: scope, scopes: [scope] })).token;
      callers.push({ name: `B's owner (${scope} token)`, as: 'outsider', scope, token, email: outsiderEmail });
    }
    callers.push({ name: "A's member (session)", as: 'member', scope: null, token: member.token, email: memberEmail });
    callers.push({
      name: "A's member (admin token)",
      as: 'member',
      scope: 'admin',
      token: memberAdminToken,
      email: memberEmail,
    });
    for (const scope of ['read', 'write'] as const) {
      callers.push({
        name: `A's owner (${scope} token)`,
        as: 'owner',
        scope,
        token: ownerTokens[scope],
        email: ownerEmail,
      });
    }
  });
  after(async () => {
    await apollo?.stop();
    await db?.close();
    await pg?.drop();
  });

  function rootFields(schema: Awaited<ReturnType<typeof getSchema>>) {
    return [
      ...Object.values(schema.getQueryType()!.getFields()).map((f) => ({ kind: 'query' as const, field: f })),
      ...Object.values(schema.getMutationType()!.getFields()).map((f) => ({ kind: 'mutation' as const, field: f })),
    ];
  }

  test('FIELDS names exactly the root fields of the schema', async () => {
    const names = rootFields(await getSchema()).map((f) => f.field.name);
    assert.deepEqual(
      names.filter((n) => !FIELDS[n]),
      [],
      'add a row to FIELDS in api/test/access-walk.test.ts for each new field',
    );
    assert.deepEqual(
      Object.keys(FIELDS).filter((n) => !names.includes(n)),
      [],
      'FIELDS names fields the schema no longer has',
    );
  });

  /** What the caller must get: a scope refusal first, then the row's rule for who they are. */
  function expected(kind: 'query' | 'mutation', name: string, caller: WalkCaller): Outcome | 'skip' {
    if (caller.scope) {
      const sessionOnly = (kind === 'mutation' && SESSION_ONLY_MUTATIONS.has(name)) || INSTANCE_ADMIN_FIELDS.has(name);
      if (sessionOnly || !hasScope([caller.scope], requiredScope(kind, name))) return 'FORBIDDEN';
    }
    const row = FIELDS[name];
    if (caller.as === 'outsider') return row.outsider;
    if (caller.as === 'member') return row.member;
    if (caller.as === 'admin') return row.admin ?? row.outsider;
    // A's own owner with enough scope: their data; only reads are checked (for masked secrets).
    return kind === 'query' ? 'ok' : 'skip';
  }

  function check(outcome: Outcome, answer: any, name: string, what: string): void {
    const code = answer.errors?.[0]?.extensions?.code;
    const value = answer.data?.[name];
    switch (outcome) {
      case 'ok':
        assert.equal(answer.errors, undefined, `${what}: ${JSON.stringify(answer.errors)}`);
        break;
      case 'null':
        assert.equal(answer.errors, undefined, `${what}: ${JSON.stringify(answer.errors)}`);
        assert.equal(value, null, `${what}: expected null`);
        break;
      case 'empty':
        assert.equal(answer.errors, undefined, `${what}: ${JSON.stringify(answer.errors)}`);
        assert.deepEqual(value, [], `${what}: expected an empty list`);
        break;
      default:
        assert.equal(
          code,
          outcome,
          `${what}: expected ${outcome}, got ${JSON.stringify(answer.errors ?? answer.data).slice(0, 300)}`,
        );
        assert.ok(value === undefined || value === null, `${what}: data came back with the error`);
    }
  }

  test('every caller gets exactly its answer, and never what is not theirs', async (t) => {
    const schema = await getSchema();
    let calls = 0;
    for (const { kind, field } of rootFields(schema)) {
      const row = FIELDS[field.name];
      if (!row) continue; // reported by the test above
      await t.test(`${kind} ${field.name}`, async () => {
        for (const caller of callers) {
          const outcome = expected(kind, field.name, caller);
          if (outcome === 'skip') continue;
          const token = row.endsSession && !caller.scope ? await login(caller.email) : caller.token;
          const args = await row.args(A, make);
          const answer = await run(operation(kind, field, args), args, token);
          calls += 1;
          const what = `${field.name} as ${caller.name}`;
          check(outcome, answer, field.name, what);
          const text = JSON.stringify(answer);
          // The admin sees A's organization in the admin fields (its plan and counts), nothing else of A.
          const hidden =
            caller.as === 'outsider'
              ? [...idsOfA, ...A.secrets]
              : caller.as === 'admin'
                ? [...idsOfA.filter((id) => id !== A.organization), A.ownerEmail, A.memberEmail, ...A.secrets]
                : A.secrets;
          const leaked = hidden.filter((s) => text.includes(s));
          assert.deepEqual(leaked, [], `${what}: the answer contains what the caller must not see`);
        }
      });
    }
    // 56 fields × 9 callers, less the owner's own mutations: a walk that silently skipped would be short.
    assert.ok(calls >= 400, `only ${calls} calls`);
    t.diagnostic(`${calls} calls over ${rootFields(schema).length} fields and ${callers.length} callers`);
  });

  test("the instance admin reads A's plan and counts, and none of A's issues or events", async () => {
    const admin = callers.find((c) => c.as === 'admin' && c.scope === null)!;
    const list = await ok(
      `{ adminOrganizations(first: 100) { totalCount nodes { id slug plan memberCount projectCount events { used limit } } } }`,
      {},
      admin.token,
    );
    const a = list.adminOrganizations.nodes.find((n: { id: string }) => n.id === A.organization);
    assert.deepEqual(
      { plan: a.plan, members: a.memberCount, projects: a.projectCount, limit: a.events.limit },
      { plan: 'pro', members: 2, projects: 1, limit: 100_000 },
    );
    const issues = await run(`query($p: ID!) { issues(projectId: $p) { totalCount } }`, { p: A.project }, admin.token);
    assert.equal(issues.errors?.[0]?.extensions?.code, 'NOT_FOUND');
    const event = await run(`query($id: ID!) { event(id: $id) { id } }`, { id: A.event }, admin.token);
    assert.equal(event.data?.event, null);
  });
});
