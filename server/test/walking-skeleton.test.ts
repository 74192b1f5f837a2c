import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Tracker } from '../src';
import {
  chromeStack,
  createTestEnv,
  gql,
  gqlOk,
  ISSUES_QUERY,
  MODES,
  sendError,
  signUpWithProject,
  startTracker,
  waitFor,
  type TestEnv,
} from './helpers';

for (const mode of MODES) {
  describe(`an error goes in, a grouped issue comes out (${mode})`, () => {
    let env: TestEnv;
    let tracker: Tracker;
    let url: string;
    before(async () => {
      env = await createTestEnv(mode);
      tracker = await startTracker(env);
      url = tracker.url;
    });
    after(async () => {
      await tracker.close();
      await env.cleanup();
    });

    async function issuesOf(token: string, projectId: string) {
      return (await gqlOk(url, ISSUES_QUERY, { p: projectId, first: 100 }, token)).issues;
    }

    test('groups errors into issues with event and user counts', async () => {
      const a = await signUpWithProject(url);
      assert.match(a.dsn, /^http:\/\/et_[0-9a-f]{32}@localhost:\d+\/[1-9]\d*$/);
      const base = { type: 'TypeError', message: "Cannot read properties of undefined (reading 'id')", environment: 'production' };
      // Same code path from two deploys (different bundle hash, shifted line) → one issue.
      const sends = [
        { ...base, stack: chromeStack('loadUser', 10), user: { id: 'u1' } },
        { ...base, stack: chromeStack('loadUser', 12).replace('3f2a1b9c', '77aa88bb'), user: { id: 'u2' } },
        { ...base, stack: chromeStack('loadUser', 10), user: { id: 'u1' } },
        { ...base, stack: chromeStack('loadUser', 10), user: { email: 'Ann@Example.com' } },
        { ...base, stack: chromeStack('loadUser', 10) },
        // Another function: another issue.
        { ...base, stack: chromeStack('saveCart', 40), user: { id: 'u1' } },
      ];
      for (const body of sends) {
        const r = await sendError(url, a.key, body);
        assert.equal(r.status, 202);
        assert.match(r.body.id, /^[0-9a-f-]{36}$/);
      }
      const issues = await waitFor('6 events grouped', async () => {
        const list = await issuesOf(a.token, a.project.id);
        const total = list.nodes.reduce((n: number, i: any) => n + i.eventCount, 0);
        return total === 6 && list;
      });
      assert.equal(issues.totalCount, 2);
      const load = issues.nodes.find((i: any) => i.culprit?.startsWith('loadUser'));
      const cart = issues.nodes.find((i: any) => i.culprit?.startsWith('saveCart'));
      assert.ok(load && cart, JSON.stringify(issues.nodes));
      assert.equal(load.eventCount, 5);
      assert.equal(load.userCount, 3, 'u1, u2 and ann@example.com');
      assert.equal(cart.eventCount, 1);
      assert.equal(cart.userCount, 1);
      assert.equal(load.title, "TypeError: Cannot read properties of undefined (reading 'id')");
      assert.equal(load.status, 'OPEN');
      assert.equal(load.level, 'ERROR');
      assert.deepEqual(load.latestEvent.frames[0], {
        filename: 'https://app.example.com/static/js/main.3f2a1b9c.js',
        function: 'loadUser',
        lineno: 10,
        colno: 17,
        inApp: true,
      });
      const detail = await gqlOk(url, `query($id: ID!) { issue(id: $id) { id eventCount userCount firstSeen lastSeen } }`, { id: load.id }, a.token);
      assert.equal(detail.issue.eventCount, 5);
      assert.ok(Date.parse(detail.issue.firstSeen) <= Date.parse(detail.issue.lastSeen));
    });

    test('a fingerprint overrides grouping', async () => {
      const a = await signUpWithProject(url);
      const common = { type: 'Error', environment: 'production', fingerprint: ['checkout-timeout'] };
      await sendError(url, a.key, { ...common, message: 'timeout after 3000 ms', stack: chromeStack('pay', 1) });
      await sendError(url, a.key, { ...common, message: 'gateway closed', stack: chromeStack('refund', 9) });
      await sendError(url, a.key, { type: 'Error', environment: 'production', message: 'timeout after 3000 ms', stack: chromeStack('pay', 1) });
      const issues = await waitFor('3 events', async () => {
        const list = await issuesOf(a.token, a.project.id);
        return list.nodes.reduce((n: number, i: any) => n + i.eventCount, 0) === 3 && list;
      });
      assert.deepEqual(issues.nodes.map((i: any) => i.eventCount).sort(), [1, 2]);
    });

    test('the same eventId twice counts once', async () => {
      const a = await signUpWithProject(url);
      const eventId = randomUUID();
      const body = { eventId, type: 'RangeError', message: 'Invalid array length', environment: 'staging', user: { id: 'x' } };
      const first = await sendError(url, a.key, body);
      const second = await sendError(url, a.key, body);
      assert.equal(first.body.id, eventId);
      assert.equal(second.body.id, eventId);
      // A marker event sent afterwards proves the worker has passed both copies.
      await sendError(url, a.key, { type: 'Marker', message: 'done', environment: 'staging' });
      const issues = await waitFor('marker', async () => {
        const list = await issuesOf(a.token, a.project.id);
        return list.nodes.some((i: any) => i.type === 'Marker') && list;
      });
      const range = issues.nodes.find((i: any) => i.type === 'RangeError');
      assert.equal(range.eventCount, 1);
      assert.equal(range.userCount, 1);
    });

    test("a project's DSN and a user's session reach nothing of another tenant", async () => {
      const a = await signUpWithProject(url, 'A');
      const b = await signUpWithProject(url, 'B');
      await sendError(url, a.key, { type: 'AOnly', message: 'a', environment: 'production' });
      await sendError(url, b.key, { type: 'BOnly', message: 'b', environment: 'production' });
      const bIssues = await waitFor('b issue', async () => {
        const list = await issuesOf(b.token, b.project.id);
        return list.totalCount === 1 && list;
      });
      assert.equal(bIssues.nodes[0].type, 'BOnly');
      await waitFor('a issue', async () => (await issuesOf(a.token, a.project.id)).totalCount === 1);

      const cross = await gql(url, ISSUES_QUERY, { p: b.project.id, first: 10 }, a.token);
      assert.equal(cross.errors?.[0].extensions?.code, 'NOT_FOUND');
      const missing = await gql(url, ISSUES_QUERY, { p: randomUUID(), first: 10 }, a.token);
      assert.deepEqual(cross.errors?.[0].message, missing.errors?.[0].message, 'another tenant looks like nothing');
      const issue = await gql(url, `query($id: ID!) { issue(id: $id) { id } }`, { id: bIssues.nodes[0].id }, a.token);
      assert.equal(issue.data.issue, null);
      const project = await gql(url, `query($id: ID!) { project(id: $id) { id } }`, { id: b.project.id }, a.token);
      assert.equal(project.data.project, null);
      const create = await gql(
        url,
        `mutation($o: ID!) { createProject(organizationId: $o, name: "x") { id } }`,
        { o: b.organization.id },
        a.token,
      );
      assert.equal(create.errors?.[0].extensions?.code, 'NOT_FOUND');
    });

    test('pages through issues with cursors', async () => {
      const a = await signUpWithProject(url);
      for (let i = 0; i < 5; i++) {
        await sendError(url, a.key, { type: `E${i}`, message: 'm', environment: 'production', timestamp: new Date(Date.now() - (5 - i) * 1000).toISOString() });
      }
      await waitFor('5 issues', async () => (await issuesOf(a.token, a.project.id)).totalCount === 5);
      const seen: string[] = [];
      let after: string | null = null;
      for (;;) {
        const page: any = (await gqlOk(url, ISSUES_QUERY, { p: a.project.id, first: 2, after }, a.token)).issues;
        seen.push(...page.nodes.map((n: any) => n.type));
        assert.equal(page.totalCount, 5);
        if (!page.pageInfo.hasNextPage) break;
        after = page.pageInfo.endCursor;
      }
      assert.deepEqual(seen, ['E4', 'E3', 'E2', 'E1', 'E0']);
      const bad = await gql(url, ISSUES_QUERY, { p: a.project.id, first: 2, after: 'garbage' }, a.token);
      assert.equal(bad.errors?.[0].extensions?.code, 'BAD_USER_INPUT');
    });
  });
}
