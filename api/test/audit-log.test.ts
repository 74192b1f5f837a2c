/**
 * The audit log (issue 32, docs/accounts.md): every audited change done through GraphQL writes
 * exactly one row with its actor, client address and user agent, and no secret (the scenario in
 * audit-scenario.ts); a change whose row cannot be written is rolled back; the `auditLog` query
 * is for owners, pages by keyset and filters; the retention job purges rows after a year; and a
 * schema walk fails for an admin-scope mutation that writes no row and is not exempt. On
 * PostgreSQL and on the embedded database.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { isObjectType } from 'graphql';
import { authenticate, createApiToken, loadConfig, purgeExpired, queryRows } from '@tracker/core';
import { AUDIT_EXEMPT_MUTATIONS, AUDITED_BEYOND_ADMIN } from '../src/auth/audit-policy';
import { requiredScope } from '../src/auth/scope-policy';
import { createContext } from '../src/context';
import { getSchema } from '../src/schema';
import { runAuditScenario, type ScenarioResult } from './audit-scenario';
import { createIssueFixture, type IssueFixture } from './issue-fixtures';

const AUDIT_LOG = `query($o: ID!, $first: Int!, $after: String, $filter: AuditLogFilter) {
  auditLog(organizationId: $o, first: $first, after: $after, filter: $filter) {
    nodes { id action time actor { type label userId apiTokenId apiTokenName apiTokenPrefix } target { type id label }
            changes clientAddress userAgent }
    pageInfo { hasNextPage endCursor } } }`;

let postgresScenario: ScenarioResult | undefined;

for (const kind of ['postgres', 'pglite'] as const) {
  describe(`audit log (${kind})`, () => {
    let f: IssueFixture;
    let scenario: ScenarioResult;
    const config = loadConfig({ TRACKER_PUBLIC_URL: 'https://tracker.example.com' });
    async function gql(source: string, variables: Record<string, unknown>, token?: string) {
      const principal = token ? await authenticate(f.db.ds, token) : null;
      const response = await f.apollo.executeOperation(
        { query: source, variables },
        { contextValue: createContext({ ds: f.db.ds, config }, principal) },
      );
      return JSON.parse(JSON.stringify((response.body as { singleResult: unknown }).singleResult));
    }
    const code = (r: any) => r.errors?.[0]?.extensions?.code;

    before(async () => {
      f = await createIssueFixture(kind);
    });
    after(() => f.close());

    test('every audited change through GraphQL writes exactly one row, with its actor and no secret', async () => {
      scenario = await runAuditScenario(f);
      if (kind === 'postgres') postgresScenario = scenario;
      const stored = await queryRows<{ row: string }>(f.db.ds, 'SELECT row_to_json(a)::text AS row FROM audit_log a');
      const text = stored.map((r) => r.row).join('\n');
      for (const secret of scenario.secrets)
        assert.ok(!text.includes(secret), `a secret is in the audit log: ${secret.slice(0, 8)}…`);
      // The masked channel is still useful: where it pointed, without the capability.
      assert.match(text, /https:\/\/hooks\.slack\.com\/…/);
    });

    test('auditLog: owners only, newest first in keyset pages, filtered by actor, action and time', async () => {
      const o = scenario.organizationId;
      const all = await queryRows<{ n: string }>(
        f.db.ds,
        'SELECT count(*) AS n FROM audit_log WHERE organization_id = $1',
        [o],
      );
      const seen: string[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < 50; page++) {
        const r = await gql(AUDIT_LOG, { o, first: 7, after: cursor }, scenario.ownerSession);
        assert.equal(r.errors, undefined, JSON.stringify(r.errors));
        seen.push(...r.data.auditLog.nodes.map((n: { id: string }) => n.id));
        if (!r.data.auditLog.pageInfo.hasNextPage) break;
        cursor = r.data.auditLog.pageInfo.endCursor;
      }
      assert.equal(seen.length, Number(all[0].n));
      assert.deepEqual(
        seen,
        [...seen].sort((a, b) => Number(b) - Number(a)),
        'newest first, no repeats',
      );
      assert.equal(new Set(seen).size, seen.length);

      const renamed = await gql(
        AUDIT_LOG,
        { o, first: 10, filter: { action: 'project.renamed' } },
        scenario.ownerSession,
      );
      assert.equal(renamed.data.auditLog.nodes.length, 1);
      const [node] = renamed.data.auditLog.nodes;
      assert.equal(node.actor.type, 'API_TOKEN');
      assert.equal(node.actor.apiTokenName, 'ci');
      assert.match(node.actor.apiTokenPrefix, /^eta_/);
      assert.deepEqual(node.changes, { before: { name: 'Web' }, after: { name: 'Web app' } });
      assert.equal(node.clientAddress, '203.0.113.7');

      const byToken = await gql(
        AUDIT_LOG,
        { o, first: 50, filter: { actor: node.actor.apiTokenId } },
        scenario.ownerSession,
      );
      assert.ok(byToken.data.auditLog.nodes.length >= 4);
      assert.ok(byToken.data.auditLog.nodes.every((n: any) => n.actor.apiTokenId === node.actor.apiTokenId));
      const byEmail = await gql(
        AUDIT_LOG,
        { o, first: 200, filter: { actor: node.actor.label.toUpperCase() } },
        scenario.ownerSession,
      );
      assert.ok(byEmail.data.auditLog.nodes.length > byToken.data.auditLog.nodes.length);
      const future = new Date(Date.now() + 3_600_000).toISOString();
      const none = await gql(AUDIT_LOG, { o, first: 5, filter: { since: future } }, scenario.ownerSession);
      assert.deepEqual(none.data.auditLog.nodes, []);

      // Not for admins, read-scoped tokens of the owner, or strangers; bad input is refused clearly.
      assert.equal(code(await gql(AUDIT_LOG, { o, first: 5 }, scenario.adminSession)), 'FORBIDDEN');
      const readToken = (await createApiToken(f.db.ds, scenario.ownerId, { name: 'read', scopes: ['read'] })).token;
      assert.equal(code(await gql(AUDIT_LOG, { o, first: 5 }, readToken)), 'FORBIDDEN');
      const stranger = await f.account();
      assert.equal(code(await gql(AUDIT_LOG, { o, first: 5 }, stranger.token)), 'NOT_FOUND');
      assert.equal(code(await gql(AUDIT_LOG, { o, first: 5 })), 'UNAUTHENTICATED');
      assert.equal(code(await gql(AUDIT_LOG, { o, first: 0 }, scenario.ownerSession)), 'BAD_USER_INPUT');
      assert.equal(
        code(await gql(AUDIT_LOG, { o, first: 5, after: "1' OR 1=1" }, scenario.ownerSession)),
        'BAD_USER_INPUT',
      );
      assert.equal(
        code(await gql(AUDIT_LOG, { o, first: 5, filter: { action: 'nope' } }, scenario.ownerSession)),
        'BAD_USER_INPUT',
      );
      assert.equal(
        code(await gql(AUDIT_LOG, { o, first: 5, filter: { since: 'yesterday' } }, scenario.ownerSession)),
        'BAD_USER_INPUT',
      );
    });

    test('a change whose audit row cannot be written is rolled back', async () => {
      const owner = await f.account();
      // The audit insert fails for these actions only (a CHECK constraint: the same on PGlite).
      await f.db.ds.query(
        `ALTER TABLE audit_log ADD CONSTRAINT audit_test_refuses
           CHECK (action NOT IN ('project.renamed', 'api_token.created', 'auth.signed_in', 'member.invited')) NOT VALID`,
      );
      try {
        const renamed = await gql(
          `mutation($p: ID!) { renameProject(id: $p, name: "Renamed") { id } }`,
          { p: owner.projectId },
          owner.token,
        );
        assert.equal(code(renamed), 'INTERNAL_SERVER_ERROR');
        const [project] = await queryRows<{ name: string }>(f.db.ds, 'SELECT name FROM projects WHERE id = $1', [
          owner.projectId,
        ]);
        assert.equal(project.name, 'Web', 'the rename was rolled back');

        const tokens = async () =>
          (
            await queryRows<{ n: string }>(f.db.ds, 'SELECT count(*) AS n FROM api_tokens WHERE user_id = $1', [
              owner.userId,
            ])
          )[0].n;
        const beforeTokens = await tokens();
        assert.equal(
          code(await gql(`mutation { createApiToken(name: "x", scopes: [READ]) { token } }`, {}, owner.token)),
          'INTERNAL_SERVER_ERROR',
        );
        assert.equal(await tokens(), beforeTokens, 'no token without its audit row');

        const invites = async () =>
          (
            await queryRows<{ n: string }>(
              f.db.ds,
              'SELECT count(*) AS n FROM invitations WHERE organization_id = $1',
              [owner.organizationId],
            )
          )[0].n;
        const beforeInvites = await invites();
        const invited = await gql(
          `mutation($o: ID!) { inviteMember(organizationId: $o, email: "x@example.com") { link } }`,
          { o: owner.organizationId },
          owner.token,
        );
        assert.equal(code(invited), 'INTERNAL_SERVER_ERROR');
        assert.equal(await invites(), beforeInvites);

        const email = (
          await queryRows<{ email: string }>(f.db.ds, 'SELECT email FROM users WHERE id = $1', [owner.userId])
        )[0].email;
        const sessions = async () =>
          (
            await queryRows<{ n: string }>(f.db.ds, 'SELECT count(*) AS n FROM sessions WHERE user_id = $1', [
              owner.userId,
            ])
          )[0].n;
        const beforeSessions = await sessions();
        const login = await gql(`mutation($e: String!) { login(email: $e, password: "long enough pw") { token } }`, {
          e: email,
        });
        assert.equal(code(login), 'INTERNAL_SERVER_ERROR');
        assert.equal(await sessions(), beforeSessions, 'no session without its audit row');
      } finally {
        await f.db.ds.query('ALTER TABLE audit_log DROP CONSTRAINT audit_test_refuses');
      }
      // And once the row can be written, the same change goes through.
      const ok = await gql(
        `mutation($p: ID!) { renameProject(id: $p, name: "Renamed") { id } }`,
        { p: owner.projectId },
        owner.token,
      );
      assert.equal(ok.errors, undefined);
    });

    test('the retention job purges audit rows older than a year, on every plan', async () => {
      const o = scenario.organizationId;
      await f.db.ds.query(
        `INSERT INTO audit_log (organization_id, created_at, actor_type, actor_label, action, target_type)
         VALUES ($1, now() - interval '366 days', 'system', 'old', 'project.created', 'project'),
                ($1, now() - interval '364 days', 'system', 'recent', 'project.created', 'project')`,
        [o],
      );
      const result = await purgeExpired(f.db.ds);
      assert.ok(result.auditLog >= 1);
      const labels = (
        await queryRows<{ actor_label: string }>(
          f.db.ds,
          `SELECT actor_label FROM audit_log WHERE actor_label IN ('old', 'recent')`,
        )
      ).map((r) => r.actor_label);
      assert.deepEqual(labels, ['recent']);
    });
  });
}

describe('audit log: the schema walk', () => {
  test('every admin-scope mutation (and the listed others) writes an audit row, or is exempt with a reason', async () => {
    assert.ok(postgresScenario, 'the PostgreSQL scenario ran first');
    const schema = await getSchema();
    const mutation = schema.getMutationType();
    assert.ok(mutation && isObjectType(mutation));
    const names = Object.keys(mutation.getFields());
    const missing: string[] = [];
    for (const name of names) {
      const audited = requiredScope('mutation', name) === 'admin' || AUDITED_BEYOND_ADMIN.has(name);
      if (!audited) continue;
      if (name in AUDIT_EXEMPT_MUTATIONS) {
        assert.ok(AUDIT_EXEMPT_MUTATIONS[name].length > 30, `${name}: say why it is exempt`);
        continue;
      }
      const calls = postgresScenario.rowsByMutation.get(name) ?? [];
      if (calls.length === 0 || calls.some((rows) => rows.length === 0)) missing.push(name);
    }
    assert.deepEqual(
      missing,
      [],
      'these mutations wrote no audit row: record one (core/src/audit) or exempt them in api/src/auth/audit-policy.ts',
    );
    for (const name of [...Object.keys(AUDIT_EXEMPT_MUTATIONS), ...AUDITED_BEYOND_ADMIN]) {
      assert.ok(names.includes(name), `audit-policy.ts names ${name}, which is no mutation`);
    }
  });
});
