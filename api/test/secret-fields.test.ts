/**
 * Role × field isolation for secrets: every field of auth/secret-policy.ts is read by an owner,
 * an admin and a member (sessions), and by API tokens of each scope, and must come back in full
 * exactly for owners and admins calling with a session or an `admin` token, masked for everyone
 * else. The schema is scanned too: a new field whose name looks secret must be classified in
 * the policy (masked, or reviewed as fine to show) before this suite passes.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { ApolloServer } from '@apollo/server';
import {
  authenticateBearer,
  createApiToken,
  loadConfig,
  openDatabase,
  signUp,
  type ApiScope,
  type Database,
} from '@tracker/core';
import { createTestPostgres, type TestPostgres } from '@tracker/core/testing';
import { getNamedType, isLeafType, isObjectType } from 'graphql';
import { createApollo } from '../src/api.plugin';
import { isMaskedUrl, maskSecret, maskUrl, REVIEWED_FIELDS, SENSITIVE_FIELDS } from '../src/auth/secret-policy';
import { createContext, type Context } from '../src/context';
import { getSchema } from '../src/schema';

const PASSWORD = 'correct horse battery';
const WEBHOOK_URL = 'https://hooks.example.com/tracker/T0123?sig=webhook-capability';
const SLACK_URL = 'https://hooks.slack.com/services/T000/B000/slackCapabilityXYZ';

type Role = 'owner' | 'admin' | 'member';
interface Caller {
  name: string;
  role: Role;
  /** Null for a session. */
  scope: ApiScope | null;
  /** Whether this caller must see the values in full. */
  full: boolean;
}

/** Full only for owners and admins with a session or an admin-scope token. */
const CALLERS: Caller[] = [
  { name: 'owner session', role: 'owner', scope: null, full: true },
  { name: 'admin session', role: 'admin', scope: null, full: true },
  { name: 'member session', role: 'member', scope: null, full: false },
  { name: "owner's read token", role: 'owner', scope: 'read', full: false },
  { name: "owner's write token", role: 'owner', scope: 'write', full: false },
  { name: "owner's admin token", role: 'owner', scope: 'admin', full: true },
  { name: "admin's read token", role: 'admin', scope: 'read', full: false },
  { name: "admin's admin token", role: 'admin', scope: 'admin', full: true },
  { name: "member's read token", role: 'member', scope: 'read', full: false },
  { name: "member's admin token", role: 'member', scope: 'admin', full: false },
];

/** Field of the policy → how the matrix reads it from the answer of RULES. */
const READERS: Record<string, (rule: RuleAnswer) => string | null> = {
  'AlertRule.secret': (r) => r.secret,
  'AlertChannel.url': (r) => r.channel.url,
  'AlertDelivery.response': (r) => r.deliveries[0]?.response ?? null,
};

const RULES = `query($p: ID!) { alertRules(projectId: $p) { id secret masked channel { type url email } deliveries { response lastStatus } } }`;
type RuleAnswer = {
  id: string;
  secret: string | null;
  masked: boolean;
  channel: { type: string; url: string | null; email: string | null };
  deliveries: Array<{ response: string | null; lastStatus: number | null }>;
};
/** What a receiver answered, as the dispatcher stores it (issue 28: owners and admins only). */
const answerOf = (channelType: string) => `{"ok":true,"internal":"answer of the ${channelType} receiver"}`;
type Errors = Array<{ message: string; extensions?: { code?: string } }>;

describe('secret fields: full for owners and admins, masked for everyone else', () => {
  let pg: TestPostgres;
  let db: Database;
  let apollo: ApolloServer<Context>;
  // A mail server is configured (never contacted: rules are only stored here), so email rules are accepted.
  const config = loadConfig({
    TRACKER_PUBLIC_URL: 'https://tracker.example.com',
    TRACKER_SMTP_URL: 'smtp://127.0.0.1:1',
  });
  let projectId: string;
  const bearer = {} as Record<string, string>;
  const sessions = {} as Record<Role, string>;
  /** The stored values, read from the table (not through the API under test). */
  let stored: Array<{ id: string; channel_type: string; url: string | null; secret: string | null }>;

  async function run<T>(query: string, variables: Record<string, unknown>, token: string) {
    const auth = await authenticateBearer(db.ds, token);
    assert.ok(auth.principal, 'a valid bearer token');
    const response = await apollo.executeOperation(
      { query, variables },
      { contextValue: createContext({ ds: db.ds, config }, auth.principal) },
    );
    return (response.body as { singleResult: { data?: T; errors?: Errors } }).singleResult;
  }

  async function ok<T>(query: string, variables: Record<string, unknown>, token: string): Promise<T> {
    const r = await run<T>(query, variables, token);
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    return r.data!;
  }

  before(async () => {
    pg = await createTestPostgres();
    db = await openDatabase({ databaseUrl: pg.url, dataDir: '' }, { migrate: true });
    apollo = await createApollo();
    const owner = await signUp(
      db.ds,
      { email: `owner-${randomUUID()}@example.com`, password: PASSWORD, organizationName: 'Secrets' },
      'free',
    );
    const users: Record<Role, string> = { owner: owner.user.id, admin: '', member: '' };
    sessions.owner = owner.token;
    for (const role of ['admin', 'member'] as const) {
      const u = await signUp(
        db.ds,
        { email: `${role}-${randomUUID()}@example.com`, password: PASSWORD, organizationName: `Own ${role}` },
        'free',
      );
      await db.ds.query(`INSERT INTO memberships (organization_id, user_id, role) VALUES ($1, $2, $3)`, [
        owner.organization!.id,
        u.user.id,
        role,
      ]);
      users[role] = u.user.id;
      sessions[role] = u.token;
    }
    for (const caller of CALLERS) {
      bearer[caller.name] = caller.scope
        ? (await createApiToken(db.ds, users[caller.role], { name: caller.name, scopes: [caller.scope] })).token
        : sessions[caller.role];
    }
    const created = await ok<{ createProject: { id: string } }>(
      `mutation($o: ID!) { createProject(organizationId: $o, name: "Shop") { id } }`,
      { o: owner.organization!.id },
      owner.token,
    );
    projectId = created.createProject.id;
    for (const channel of [
      { type: 'WEBHOOK', url: WEBHOOK_URL },
      { type: 'SLACK', url: SLACK_URL },
      { type: 'EMAIL', email: 'oncall@example.com' },
    ]) {
      await ok(
        `mutation($p: ID!, $c: AlertChannelInput!) { createAlertRule(projectId: $p, kind: NEW_ISSUE, channel: $c) { id } }`,
        { p: projectId, c: channel },
        owner.token,
      );
    }
    stored = await db.ds.query(`SELECT id, channel_type, url, secret FROM alert_rules WHERE project_id = $1`, [
      projectId,
    ]);
    assert.equal(stored.length, 3);
    for (const rule of stored) {
      await db.ds.query(
        `INSERT INTO alert_deliveries (rule_id, project_id, kind, status, attempts, payload, next_attempt_at, last_status, last_response)
         VALUES ($1, $2, 'NEW_ISSUE', 'delivered', 1, '{}', now(), 200, $3)`,
        [rule.id, projectId, answerOf(rule.channel_type)],
      );
    }
  });
  after(async () => {
    await apollo?.stop();
    await db?.close();
    await pg?.drop();
  });

  test('the masks: prefix + last 4 for secrets, the origin for URLs', () => {
    assert.equal(maskSecret('whsec_0123456789abcdefghijWXYZ'), 'whsec_…WXYZ');
    assert.equal(maskSecret('whsec_short'), 'whsec_…', 'a short secret keeps all its characters to itself');
    assert.equal(maskSecret('no-prefix-but-long-enough-a1b2'), '…a1b2');
    assert.equal(maskUrl(SLACK_URL), 'https://hooks.slack.com/…');
    assert.equal(maskUrl('https://user:pass@hooks.example.com:8443/x?y=1'), 'https://hooks.example.com:8443/…');
    assert.equal(maskUrl('not a url'), '…');
    assert.equal(maskUrl('mailto:a@example.com'), '…');
    assert.ok(isMaskedUrl('https://hooks.slack.com/…'));
    assert.ok(!isMaskedUrl(SLACK_URL));
  });

  test('every sensitive field is in the matrix below', () => {
    assert.deepEqual([...SENSITIVE_FIELDS.keys()].sort(), Object.keys(READERS).sort());
  });

  test('every field whose name looks secret is classified: masked, or reviewed as fine to show', async () => {
    const schema = await getSchema();
    const looksSecret = /secret|token|key|password|dsn|url|link|prefix|stripe|smtp|credential|hash|signature/i;
    const unclassified: string[] = [];
    const present = new Set<string>();
    for (const type of Object.values(schema.getTypeMap())) {
      if (!isObjectType(type) || type.name.startsWith('__')) continue;
      for (const field of Object.values(type.getFields())) {
        const name = `${type.name}.${field.name}`;
        present.add(name);
        if (!isLeafType(getNamedType(field.type)) || !looksSecret.test(field.name)) continue;
        if (!SENSITIVE_FIELDS.has(name) && !REVIEWED_FIELDS.has(name)) unclassified.push(name);
      }
    }
    assert.deepEqual(unclassified, [], 'classify these in api/src/auth/secret-policy.ts');
    const stale = [...SENSITIVE_FIELDS.keys(), ...REVIEWED_FIELDS.keys()].filter((n) => !present.has(n));
    assert.deepEqual(stale, [], 'no longer in the schema');
  });

  for (const caller of CALLERS) {
    test(`${caller.name}: ${caller.full ? 'full values' : 'masked values'}`, async () => {
      const { alertRules } = await ok<{ alertRules: RuleAnswer[] }>(RULES, { p: projectId }, bearer[caller.name]);
      assert.equal(alertRules.length, stored.length);
      for (const rule of alertRules) {
        const row = stored.find((s) => s.id === rule.id)!;
        assert.equal(rule.masked, !caller.full, `${rule.channel.type}: masked`);
        const expected: Record<string, string | null> = {
          'AlertRule.secret': row.secret,
          'AlertChannel.url': row.url,
          'AlertDelivery.response': answerOf(row.channel_type),
        };
        for (const [field, read] of Object.entries(READERS)) {
          const value = read(rule);
          const real = expected[field];
          if (real === null) {
            assert.equal(value, null, `${rule.channel.type} ${field}: null stays null`);
            continue;
          }
          const mask = SENSITIVE_FIELDS.get(field)!.mask(real);
          assert.equal(value, caller.full ? real : mask, `${rule.channel.type} ${field}`);
        }
        if (!caller.full && rule.channel.type === 'WEBHOOK') {
          assert.match(rule.secret!, /^whsec_…[A-Za-z0-9_-]{4}$/);
          assert.equal(rule.channel.url, 'https://hooks.example.com/…');
        }
        if (!caller.full && rule.channel.type === 'SLACK') assert.equal(rule.channel.url, 'https://hooks.slack.com/…');
        // A receiver's answer is for those who manage the rule; its status is everyone's.
        assert.equal(rule.deliveries[0].response, caller.full ? answerOf(rule.channel.type) : null);
        assert.equal(rule.deliveries[0].lastStatus, 200);
        // Not a secret: the email channel's recipient is shown to everyone who sees the rule.
        if (rule.channel.type === 'EMAIL') assert.equal(rule.channel.email, 'oncall@example.com');
      }
    });
  }

  test('a masked URL sent back by an admin is refused; the real target and secret stay', async () => {
    const webhook = stored.find((s) => s.channel_type === 'WEBHOOK')!;
    const r = await run(
      `mutation($id: ID!, $c: AlertChannelInput!) { updateAlertRule(id: $id, channel: $c) { id } }`,
      { id: webhook.id, c: { type: 'WEBHOOK', url: maskUrl(WEBHOOK_URL) } },
      sessions.admin,
    );
    assert.equal(r.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT', JSON.stringify(r.errors));
    assert.match(r.errors![0].message, /masked/);
    const created = await run(
      `mutation($p: ID!, $c: AlertChannelInput!) { createAlertRule(projectId: $p, kind: NEW_ISSUE, channel: $c) { id } }`,
      { p: projectId, c: { type: 'SLACK', url: 'https://hooks.slack.com/…' } },
      sessions.owner,
    );
    assert.equal(created.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
    const after = await db.ds.query(`SELECT url, secret FROM alert_rules WHERE id = $1`, [webhook.id]);
    assert.deepEqual(after[0], { url: webhook.url, secret: webhook.secret });
  });

  test('a member cannot edit a rule at all, so the mask they see never reaches the table', async () => {
    const id = stored.find((s) => s.channel_type === 'WEBHOOK')!.id;
    const before = await db.ds.query(`SELECT url, secret, enabled FROM alert_rules WHERE id = $1`, [id]);
    for (const token of [sessions.member, bearer["member's admin token"]]) {
      const r = await run(
        `mutation($id: ID!, $c: AlertChannelInput!) { updateAlertRule(id: $id, channel: $c, enabled: false) { id } }`,
        { id, c: { type: 'WEBHOOK', url: 'https://hooks.example.com/other' } },
        token,
      );
      assert.equal(r.errors?.[0]?.extensions?.code, 'FORBIDDEN', JSON.stringify(r.errors));
    }
    const after = await db.ds.query(`SELECT url, secret, enabled FROM alert_rules WHERE id = $1`, [id]);
    assert.deepEqual(after, before);
  });

  test("the admins' mutation answers carry the full values they just set", async () => {
    const url = 'https://hooks.example.com/tracker/new-target?sig=2';
    const d = await ok<{ createAlertRule: RuleAnswer }>(
      `mutation($p: ID!, $c: AlertChannelInput!) { createAlertRule(projectId: $p, kind: NEW_ISSUE, channel: $c) { id secret masked channel { type url email } } }`,
      { p: projectId, c: { type: 'WEBHOOK', url } },
      sessions.admin,
    );
    const row = await db.ds.query(`SELECT secret FROM alert_rules WHERE id = $1`, [d.createAlertRule.id]);
    assert.equal(d.createAlertRule.channel.url, url);
    assert.equal(d.createAlertRule.secret, row[0].secret);
    assert.equal(d.createAlertRule.masked, false);
    await ok(`mutation($id: ID!) { deleteAlertRule(id: $id) }`, { id: d.createAlertRule.id }, sessions.admin);
  });
});
