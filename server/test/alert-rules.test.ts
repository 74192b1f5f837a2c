import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { deadLetterSink } from '@tracker/core';
import { RedisStreamQueue, startWorker } from '@tracker/ingest';
import type { Tracker } from '../src';
import { createTestEnv, gql, gqlOk, MODES, sendError, startTracker, waitFor, type TestEnv } from './helpers';

/** A real HTTP receiver on loopback that keeps every POST body by path. */
async function startReceiver() {
  const hits: Array<{ path: string; body: any }> = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      hits.push({ path: req.url ?? '', body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    on: (path: string) => hits.filter((h) => h.path === path).map((h) => h.body),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const CREATE = `mutation($p: ID!, $k: AlertKind!, $c: AlertChannelInput!, $t: Int, $w: Int, $q: String,
  $f: AlertFilterInput, $i: Int, $d: Int) {
  createAlertRule(projectId: $p, kind: $k, channel: $c, threshold: $t, windowMinutes: $w, query: $q, filter: $f,
    actionIntervalMinutes: $i, digestMinutes: $d) {
    id kind threshold windowMinutes query actionIntervalMinutes digestMinutes mutedUntil
    filter { environments minLevel tags { key value } release assigned } } }`;
const DELIVERIES = `query($p: ID!) { alertRules(projectId: $p) { id deliveries { status kind issueId nextAttemptAt } } }`;
const MINUTE = 60_000;

for (const mode of MODES) {
  describe(`alert rules: triggers, conditions, interval, digest and mutes (${mode})`, () => {
    let env: TestEnv;
    let tracker: Tracker;
    let url: string;
    let receiver: Awaited<ReturnType<typeof startReceiver>>;
    let token: string;
    let orgId: string;
    /** How far the tracker's clock is ahead of the wall clock: tests move it instead of waiting. */
    let aheadMs = 0;
    const now = () => Date.now() + aheadMs;

    before(async () => {
      receiver = await startReceiver();
      env = await createTestEnv(mode, { allowPrivateTargets: true });
      tracker = await startTracker(
        env,
        {},
        { clock: now, alerts: { sweepMs: 100, backoff: () => 200, timeoutMs: 2_000 } },
      );
      url = tracker.url;
      const s = await gqlOk(
        url,
        `mutation($e: String!) { signup(email: $e, password: "correct horse battery", organizationName: "Alerts") {
          token organization { id } } }`,
        { e: `alerts-${randomUUID()}@example.com` },
      );
      token = s.signup.token;
      orgId = s.signup.organization.id;
    });
    after(async () => {
      await tracker.close();
      await env.cleanup();
      await receiver.close();
    });

    async function project(): Promise<{ id: string; key: string }> {
      const p = await gqlOk(
        url,
        `mutation($o: ID!, $n: String!) { createProject(organizationId: $o, name: $n) { id dsn } }`,
        { o: orgId, n: `p-${randomUUID().slice(0, 8)}` },
        token,
      );
      return { id: p.createProject.id, key: new URL(p.createProject.dsn).username };
    }

    async function rule(projectId: string, kind: string, path: string, extra: Record<string, unknown> = {}) {
      return (
        await gqlOk(
          url,
          CREATE,
          { p: projectId, k: kind, c: { type: 'WEBHOOK', url: receiver.origin + path }, ...extra },
          token,
        )
      ).createAlertRule;
    }

    async function send(key: string, body: Record<string, unknown>) {
      const r = await sendError(url, key, { type: 'Error', message: 'boom', environment: 'production', ...body });
      assert.equal(r.status, 202, JSON.stringify(r.body));
    }

    async function sendLog(key: string, body: Record<string, unknown>) {
      const res = await fetch(`${url}/ingest/log`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `DSN ${key}` },
        body: JSON.stringify({ environment: 'production', ...body }),
      });
      assert.equal(res.status, 202, await res.text());
    }

    /** Waits until the worker has stored `n` events in the project (its alerts are written with them). */
    async function processed(projectId: string, n: number) {
      await waitFor(`${n} events stored`, async () => {
        const r = await gqlOk(
          url,
          `query($p: ID!) { issues(projectId: $p, first: 100) { nodes { eventCount } } }`,
          {
            p: projectId,
          },
          token,
        );
        const total = r.issues.nodes.reduce((a: number, i: { eventCount: number }) => a + i.eventCount, 0);
        return total === n;
      });
    }

    async function deliveries(projectId: string) {
      const r = await gqlOk(url, DELIVERIES, { p: projectId }, token);
      return r.alertRules.flatMap((x: { deliveries: unknown[] }) => x.deliveries);
    }

    async function hitsOn(path: string, n: number) {
      return waitFor(`${n} alert(s) on ${path}`, async () => {
        const got = receiver.on(path);
        return got.length >= n ? got : undefined;
      });
    }

    test('NEW_ISSUE fires only for an event meeting every condition: environment, level, tag, release glob', async () => {
      const p = await project();
      const r = await rule(p.id, 'NEW_ISSUE', '/new', {
        f: {
          environments: ['production', 'eu'],
          minLevel: 'ERROR',
          tags: [{ key: 'team', value: 'cart' }],
          release: 'shop@2.*',
        },
      });
      assert.deepEqual(r.filter, {
        environments: ['production', 'eu'],
        minLevel: 'ERROR',
        tags: [{ key: 'team', value: 'cart' }],
        release: 'shop@2.*',
        assigned: null,
      });
      assert.equal(r.actionIntervalMinutes, 30, 'the default interval');
      const good = { tags: { team: 'cart' }, release: 'shop@2.4.1', level: 'error' };
      const misses = [
        { ...good, environment: 'staging' },
        { ...good, level: 'warning' },
        { ...good, tags: { team: 'search' } },
        { ...good, release: 'shop@1.9' },
        { ...good, release: undefined },
      ];
      for (const m of misses) await send(p.key, { ...m, fingerprint: [randomUUID()], message: 'miss' });
      await processed(p.id, misses.length);
      assert.equal((await deliveries(p.id)).length, 0, 'no condition failed silently');
      await send(p.key, { ...good, environment: 'eu', level: 'fatal', fingerprint: [randomUUID()], message: 'hit' });
      const [alert] = await hitsOn('/new', 1);
      assert.equal(alert.kind, 'NEW_ISSUE');
      assert.equal(alert.event.message, 'hit');
      assert.equal(alert.event.environment, 'eu');
      assert.equal(alert.eventsSinceLastAlert, null, 'a first alert has no previous one');
      assert.match(alert.links.muteRule, new RegExp(`/projects/${p.id}/alerts/mute\\?rule=${r.id}$`));
      assert.match(alert.links.muteIssue, new RegExp(`&issue=${alert.issue.id}$`));
      assert.equal(receiver.on('/new').length, 1);
    });

    test('ISSUE_FREQUENCY: more than N in M minutes; the interval holds it back and the next alert counts what came between', async () => {
      const p = await project();
      await rule(p.id, 'ISSUE_FREQUENCY', '/freq', { t: 2, w: 5 });
      const fp = [randomUUID()];
      for (let i = 1; i <= 2; i++) await send(p.key, { fingerprint: fp });
      await processed(p.id, 2);
      assert.equal((await deliveries(p.id)).length, 0, 'two is not more than two');
      await send(p.key, { fingerprint: fp });
      const [first] = await hitsOn('/freq', 1);
      assert.equal(first.kind, 'ISSUE_FREQUENCY');
      assert.deepEqual(first.window, { minutes: 5, threshold: 2, count: 3, unit: 'events' });
      assert.equal(first.issue.eventCount, 3);
      await send(p.key, { fingerprint: fp });
      await processed(p.id, 4);
      assert.equal((await deliveries(p.id)).length, 1, 'within the 30-minute interval: held back');

      aheadMs += 31 * MINUTE; // past the interval, and the window has emptied
      await send(p.key, { fingerprint: fp });
      await processed(p.id, 5);
      assert.equal((await deliveries(p.id)).length, 1, 'one event in the new window is not more than two');
      for (let i = 0; i < 2; i++) await send(p.key, { fingerprint: fp });
      const [, second] = await hitsOn('/freq', 2);
      assert.equal(second.window.count, 3);
      assert.equal(second.eventsSinceLastAlert, 4, 'the held-back 4th, then the 5th, 6th and 7th');
      // lastAlertAt is the tracker's clock at the first firing; triggeredAt the outbox row's time.
      assert.ok(Math.abs(Date.parse(second.lastAlertAt) - Date.parse(first.triggeredAt)) < 5_000);
    });

    test('USERS_AFFECTED counts distinct users in the window', async () => {
      const p = await project();
      await rule(p.id, 'USERS_AFFECTED', '/users', { t: 1, w: 10 });
      const fp = [randomUUID()];
      await send(p.key, { fingerprint: fp, user: { id: 'u1' } });
      await send(p.key, { fingerprint: fp, user: { id: 'u1' } });
      await processed(p.id, 2);
      assert.equal((await deliveries(p.id)).length, 0, 'one user twice is one user');
      await send(p.key, { fingerprint: fp, user: { id: 'u2' } });
      const [alert] = await hitsOn('/users', 1);
      assert.deepEqual(alert.window, { minutes: 10, threshold: 1, count: 2, unit: 'users' });
    });

    test("NEW_RELEASE_ISSUE: an existing issue's first event in a release", async () => {
      const p = await project();
      await rule(p.id, 'NEW_RELEASE_ISSUE', '/release');
      const fp = [randomUUID()];
      await send(p.key, { fingerprint: fp, release: 'shop@1.0' });
      await processed(p.id, 1);
      assert.equal((await deliveries(p.id)).length, 0, 'a new issue is NEW_ISSUE, not this');
      await send(p.key, { fingerprint: fp, release: 'shop@1.1' });
      const [alert] = await hitsOn('/release', 1);
      assert.deepEqual(alert.newRelease, { version: 'shop@1.1', environment: 'production' });
      await send(p.key, { fingerprint: fp, release: 'shop@1.1' });
      await processed(p.id, 3);
      assert.equal((await deliveries(p.id)).length, 1, 'the second event in shop@1.1 is not a first');
    });

    test('ERROR_SPIKE: the project over N errors per minute across issues; the payload has no single issue', async () => {
      const p = await project();
      await rule(p.id, 'ERROR_SPIKE', '/spike', { t: 1, w: 2 });
      await send(p.key, { fingerprint: [randomUUID()] });
      await send(p.key, { fingerprint: [randomUUID()] });
      await processed(p.id, 2);
      assert.equal((await deliveries(p.id)).length, 0, '2 in 2 minutes is 1 a minute: not over 1');
      await send(p.key, { fingerprint: [randomUUID()] });
      const [alert] = await hitsOn('/spike', 1);
      assert.deepEqual(alert.window, { minutes: 2, threshold: 1, count: 3, unit: 'events', ratePerMinute: 1.5 });
      assert.equal(alert.issue, undefined);
      assert.equal(alert.links.muteIssue, undefined);
    });

    test('LOG_MATCH: an error log containing the query (any case), under the conditions', async () => {
      const p = await project();
      await rule(p.id, 'LOG_MATCH', '/log', { q: 'payment failed', f: { environments: ['production'] } });
      await sendLog(p.key, { level: 'info', message: 'payment failed (retrying)' });
      await sendLog(p.key, { level: 'error', message: 'database timeout' });
      await sendLog(p.key, { level: 'error', message: 'Payment FAILED in staging', environment: 'staging' });
      await sendLog(p.key, { level: 'error', message: 'Payment failed for order 7' });
      const [alert] = await hitsOn('/log', 1);
      assert.equal(alert.kind, 'LOG_MATCH');
      assert.equal(alert.query, 'payment failed');
      assert.equal(alert.log.message, 'Payment failed for order 7');
      assert.equal(alert.log.level, 'error');
      const logs = await gqlOk(url, `query($p: ID!) { logs(projectId: $p) { nodes { id } } }`, { p: p.id }, token);
      assert.equal(logs.logs.nodes.length, 4);
      assert.equal(receiver.on('/log').length, 1);
    });

    test('assigned: only issues assigned to someone', async () => {
      const p = await project();
      await rule(p.id, 'ISSUE_FREQUENCY', '/assigned', { t: 0, w: 5, i: 0, f: { assigned: true } });
      const fp = [randomUUID()];
      await send(p.key, { fingerprint: fp });
      await processed(p.id, 1);
      assert.equal((await deliveries(p.id)).length, 0, 'unassigned');
      // Assignment is issue 19's mutation; the column is what the condition reads.
      await tracker.db.ds.query(
        `UPDATE issues SET assignee_id = (SELECT user_id FROM memberships LIMIT 1) WHERE project_id = $1`,
        [p.id],
      );
      await send(p.key, { fingerprint: fp });
      const [alert] = await hitsOn('/assigned', 1);
      assert.equal(alert.window.count, 1, 'only the assigned event counted');
    });

    test('digest: firings within N minutes go out as one message when it closes', async () => {
      const p = await project();
      const r = await rule(p.id, 'NEW_ISSUE', '/digest', { d: 10 });
      assert.equal(r.digestMinutes, 10);
      for (const m of ['one', 'two', 'three']) await send(p.key, { fingerprint: [randomUUID()], message: m });
      await processed(p.id, 3);
      const held = await deliveries(p.id);
      assert.equal(held.length, 1, 'three firings, one digest');
      assert.equal(held[0].status, 'PENDING');
      assert.ok(Date.parse(held[0].nextAttemptAt) > Date.now() + 9 * MINUTE, 'due when the digest closes');
      assert.equal(receiver.on('/digest').length, 0);

      aheadMs += 11 * MINUTE; // the digest has closed by the tracker's clock: the next firing sends it
      await send(p.key, { fingerprint: [randomUUID()], message: 'four' });
      const [digest] = await hitsOn('/digest', 1);
      assert.equal(digest.digest.count, 3);
      assert.equal(digest.digest.minutes, 10);
      assert.deepEqual(digest.digest.items.map((i: any) => i.event.message).sort(), ['one', 'three', 'two']);
      const after = await deliveries(p.id);
      assert.equal(after.length, 2, 'the fourth opened the next digest');
      await waitFor('first digest delivered', async () =>
        (await deliveries(p.id)).some((d: { status: string }) => d.status === 'DELIVERED'),
      );
      assert.equal(receiver.on('/digest').length, 1);
    });

    test('muteAlertRule and muteIssueAlerts hold alerts back until the time, null unmutes', async () => {
      const p = await project();
      const r = await rule(p.id, 'ISSUE_FREQUENCY', '/muted', { t: 0, w: 5, i: 0 });
      const until = new Date(now() + 60 * MINUTE).toISOString();
      const muted = await gqlOk(
        url,
        `mutation($id: ID!, $u: String) { muteAlertRule(id: $id, until: $u) { mutedUntil } }`,
        { id: r.id, u: until },
        token,
      );
      assert.equal(muted.muteAlertRule.mutedUntil, until);
      const fp = [randomUUID()];
      await send(p.key, { fingerprint: fp });
      await processed(p.id, 1);
      assert.equal((await deliveries(p.id)).length, 0, 'the rule is muted');
      await gqlOk(
        url,
        `mutation($id: ID!) { muteAlertRule(id: $id, until: null) { mutedUntil } }`,
        { id: r.id },
        token,
      );
      await send(p.key, { fingerprint: fp });
      const [alert] = await hitsOn('/muted', 1);
      assert.equal(alert.eventsSinceLastAlert, null);
      const issueId = alert.issue.id;

      const m = await gqlOk(
        url,
        `mutation($i: ID!, $u: String) { muteIssueAlerts(issueId: $i, until: $u) { id alertsMutedUntil } }`,
        { i: issueId, u: new Date(now() + 60 * MINUTE).toISOString() },
        token,
      );
      assert.equal(m.muteIssueAlerts.id, issueId);
      await send(p.key, { fingerprint: fp });
      await processed(p.id, 3);
      assert.equal((await deliveries(p.id)).length, 1, 'the issue is muted');
      aheadMs += 61 * MINUTE; // the mute has run out
      await send(p.key, { fingerprint: fp });
      await hitsOn('/muted', 2);

      const past = await gql(
        url,
        `mutation($i: ID!, $u: String) { muteIssueAlerts(issueId: $i, until: $u) { id } }`,
        { i: issueId, u: new Date(now() - MINUTE).toISOString() },
        token,
      );
      assert.equal(past.errors?.[0].extensions?.code, 'BAD_USER_INPUT');
      assert.match(past.errors![0].message, /until: must be in the future/);
    });

    if (mode === 'postgres+redis') {
      test('two workers racing on one burst count every event once and fire each rule once', async () => {
        const p = await project();
        const freq = await rule(p.id, 'ISSUE_FREQUENCY', '/race-freq', { t: 29, w: 5 });
        const users = await rule(p.id, 'USERS_AFFECTED', '/race-users', { t: 19, w: 5 });
        const spike = await rule(p.id, 'ERROR_SPIKE', '/race-spike', { t: 5, w: 5 });
        // A second worker on the same stream, with small batches, racing the tracker's own.
        const queue = await RedisStreamQueue.connect({
          url: env.config.redisUrl!,
          prefix: env.config.redisPrefix,
          deadLetters: deadLetterSink(tracker.db.ds),
        });
        // Like a real worker process, it queues the deliveries it writes on the alerts queue (without
        // it, they would wait for the sweeper's 60 s re-queue of lost messages).
        const second = startWorker({
          ds: tracker.db.ds,
          queue,
          alerts: tracker.alertsQueue,
          batchSize: 3,
          publicUrl: () => url,
          clock: now,
        });
        try {
          const fp = [randomUUID()];
          const burst = await Promise.all(
            Array.from({ length: 40 }, (_, i) =>
              sendError(url, p.key, {
                type: 'Error',
                message: 'race',
                environment: 'production',
                fingerprint: fp,
                user: { id: `u${i}` },
              }),
            ),
          );
          assert.ok(burst.every((r) => r.status === 202));
          await processed(p.id, 40);
          const [f] = await hitsOn('/race-freq', 1);
          const [u] = await hitsOn('/race-users', 1);
          const [s] = await hitsOn('/race-spike', 1);
          assert.ok(f.window.count > 29 && u.window.count > 19 && s.window.count > 25, 'fired past each threshold');
          const sums = await tracker.db.ds.query(
            `SELECT rule_id, sum(events)::int AS n FROM alert_rule_counts WHERE rule_id = ANY($1::uuid[]) GROUP BY rule_id`,
            [[freq.id, users.id, spike.id]],
          );
          for (const r of sums) assert.equal(r.n, 40, 'every event counted once, by both workers together');
          const [distinct] = await tracker.db.ds.query(
            `SELECT count(DISTINCT user_key)::int AS n FROM alert_rule_users WHERE rule_id = $1`,
            [users.id],
          );
          assert.equal(distinct.n, 40);
          const all = await deliveries(p.id);
          assert.equal(all.length, 3, 'one delivery per rule: the interval held the rest back');
          assert.equal(receiver.on('/race-freq').length + receiver.on('/race-users').length, 2);
        } finally {
          await second.stop();
          await queue.close();
        }
      });
    }

    test('settings are checked per kind with messages that say what is missing', async () => {
      const p = await project();
      const cases: Array<[Record<string, unknown>, RegExp]> = [
        [{ k: 'ISSUE_FREQUENCY', w: 5 }, /threshold: required for ISSUE_FREQUENCY/],
        [{ k: 'USERS_AFFECTED', t: 5 }, /windowMinutes: required for USERS_AFFECTED/],
        [{ k: 'ERROR_SPIKE', t: 5, w: 0 }, /windowMinutes: must be a whole number from 1 to 1440/],
        [{ k: 'LOG_MATCH' }, /query: required for LOG_MATCH/],
        [{ k: 'NEW_ISSUE', t: 5 }, /threshold: only for/],
        [{ k: 'NEW_ISSUE', q: 'x' }, /query: only for LOG_MATCH/],
        [{ k: 'ERROR_SPIKE', t: 1, w: 1, f: { assigned: true } }, /filter.assigned/],
        [{ k: 'NEW_ISSUE', i: -1 }, /actionIntervalMinutes: must be a whole number/],
        [{ k: 'NEW_ISSUE', d: 0 }, /digestMinutes: must be a whole number from 1/],
        [{ k: 'NEW_ISSUE', f: { tags: [{ key: '', value: 'x' }] } }, /filter.tags.key: must not be empty/],
      ];
      for (const [vars, message] of cases) {
        const r = await gql(
          url,
          CREATE,
          { p: p.id, c: { type: 'WEBHOOK', url: `${receiver.origin}/x` }, ...vars },
          token,
        );
        assert.equal(r.errors?.[0].extensions?.code, 'BAD_USER_INPUT', JSON.stringify(vars));
        assert.match(r.errors![0].message, message);
      }
      // Changing the kind re-checks the rule as a whole; a counting rule becomes an issue rule cleanly.
      const r = await rule(p.id, 'NEW_ISSUE', '/x');
      const bad = await gql(
        url,
        `mutation($id: ID!) { updateAlertRule(id: $id, kind: LOG_MATCH) { id } }`,
        { id: r.id },
        token,
      );
      assert.match(bad.errors![0].message, /query: required for LOG_MATCH/);
      const ok = await gqlOk(
        url,
        `mutation($id: ID!) { updateAlertRule(id: $id, kind: ISSUE_FREQUENCY, threshold: 10, windowMinutes: 60,
           digestMinutes: 15, filter: { release: "web@*" }) { kind threshold windowMinutes digestMinutes filter { release } } }`,
        { id: r.id },
        token,
      );
      assert.deepEqual(ok.updateAlertRule, {
        kind: 'ISSUE_FREQUENCY',
        threshold: 10,
        windowMinutes: 60,
        digestMinutes: 15,
        filter: { release: 'web@*' },
      });
      const back = await gqlOk(
        url,
        `mutation($id: ID!) { updateAlertRule(id: $id, kind: NEW_ISSUE, digestMinutes: null) { threshold windowMinutes digestMinutes } }`,
        { id: r.id },
        token,
      );
      assert.deepEqual(back.updateAlertRule, { threshold: null, windowMinutes: null, digestMinutes: null });

      // Another tenant: as if the rule and the issue did not exist.
      const other = await gqlOk(
        url,
        `mutation($e: String!) { signup(email: $e, password: "correct horse battery", organizationName: "B") { token } }`,
        { e: `b-${randomUUID()}@example.com` },
      );
      const denied = await gql(
        url,
        `mutation($id: ID!) { muteAlertRule(id: $id, until: null) { id } }`,
        { id: r.id },
        other.signup.token,
      );
      assert.equal(denied.errors?.[0].extensions?.code, 'NOT_FOUND');
    });
  });
}
