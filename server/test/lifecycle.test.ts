import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { deadLetterSink, setOrganizationPlan } from '@tracker/core';
import { RedisStreamQueue, startWorker } from '@tracker/ingest';
import type { Tracker } from '../src';
import {
  createTestEnv,
  gql,
  gqlOk,
  MODES,
  sendError,
  signUpWithProject,
  startTracker,
  waitFor,
  type TestEnv,
} from './helpers';

const ISSUE = `query($id: ID!) { issue(id: $id) { id status isRegression eventCount resolvedAt snoozedUntil
  resolvedInRelease { version environment } releases { version environment eventCount } } }`;

/**
 * Every row of the lifecycle table (docs/releases-and-lifecycle.md) as its own test, through the real ingest edge, queue and worker, and
 * the GraphQL mutations. Each test gets a fresh Pro project, so release records never leak
 * between rows.
 */
for (const mode of MODES) {
  describe(`issue lifecycle end to end (${mode})`, () => {
    let env: TestEnv;
    let tracker: Tracker;
    let url: string;
    /** How far the tracker's clock is ahead of the wall clock: a test moves it instead of waiting. */
    let aheadMs = 0;

    before(async () => {
      env = await createTestEnv(mode, { allowPrivateTargets: true });
      tracker = await startTracker(env, {}, { clock: () => Date.now() + aheadMs });
      url = tracker.url;
    });
    after(async () => {
      await tracker.close();
      await env.cleanup();
    });

    /** A fresh Pro project with an upload token and a NEW_ISSUE + REGRESSED_ISSUE rule each. */
    async function project() {
      const a = await signUpWithProject(url);
      await setOrganizationPlan(tracker.db.ds, a.organization.slug, 'pro');
      const t = await gqlOk(
        url,
        `mutation($p: ID!) { createUploadToken(projectId: $p, name: "ci") { token } }`,
        { p: a.project.id },
        a.token,
      );
      // Interval 0: every transition's alert is counted here (the 30-minute default would hold back a
      // second regression of one issue; that is tested in alert-rules.test.ts).
      for (const kind of ['NEW_ISSUE', 'REGRESSED_ISSUE']) {
        await gqlOk(
          url,
          `mutation($p: ID!, $k: AlertKind!) { createAlertRule(projectId: $p, kind: $k, actionIntervalMinutes: 0, channel: { type: WEBHOOK, url: "http://127.0.0.1:9/hook" }) { id } }`,
          { p: a.project.id, k: kind },
          a.token,
        );
      }
      let sent = 0;
      let issueId: string | undefined;
      const fingerprint = [randomUUID()];
      const p = {
        ...a,
        fingerprint,
        uploadToken: t.createUploadToken.token as string,
        /** Sends one event of the project's one issue and waits until the worker counted it. */
        async event(fields: { release?: string; environment?: string } = {}) {
          const r = await sendError(url, a.key, {
            type: 'TypeError',
            message: 'boom',
            environment: fields.environment ?? 'production',
            ...(fields.release ? { release: fields.release } : {}),
            fingerprint,
          });
          assert.equal(r.status, 202, JSON.stringify(r.body));
          sent += 1;
          issueId ??= await waitFor('the issue', async () => {
            const rows = await tracker.db.ds.query('SELECT id FROM issues WHERE project_id = $1', [a.project.id]);
            return rows[0]?.id as string | undefined;
          });
          await waitFor(`event ${sent} counted`, async () => (await p.issue()).eventCount === sent);
          return p.issue();
        },
        async issue() {
          return (await gqlOk(url, ISSUE, { id: issueId }, a.token)).issue;
        },
        async register(version: string, environment?: string) {
          const res = await fetch(`${url}/ingest/release`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${p.uploadToken}` },
            body: JSON.stringify({ version, ...(environment ? { environment } : {}) }),
          });
          assert.equal(res.status, 200, await res.text());
          await new Promise((r) => setTimeout(r, 5)); // distinct deploy times
        },
        async resolve() {
          return (
            await gqlOk(
              url,
              `mutation($id: ID!) { resolveIssue(id: $id) { status resolvedInRelease { version environment } } }`,
              { id: issueId },
              a.token,
            )
          ).resolveIssue;
        },
        async alerts(kind: string): Promise<number> {
          const rows = await tracker.db.ds.query(
            'SELECT count(*)::int AS n FROM alert_deliveries WHERE issue_id = $1 AND kind = $2',
            [issueId, kind],
          );
          return rows[0].n;
        },
      };
      return p;
    }

    test('a new issue is open and fires NEW_ISSUE once', async () => {
      const p = await project();
      const issue = await p.event();
      assert.equal(issue.status, 'OPEN');
      await p.event();
      assert.equal(await p.alerts('NEW_ISSUE'), 1);
    });

    test('open → resolve: resolved in the newest release record by deploy time, across environments', async () => {
      const p = await project();
      await p.register('1.0.0');
      await p.register('2.0.0', 'staging');
      await p.event({ release: '1.0.0' });
      const r = await p.resolve();
      assert.equal(r.status, 'RESOLVED');
      assert.deepEqual(r.resolvedInRelease, { version: '2.0.0', environment: 'staging' });
    });

    test('open → resolve with no release records: resolved in none', async () => {
      const p = await project();
      await p.event();
      assert.equal((await p.resolve()).resolvedInRelease, null);
    });

    test('bulk resolve resolves each issue in its project', async () => {
      const p = await project();
      await p.event();
      const issue = await p.issue();
      const r = await gqlOk(
        url,
        `mutation($ids: [ID!]!) { resolveIssues(ids: $ids) { id status } }`,
        { ids: [issue.id, randomUUID()] },
        p.token,
      );
      assert.deepEqual(r.resolveIssues, [{ id: issue.id, status: 'RESOLVED' }]);
    });

    test('resolved + event, project has no release records: regression, rules fire', async () => {
      const p = await project();
      await p.event();
      await p.resolve();
      const issue = await p.event({ release: 'whatever' });
      assert.equal(issue.status, 'OPEN');
      assert.equal(issue.isRegression, true);
      assert.equal(await p.alerts('REGRESSED_ISSUE'), 1);
    });

    test('resolved in R + event of a later release registered for its environment: regression', async () => {
      const p = await project();
      await p.register('1.0.0');
      await p.event({ release: '1.0.0' });
      await p.resolve();
      await p.register('1.1.0');
      const issue = await p.event({ release: '1.1.0' });
      assert.equal(issue.status, 'OPEN');
      assert.equal(issue.isRegression, true);
      assert.equal(await p.alerts('REGRESSED_ISSUE'), 1);
    });

    test('the timeline: first seen with its release, resolved by whom, regressed with its reason (issue 19)', async () => {
      const p = await project();
      await p.register('1.3.2');
      await p.event({ release: '1.3.2' });
      await p.resolve();
      await p.register('1.4.0');
      const issue = await p.event({ release: '1.4.0' });
      assert.equal(issue.isRegression, true);
      const [deployed] = await tracker.db.ds.query(
        `SELECT deployed_at FROM releases WHERE project_id = $1 AND version = '1.4.0'`,
        [p.project.id],
      );
      const minute = new Date(deployed.deployed_at).toISOString().slice(0, 16).replace('T', ' ');
      const { activity } = (
        await gqlOk(
          url,
          `query($id: ID!) { issue(id: $id) { activity { kind actor { email } message data } } }`,
          { id: issue.id },
          p.token,
        )
      ).issue;
      // Alert deliveries to a closed port fail: no ALERT_SENT here (server/test/alerts.test.ts has one).
      assert.deepEqual(
        activity.map((a: any) => [a.kind, a.actor?.email ?? null, a.message]),
        [
          [
            'REGRESSED',
            null,
            `event in release 1.4.0, deployed ${minute} UTC to production, after resolved in 1.3.2`,
          ],
          ['RESOLVED', p.email, 'Resolved in release 1.3.2 (production)'],
          ['FIRST_SEEN', null, 'First seen in release 1.3.2 (production)'],
        ],
      );
      assert.equal(activity[0].data.release, '1.4.0');
      assert.equal(activity[0].data.resolvedIn, '1.3.2');
      assert.equal(activity[0].data.reason, 'newer-release');
      // Release health reads regressions by when the event was received, not when a worker got to it.
      const [row] = await tracker.db.ds.query(
        `SELECT g.regressed_at, e.received_at FROM issue_regressions g
           JOIN events e ON e.issue_id = g.issue_id AND e.release = g.release
          WHERE g.issue_id = $1`,
        [issue.id],
      );
      assert.equal(new Date(row.regressed_at).toISOString(), new Date(row.received_at).toISOString());
    });

    test('resolved in R + the same release: stays resolved, counted', async () => {
      const p = await project();
      await p.register('1.0.0');
      await p.event({ release: '1.0.0' });
      await p.resolve();
      const issue = await p.event({ release: '1.0.0' });
      assert.equal(issue.status, 'RESOLVED');
      assert.equal(issue.eventCount, 2);
      assert.equal(await p.alerts('REGRESSED_ISSUE'), 0);
    });

    test('resolved in R + an event without a release: stays resolved', async () => {
      const p = await project();
      await p.register('1.0.0');
      await p.event({ release: '1.0.0' });
      await p.resolve();
      assert.equal((await p.event()).status, 'RESOLVED');
    });

    test('resolved in R + a release never registered: stays resolved', async () => {
      const p = await project();
      await p.register('1.0.0');
      await p.event({ release: '1.0.0' });
      await p.resolve();
      assert.equal((await p.event({ release: '9.9.9' })).status, 'RESOLVED');
    });

    test('resolved in R + a later release registered only for another environment: stays resolved', async () => {
      const p = await project();
      await p.register('1.0.0');
      await p.event({ release: '1.0.0' });
      await p.resolve();
      await p.register('1.1.0', 'staging');
      const issue = await p.event({ release: '1.1.0', environment: 'production' });
      assert.equal(issue.status, 'RESOLVED');
      // ...while the same release in the environment it was registered for does regress.
      const staging = await p.event({ release: '1.1.0', environment: 'staging' });
      assert.equal(staging.status, 'OPEN');
    });

    test('resolved in R + a release deployed earlier than R: stays resolved', async () => {
      const p = await project();
      await p.register('0.9.0');
      await p.register('1.0.0');
      await p.event({ release: '1.0.0' });
      await p.resolve();
      assert.equal((await p.event({ release: '0.9.0' })).status, 'RESOLVED');
    });

    test('re-registering a release bumps its deploy time: an old version redeployed after R regresses', async () => {
      const p = await project();
      await p.register('1.0.0');
      await p.register('2.0.0');
      await p.event({ release: '2.0.0' });
      assert.deepEqual((await p.resolve()).resolvedInRelease, { version: '2.0.0', environment: 'production' });
      assert.equal((await p.event({ release: '1.0.0' })).status, 'RESOLVED', 'deployed before R');
      await p.register('1.0.0'); // rollback: 1.0.0 is now the newest deploy
      const issue = await p.event({ release: '1.0.0' });
      assert.equal(issue.status, 'OPEN');
      assert.equal(issue.isRegression, true);
    });

    test('resolved with no release records, then releases appear: a release deployed after the resolution regresses', async () => {
      const p = await project();
      await p.event();
      await p.resolve();
      assert.equal((await p.event()).status, 'OPEN', 'no release records at all: regression (row 2)');
      await p.resolve();
      await p.register('1.0.0');
      // Resolved-in is none; a release deployed after the resolution, for the event's environment.
      const issue = await p.event({ release: '1.0.0' });
      assert.equal(issue.status, 'OPEN');
      assert.equal(await p.alerts('REGRESSED_ISSUE'), 2);
    });

    test('resolved with no release records, releases appear: no release or another environment stays resolved', async () => {
      const p = await project();
      await p.event();
      await p.resolve();
      await p.register('1.0.0', 'staging');
      assert.equal((await p.event()).status, 'RESOLVED');
      assert.equal((await p.event({ release: '1.0.0', environment: 'production' })).status, 'RESOLVED');
    });

    test('open → snooze: snoozed; an event before the end is counted; after the end it reopens as a regression', async () => {
      const p = await project();
      await p.event();
      const issue = await p.issue();
      const until = new Date(Date.now() + 3_600_000).toISOString();
      const s = await gqlOk(
        url,
        `mutation($id: ID!, $u: String!) { snoozeIssue(id: $id, until: $u) { status snoozedUntil } }`,
        { id: issue.id, u: until },
        p.token,
      );
      assert.deepEqual(s.snoozeIssue, { status: 'SNOOZED', snoozedUntil: until });
      const during = await p.event();
      assert.equal(during.status, 'SNOOZED');
      assert.equal(during.eventCount, 2);
      // The snooze ends by the time the edge stamps on the event, which follows the tracker's clock.
      aheadMs = 3_600_000 + 1_000;
      let ended;
      try {
        ended = await p.event();
      } finally {
        aheadMs = 0;
      }
      assert.equal(ended.status, 'OPEN');
      assert.equal(ended.isRegression, true);
      assert.equal(await p.alerts('REGRESSED_ISSUE'), 1);
    });

    test("snooze: 'in the future' is judged by the tracker's clock, not the wall clock", async () => {
      const p = await project();
      await p.event();
      const issue = await p.issue();
      const inAnHour = new Date(Date.now() + 3_600_000).toISOString();
      aheadMs = 2 * 3_600_000;
      let refused;
      try {
        refused = await gql(
          url,
          `mutation($id: ID!, $u: String!) { snoozeIssue(id: $id, until: $u) { status } }`,
          { id: issue.id, u: inAnHour },
          p.token,
        );
      } finally {
        aheadMs = 0;
      }
      assert.equal(refused.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT', JSON.stringify(refused));
      assert.match(refused.errors![0].message, /future/);
    });

    test('reopen: back to open, not a regression; releases are listed per environment', async () => {
      const p = await project();
      await p.event({ release: '1.0.0' });
      await p.event({ release: '1.0.0', environment: 'staging' });
      await p.resolve();
      const issue = await p.issue();
      const r = await gqlOk(
        url,
        `mutation($id: ID!) { reopenIssue(id: $id) { status isRegression } }`,
        { id: issue.id },
        p.token,
      );
      assert.deepEqual(r.reopenIssue, { status: 'OPEN', isRegression: false });
      const releases = (await p.issue()).releases
        .map((x: any) => `${x.version}@${x.environment}:${x.eventCount}`)
        .sort();
      assert.deepEqual(releases, ['1.0.0@production:1', '1.0.0@staging:1']);
    });

    if (mode === 'postgres+redis') {
      test('concurrent events for one resolved issue, two workers: one transition, one alert', async () => {
        const p = await project();
        await p.event();
        await p.resolve();
        // A second worker on the same stream, with small batches, racing the tracker's own.
        const queue = await RedisStreamQueue.connect({
          url: env.config.redisUrl!,
          prefix: env.config.redisPrefix,
          deadLetters: deadLetterSink(tracker.db.ds),
        });
        const second = startWorker({ ds: tracker.db.ds, queue, batchSize: 3, publicUrl: () => tracker.url });
        try {
          const burst = await Promise.all(
            Array.from({ length: 40 }, () =>
              sendError(url, p.key, {
                type: 'TypeError',
                message: 'boom',
                environment: 'production',
                fingerprint: p.fingerprint,
              }),
            ),
          );
          assert.ok(burst.every((r) => r.status === 202));
          await waitFor('41 events counted', async () => (await p.issue()).eventCount === 41, 30_000);
          const issue = await p.issue();
          assert.equal(issue.status, 'OPEN');
          assert.equal(await p.alerts('REGRESSED_ISSUE'), 1);
        } finally {
          await second.stop();
          await queue.close();
        }
      });
    }
  });
}
