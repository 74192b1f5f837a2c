/**
 * The instance admin (issue 31, decision 051) on both databases: who is one (the first account,
 * `admin: true`, the oldest account of an upgraded instance), the plan change (at once, recorded,
 * refused over a live Stripe subscription unless forced, an unknown plan refused with nothing
 * changed), dead letters (reason, replay, purge), the instance's status without secrets, and the
 * test email through a real SMTP server. Who may call these at all: access-walk.test.ts.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { ApolloServer } from '@apollo/server';
import { authenticate, loadConfig, openDatabase, recordDeadLetters, signUp, type Database } from '@tracker/core';
import {
  createTempDir,
  createTestPostgres,
  startSmtpReceiver,
  type SmtpReceiver,
  type TempDir,
  type TestPostgres,
} from '@tracker/core/testing';
import { createApollo } from '../src/api.plugin';
import { createContext, type Context } from '../src/context';

const STRIPE_KEY = 'sk_test_adminWalkNeverShown';

for (const kind of ['postgres', 'pglite'] as const) {
  describe(`instance admin (${kind})`, () => {
    let pg: TestPostgres | undefined;
    let dir: TempDir | undefined;
    let db: Database;
    let apollo: ApolloServer<Context>;
    let smtp: SmtpReceiver;
    let config: ReturnType<typeof loadConfig>;
    const replayed: Array<{ topic: string; payloads: string[] }> = [];
    let admin: Awaited<ReturnType<typeof signUp>>;
    let owner: Awaited<ReturnType<typeof signUp>>;

    async function run(source: string, variables: Record<string, unknown>, token: string, cfg = config) {
      const principal = await authenticate(db.ds, token);
      const response = await apollo.executeOperation(
        { query: source, variables },
        {
          contextValue: createContext(
            {
              ds: db.ds,
              config: cfg,
              instanceVersion: '9.8.7',
              enqueueReplay: async (topic, payloads) => void replayed.push({ topic, payloads }),
            },
            principal,
          ),
        },
      );
      return JSON.parse(JSON.stringify((response.body as { singleResult: unknown }).singleResult));
    }
    /** The HTTP status Apollo would answer with, and the body. */
    async function answer(source: string, token: string) {
      const response = await apollo.executeOperation(
        { query: source },
        { contextValue: createContext({ ds: db.ds, config }, await authenticate(db.ds, token)) },
      );
      const body = (response.body as { singleResult: { data?: Record<string, unknown>; errors?: unknown[] } })
        .singleResult;
      return { status: response.http.status ?? 200, body: JSON.parse(JSON.stringify(body)) };
    }
    async function ok(source: string, variables: Record<string, unknown>, token: string) {
      const r = await run(source, variables, token);
      assert.equal(r.errors, undefined, JSON.stringify(r.errors));
      return r.data;
    }
    const account = (name: string, options?: { admin?: boolean }) =>
      signUp(
        db.ds,
        { email: `${name}-${randomUUID()}@example.com`, password: 'long enough pw', organizationName: name },
        'free',
        options,
      );

    before(async () => {
      pg = kind === 'postgres' ? await createTestPostgres() : undefined;
      dir = kind === 'pglite' ? createTempDir() : undefined;
      db = await openDatabase({ databaseUrl: pg?.url, dataDir: dir?.path ?? '' }, { migrate: true });
      apollo = await createApollo();
      smtp = await startSmtpReceiver();
      config = loadConfig({
        TRACKER_PUBLIC_URL: 'https://tracker.example.com',
        TRACKER_SMTP_URL: smtp.url,
        TRACKER_SMTP_FROM: 'Tracker <tracker@example.com>',
        STRIPE_SECRET_KEY: STRIPE_KEY,
      });
    });
    after(async () => {
      await apollo?.stop();
      await db?.close();
      await smtp?.close();
      await pg?.drop();
      dir?.remove();
    });

    test('the first account is the admin, at most one of racing first sign-ups; later ones only when asked', async () => {
      const racing = await Promise.all([1, 2, 3, 4].map((i) => account(`first${i}`)));
      assert.equal(racing.filter((r) => r.user.isAdmin).length, 1);
      admin = racing.find((r) => r.user.isAdmin)!;
      owner = await account('owner');
      assert.equal(owner.user.isAdmin, false);
      assert.equal((await account('ops', { admin: true })).user.isAdmin, true);
      const viewer = await ok('{ viewer { isInstanceAdmin } }', {}, admin.token);
      assert.equal(viewer.viewer.isInstanceAdmin, true);
      assert.equal((await ok('{ viewer { isInstanceAdmin } }', {}, owner.token)).viewer.isInstanceAdmin, false);
    });

    test('a non-admin gets HTTP 403 from every admin query and mutation; NOT_FOUND and the calls of an admin stay 200', async () => {
      const root = await account('root403', { admin: true });
      const tenant = await account('tenant403');
      for (const source of [
        '{ adminOrganizations { totalCount } }',
        '{ adminDeadLetters { totalCount } }',
        '{ adminInstance { version } }',
        'mutation { adminSendTestEmail { to } }',
      ]) {
        const r = await answer(source, tenant.token);
        assert.equal(r.status, 403, source);
        assert.equal(r.body.errors?.[0]?.extensions?.code, 'FORBIDDEN', source);
      }
      // Admin fields are non-null: refusing one nulls the whole answer, so it is a 403 as well.
      const mixed = await answer('{ viewer { id } adminInstance { version } }', tenant.token);
      assert.equal(mixed.status, 403);
      assert.equal(mixed.body.data, null);
      // Another tenant's project is NOT_FOUND, as a missing one: the status does not tell them apart.
      const other = await answer(`{ project(id: "${randomUUID()}") { id } }`, tenant.token);
      assert.equal(other.status, 200, JSON.stringify(other.body));
      const byAdmin = await answer('{ adminInstance { version } }', root.token);
      assert.equal(byAdmin.status, 200, JSON.stringify(byAdmin.body));
    });

    test('an upgraded instance makes its oldest account the admin', async () => {
      // The data source's own queries: PGlite has one connection, which a held query runner would keep.
      try {
        // The migration run again on its own (later migrations stay): down, the accounts aged, up.
        const migration = db.ds.migrations.find((m) => m.name === 'InstanceAdmin1797350000000')!;
        const runner = db.ds.createQueryRunner();
        try {
          await migration.down(runner);
          await runner.query(`UPDATE users SET created_at = created_at + interval '1 day'`);
          await runner.query(`UPDATE users SET created_at = '2020-01-01' WHERE id = $1`, [owner.user.id]);
          await migration.up(runner);
        } finally {
          await runner.release();
        }
        const admins: Array<{ id: string }> = await db.ds.query('SELECT id FROM users WHERE is_admin');
        assert.deepEqual(
          admins.map((a) => a.id),
          [owner.user.id],
        );
      } finally {
        // Back as the rest of the suite expects it.
        await db.ds.query('UPDATE users SET is_admin = (id = $1)', [admin.user.id]);
      }
    });

    test('a plan change is effective at once and recorded; an unknown plan and a live subscription are refused', async () => {
      const mark = `mutation($p: ID!) { markRelease(projectId: $p, version: "1.0.0") { version } }`;
      const project = await ok(
        `mutation($o: ID!) { createProject(organizationId: $o, name: "web") { id } }`,
        { o: owner.organization.id },
        owner.token,
      );
      const p = project.createProject.id;
      assert.equal((await run(mark, { p }, owner.token)).errors[0].extensions.code, 'PLAN_REQUIRED');

      const SET = `mutation($o: ID!, $plan: String!, $force: Boolean) {
        adminSetOrganizationPlan(organizationId: $o, plan: $plan, force: $force) {
          planBefore overrodeSubscription organization { slug plan memberCount projectCount events { limit } } } }`;
      const unknown = await run(SET, { o: owner.organization.id, plan: 'platinum' }, admin.token);
      assert.equal(unknown.errors[0].extensions.code, 'BAD_USER_INPUT');
      assert.match(unknown.errors[0].message, /unknown plan "platinum": expected one of free, pro, business/);
      const missing = await run(SET, { o: randomUUID(), plan: 'pro' }, admin.token);
      assert.equal(missing.errors[0].extensions.code, 'NOT_FOUND');

      const set = (await ok(SET, { o: owner.organization.id, plan: 'pro' }, admin.token)).adminSetOrganizationPlan;
      assert.deepEqual(set, {
        planBefore: 'free',
        overrodeSubscription: null,
        organization: {
          slug: owner.organization.slug,
          plan: 'pro',
          memberCount: 1,
          projectCount: 1,
          events: { limit: 100_000 },
        },
      });
      // At once: the owner's next request has the plan.
      assert.equal((await ok(mark, { p }, owner.token)).markRelease.version, '1.0.0');

      // A live subscription sets this organization's plan: refused unless forced.
      await db.ds.query(
        `INSERT INTO billing_accounts (organization_id, stripe_customer_id, stripe_subscription_id, subscription_status)
         VALUES ($1, 'cus_1', 'sub_1', 'active')`,
        [owner.organization.id],
      );
      const refused = await run(SET, { o: owner.organization.id, plan: 'business' }, admin.token);
      assert.equal(refused.errors[0].extensions.code, 'CONFLICT');
      assert.match(refused.errors[0].message, /live Stripe subscription \(active\)/);
      const forced = await ok(SET, { o: owner.organization.id, plan: 'business', force: true }, admin.token);
      assert.equal(forced.adminSetOrganizationPlan.overrodeSubscription, 'active');

      const log: Array<{ reason: string; plan_before: string; plan_after: string; changed_by: string }> =
        await db.ds.query(
          `SELECT reason, plan_before, plan_after, changed_by FROM billing_log WHERE organization_id = $1 ORDER BY created_at`,
          [owner.organization.id],
        );
      assert.deepEqual(log, [
        { reason: 'admin', plan_before: 'free', plan_after: 'pro', changed_by: admin.user.id },
        { reason: 'admin', plan_before: 'pro', plan_after: 'business', changed_by: admin.user.id },
      ]);
      const [{ plan }] = await db.ds.query('SELECT plan FROM organizations WHERE id = $1', [owner.organization.id]);
      assert.equal(plan, 'business', 'the refused and unknown changes changed nothing');
    });

    test('dead letters: listed with their reason and never their payload, replayed, purged by age', async () => {
      const now = Date.now();
      await recordDeadLetters(db.ds, [
        {
          messageId: 'database:1',
          topic: 'jobs',
          payload: JSON.stringify({ v: 1, kind: 'error', event: { message: 'secret payload text' } }),
          error: 'value too long for type character varying(8)\n    at somewhere',
          attempts: 5,
          lastFailedAt: new Date(now - 40 * 86_400_000),
        },
        {
          messageId: 'database:2',
          topic: 'alerts',
          payload: 'p2',
          error: 'boom',
          attempts: 5,
          lastFailedAt: new Date(now),
        },
      ]);
      const LIST = `{ adminDeadLetters { totalCount nodes { id topic kind attempts reason lastFailedAt } } }`;
      const list = (await ok(LIST, {}, admin.token)).adminDeadLetters;
      assert.equal(list.totalCount, 2);
      assert.deepEqual(
        list.nodes.map((n: { topic: string; kind: string; reason: string }) => [n.topic, n.kind, n.reason]),
        [
          ['alerts', null, 'boom'],
          ['jobs', 'error', 'value too long for type character varying(8)'],
        ],
      );
      assert.ok(!JSON.stringify(list).includes('secret payload text'));

      const bad = await run(`mutation { adminReplayDeadLetters(ids: ["1"], all: true) }`, {}, admin.token);
      assert.equal(bad.errors[0].extensions.code, 'BAD_USER_INPUT');
      const notAnId = await run(`mutation { adminReplayDeadLetters(ids: ["x'; --"]) }`, {}, admin.token);
      assert.equal(notAnId.errors[0].extensions.code, 'BAD_USER_INPUT');
      const alertsLetter = list.nodes[0].id;
      const one = await ok(
        `mutation($ids: [ID!]) { adminReplayDeadLetters(ids: $ids) }`,
        { ids: [alertsLetter] },
        admin.token,
      );
      assert.deepEqual(one.adminReplayDeadLetters, [alertsLetter]);
      assert.deepEqual(replayed, [{ topic: 'alerts', payloads: ['p2'] }]);

      const negative = await run(`mutation { adminPurgeDeadLetters(olderThanDays: -1) }`, {}, admin.token);
      assert.equal(negative.errors[0].extensions.code, 'BAD_USER_INPUT');
      assert.equal(
        (await ok(`mutation { adminPurgeDeadLetters(olderThanDays: 50) }`, {}, admin.token)).adminPurgeDeadLetters,
        0,
      );
      assert.equal(
        (await ok(`mutation { adminPurgeDeadLetters(olderThanDays: 30) }`, {}, admin.token)).adminPurgeDeadLetters,
        1,
      );
      assert.equal((await ok(LIST, {}, admin.token)).adminDeadLetters.totalCount, 0);
    });

    test('the instance status names versions, migrations and configuration, and no secret', async () => {
      const answer = await ok(
        `{ adminInstance { version nodeVersion databaseKind databaseVersion migrations { name timestamp } pendingMigrations
           deadLetterCount smtp { configured host port secure from } stripe { configured secretKey webhookSecret pricePro mode } } }`,
        {},
        admin.token,
      );
      const s = answer.adminInstance;
      assert.equal(s.version, '9.8.7');
      assert.equal(s.databaseKind, kind);
      assert.match(s.databaseVersion, /^PostgreSQL \d+/);
      const last = db.ds.migrations.at(-1)!.name!;
      assert.deepEqual(s.migrations.at(-1), { name: last, timestamp: /\d{13}$/.exec(last)![0] });
      assert.ok(s.migrations.length > 30);
      assert.deepEqual(s.pendingMigrations, []);
      assert.deepEqual(s.smtp, {
        configured: true,
        host: '127.0.0.1',
        port: smtp.port,
        secure: false,
        from: 'Tracker <tracker@example.com>',
      });
      assert.deepEqual(s.stripe, {
        configured: false,
        secretKey: true,
        webhookSecret: false,
        pricePro: false,
        mode: 'test',
      });
      assert.ok(!JSON.stringify(answer).includes(STRIPE_KEY));
    });

    test('the test email goes once to the admin through the relay; without one, or with a dead one, it says so', async () => {
      const before = smtp.messages.length;
      const sent = await ok(`mutation { adminSendTestEmail { to response } }`, {}, admin.token);
      assert.equal(sent.adminSendTestEmail.to, admin.user.email);
      assert.match(sent.adminSendTestEmail.response, /^250/);
      assert.equal(smtp.messages.length, before + 1);
      assert.deepEqual(smtp.messages.at(-1)!.to, [admin.user.email]);
      assert.match(smtp.messages.at(-1)!.raw, /Subject: Tracker test email/);

      const none = await run(`mutation { adminSendTestEmail { to } }`, {}, admin.token, loadConfig({}));
      assert.equal(none.errors[0].extensions.code, 'BAD_USER_INPUT');
      assert.match(none.errors[0].message, /TRACKER_SMTP_URL/);
      const dead = await run(
        `mutation { adminSendTestEmail { to } }`,
        {},
        admin.token,
        loadConfig({ TRACKER_SMTP_URL: 'smtp://127.0.0.1:9' }),
      );
      assert.equal(dead.errors[0].extensions.code, 'UNAVAILABLE');
      assert.match(dead.errors[0].message, /127\.0\.0\.1:9 did not take it/);
      assert.equal(smtp.messages.length, before + 1);
    });
  });
}
