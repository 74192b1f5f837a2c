/**
 * Sessions in release health (issue 30, decision 045): the real, unmodified @sentry/node 11
 * (child processes, sentry-node-sender.cjs) sends single sessions and request aggregates to a
 * real Tracker; release health's crash-free figures must be the sessions' own, through GraphQL
 * and on the rendered Releases page, in both runtimes. Then hostile session items by hand: a
 * 10,000-session aggregate, updates without an init, garbage beside an event that must be kept.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { queryRows, setOrganizationPlan } from '@tracker/core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@tracker/core/testing';
import { chromium, type Browser } from 'playwright-core';
import type { Tracker } from '../src';
import { createTestEnv, gqlOk, MODES, signUpWithProject, startTracker, waitFor, type TestEnv } from './helpers';
import { buildEnvelope, item, sentryEventId } from './sentry-envelope';
import { runNodeScenario } from './sentry-sdk-harness';

const HEALTH = `query($p: ID!) { releases(projectId: $p, first: 50) { version environment health {
  basis crashFreeSessions usersSeen crashedUsers crashFreeUsers
  sessions { started exited errored crashed abnormal } } } }`;
const MARK = `mutation($p: ID!, $v: String!) { markRelease(projectId: $p, version: $v, environment: "sdk-test") { id } }`;
const ISSUES = `query($p: ID!) { issues(projectId: $p, first: 50) { nodes { title eventCount } } }`;
const PASSWORD = 'correct horse battery';
const TIMEOUT_MS = 30_000;

let browser: Browser | undefined;
before(async () => {
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, timeout: 30_000 });
});
after(async () => {
  await browser?.close().catch(() => undefined);
});

for (const mode of MODES) {
  describe(`sessions in release health (${mode})`, () => {
    let env: TestEnv | undefined;
    let tracker: Tracker | undefined;
    let url: string;
    let acct: Awaited<ReturnType<typeof signUpWithProject>>;
    let number: string;

    before(async () => {
      env = await createTestEnv(mode);
      tracker = await startTracker(env, { roles: ['ingest', 'worker', 'api', 'web'] });
      url = tracker.url;
      acct = await signUpWithProject(url, 'Shop API');
      await setOrganizationPlan(tracker.db.ds, acct.organization.slug, 'pro');
      number = new URL(acct.dsn).pathname.split('/').filter(Boolean).pop()!;
    });
    after(async () => {
      await tracker?.close().catch(() => undefined);
      await env?.cleanup().catch(() => undefined);
    });

    const q = <T = any>(query: string, variables: Record<string, unknown> = {}) =>
      gqlOk<T>(url, query, { p: acct.project.id, ...variables }, acct.token);
    const healthOf = async (version: string) =>
      (await q(HEALTH)).releases.find((r: any) => r.version === version && r.environment === 'sdk-test')?.health;
    /** Waits until the release's sessions say `started`, and answers its health. */
    const sessionsOf = (version: string, started: number) =>
      waitFor(
        `${started} sessions of ${version}`,
        async () => {
          const h = await healthOf(version);
          return h?.sessions?.started === started && h;
        },
        TIMEOUT_MS,
      );
    const post = (body: Buffer) =>
      fetch(`${url}/api/${number}/envelope/?sentry_key=${acct.key}&sentry_version=7`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-sentry-envelope' },
        body,
      });
    const envelope = (...items: ReturnType<typeof item>[]) =>
      buildEnvelope({ sent_at: new Date().toISOString() }, items);

    test("@sentry/node 11, the issue's case: crash-free figures are the sessions' (4/5 sessions, 3/4 users)", async () => {
      await q(MARK, { v: 'shop-api@11.0.0' });
      const sent = await runNodeScenario(11, 'sessions', acct.dsn);
      assert.equal(sent.flushed, true);
      const health = await sessionsOf('shop-api@11.0.0', 5);
      // The error-derived figure would be 1/2: only ada's handled error and dee's crash name users.
      assert.deepEqual(health, {
        basis: 'SESSIONS',
        sessions: { started: 5, exited: 3, errored: 1, crashed: 1, abnormal: 0 },
        crashFreeSessions: 0.8,
        usersSeen: 4,
        crashedUsers: 1,
        crashFreeUsers: 0.75,
      });
    });

    test('@sentry/node 11 request sessions (one `sessions` aggregate) count per request', async () => {
      await q(MARK, { v: 'shop-api@11.0.0-requests' });
      const sent = await runNodeScenario(11, 'request-sessions', acct.dsn);
      assert.equal(sent.flushed, true);
      const health = await sessionsOf('shop-api@11.0.0-requests', 4);
      assert.deepEqual(health, {
        basis: 'SESSIONS',
        sessions: { started: 4, exited: 3, errored: 1, crashed: 0, abnormal: 0 },
        crashFreeSessions: 1,
        usersSeen: 0,
        crashedUsers: 0,
        crashFreeUsers: null,
      });
    });

    test('a release without sessions keeps the error-derived figures, and says so', async () => {
      await q(MARK, { v: 'web@1.0.0' });
      const res = await post(
        envelope(
          item('event', {
            event_id: sentryEventId(),
            release: 'web@1.0.0',
            environment: 'sdk-test',
            user: { id: 'u1' },
            exception: { values: [{ type: 'Error', value: 'events only', mechanism: { handled: true } }] },
          }),
        ),
      );
      assert.equal(res.status, 200, await res.text());
      const health = await waitFor(
        'web@1.0.0 users',
        async () => {
          const h = await healthOf('web@1.0.0');
          return h?.usersSeen === 1 && h;
        },
        TIMEOUT_MS,
      );
      assert.deepEqual(health, {
        basis: 'EVENTS',
        sessions: null,
        crashFreeSessions: null,
        usersSeen: 1,
        crashedUsers: 0,
        crashFreeUsers: 1,
      });
    });

    test('the Releases page shows the sessions figures with "from sessions", the others "from error events"', async () => {
      const context = await browser!.newContext({ baseURL: url });
      try {
        const page = await context.newPage();
        const path = `/projects/${encodeURIComponent(acct.project.id)}/releases`;
        await page.goto(`/login?redirectTo=${encodeURIComponent(path)}`);
        await page.getByLabel('Email').fill(acct.email);
        await page.getByLabel('Password').fill(PASSWORD);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.waitForURL((u) => u.pathname === path);
        const region = page.getByRole('region', { name: 'Releases in sdk-test' });
        const crashFree = async (version: string) => {
          const row = region.locator('tbody tr').filter({ has: page.getByText(version, { exact: true }) });
          // innerText waits for the cell; allInnerTexts would read an empty table still loading (CI saw that).
          const text = await row.first().locator('td.health-cell').nth(2).innerText();
          return text.replace(/\s+/g, ' ').trim();
        };
        assert.equal(
          await crashFree('shop-api@11.0.0'),
          '75 % of 4 users · 80 % of 5 sessions crash-free from sessions',
        );
        assert.equal(await crashFree('web@1.0.0'), '0 crashed of 1 user from error events');
      } finally {
        await context.close();
      }
    });

    test('a 10,000-session aggregate is accepted, counted exactly, and costs one counter row', async () => {
      await q(MARK, { v: 'burst@1' });
      const aggregates = Array.from({ length: 100 }, (_, i) => ({
        started: new Date().toISOString(),
        exited: 98,
        errored: 1,
        crashed: i % 2,
        abnormal: 1 - (i % 2),
      }));
      const res = await post(
        envelope(item('sessions', { aggregates, attrs: { release: 'burst@1', environment: 'sdk-test' } })),
      );
      assert.equal(res.status, 200, await res.text());
      const health = await sessionsOf('burst@1', 10_000);
      assert.deepEqual(health.sessions, { started: 10_000, exited: 9_800, errored: 100, crashed: 50, abnormal: 50 });
      assert.equal(health.crashFreeSessions, 0.99);
      const rows = await queryRows<{ n: number }>(
        tracker!.db.ds,
        `SELECT (SELECT count(*) FROM release_sessions WHERE project_id = $1 AND release = 'burst@1')::int
              + (SELECT count(*) FROM session_states WHERE project_id = $1 AND release = 'burst@1')::int
              + (SELECT count(*) FROM release_session_users WHERE project_id = $1 AND release = 'burst@1')::int AS n`,
        [acct.project.id],
      );
      assert.equal(rows[0].n, 1, 'one counter row, no row per session');
    });

    test('updates of sessions never started are ignored; garbage gets a clear 400; other items are kept', async () => {
      await q(MARK, { v: 'hostile@1' });
      const session = (sid: string, init: boolean, status: string) => ({
        sid,
        init,
        status,
        errors: 0,
        did: 'mallory',
        attrs: { release: 'hostile@1', environment: 'sdk-test' },
      });
      const sid = () => sentryEventId();
      const ok = await post(
        envelope(item('session', session(sid(), false, 'crashed')), item('session', session(sid(), true, 'exited'))),
      );
      assert.equal(ok.status, 200, await ok.text());
      const health = await sessionsOf('hostile@1', 1);
      assert.deepEqual(health.sessions, { started: 1, exited: 1, errored: 0, crashed: 0, abnormal: 0 });
      assert.equal(health.crashFreeUsers, 1);

      // Only garbage: a 400 naming the item and what is wrong with it.
      for (const [payload, message] of [
        ['{not json', /item 1 \(session\)/],
        [{ ...session(sid(), true, 'exploded') }, /item 1 \(session\): status must be one of/],
        [{ sid: sid(), init: true }, /item 1 \(session\): attrs\.release is required/],
      ] as const) {
        const res = await post(envelope(item('session', payload)));
        assert.equal(res.status, 400);
        const body = (await res.json()) as { error: { code: string; message: string } };
        assert.equal(body.error.code, 'BAD_USER_INPUT');
        assert.match(body.error.message, message);
      }
      const tooMany = {
        aggregates: Array.from({ length: 1_001 }, () => ({ exited: 1 })),
        attrs: { release: 'hostile@1' },
      };
      const alone = await post(envelope(item('sessions', tooMany)));
      assert.equal(alone.status, 400);
      assert.match(
        ((await alone.json()) as any).error.message,
        /item 1 \(sessions\): aggregates has more than 1000 entries/,
      );

      // Beside an event: the event is taken (200 with its id) and stored; the bad items alone are dropped.
      const eventId = sentryEventId();
      const mixed = await post(
        envelope(
          item('session', '{not json'),
          item('event', {
            event_id: eventId,
            release: 'hostile@1',
            environment: 'sdk-test',
            exception: { values: [{ type: 'Error', value: 'kept beside garbage sessions' }] },
          }),
          item('sessions', tooMany),
          item('session', session(sid(), true, 'crashed')),
        ),
      );
      assert.equal(mixed.status, 200);
      assert.deepEqual(await mixed.json(), { id: eventId });
      await waitFor(
        'the event beside the garbage',
        async () => (await q(ISSUES)).issues.nodes.some((i: any) => i.title.includes('kept beside garbage sessions')),
        TIMEOUT_MS,
      );
      const after = await sessionsOf('hostile@1', 2);
      assert.deepEqual(after.sessions, { started: 2, exited: 1, errored: 0, crashed: 1, abnormal: 0 });
    });
  });
}
