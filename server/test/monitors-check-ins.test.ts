/**
 * Cron check-ins, three ways (issue 33), on both runtimes: the ping URL from a shell script with
 * curl, the real @sentry/node 11 (`withMonitor`, `captureCheckIn` with monitor_config upserts),
 * and @tracker/node's `withMonitor`; and the bad input list, each a clear 4xx that changes nothing.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { createTempDir } from '@tracker/core/testing';
import * as trackerNode from '@tracker/node';
import type { Tracker } from '../src';
import { createTestEnv, MODES, sentryProject, startTracker, waitFor, type TestEnv } from './helpers';
import { runSender } from './run-sender';

const run = promisify(execFile);

const PING_SCRIPT = `#!/bin/sh
# What a crontab line runs around a job: in_progress, the job, then ok naming the run.
set -eu
ID=$(curl -fsS -X POST "$BASE/ingest/monitor/$SLUG?status=in_progress&key=$KEY" | sed 's/.*"id":"\\([^"]*\\)".*/\\1/')
sleep 0.2
curl -fsS -H "Authorization: DSN $KEY" "$BASE/ingest/monitor/$SLUG?status=ok&checkInId=$ID&duration=1500" > /dev/null
echo "$ID"
`;

const MONITORS = `query($p: ID!) { monitors(projectId: $p) { id slug crontab timezone intervalMinutes checkinMarginMinutes
  maxRuntimeMinutes failureTolerance recoveryThreshold status
  checkIns(first: 10) { id status durationMs environment } } }`;
const CREATE = `mutation($p: ID!, $i: MonitorInput!) { createMonitor(projectId: $p, kind: CRON, input: $i) { id } }`;

for (const mode of MODES) {
  describe(`cron check-ins (${mode})`, () => {
    let env: TestEnv;
    let tracker: Tracker;
    const tmp = createTempDir();
    before(async () => {
      env = await createTestEnv(mode);
      tracker = await startTracker(env);
    });
    after(async () => {
      await tracker?.close();
      await env?.cleanup();
      tmp.remove();
    });

    async function project(name: string, plan = 'pro') {
      const p = await sentryProject(tracker.url, name);
      await tracker.db.ds.query('UPDATE organizations SET plan = $2 WHERE id = $1', [p.organization.id, plan]);
      return p;
    }
    const monitorsOf = async (p: Awaited<ReturnType<typeof project>>) =>
      (await p.q<{ monitors: any[] }>(MONITORS)).monitors;
    const ping = (key: string | null, slug: string, query = '', init: RequestInit = {}) =>
      fetch(`${tracker.url}/ingest/monitor/${slug}?${query}`, {
        ...init,
        headers: { ...(key ? { authorization: `DSN ${key}` } : {}), ...(init.headers as Record<string, string>) },
      });

    test('curl from a shell script: in_progress, then ok naming the run, stored as one check-in', async () => {
      const p = await project('curl');
      await p.q(CREATE, {
        p: p.project.id,
        i: { slug: 'nightly-backup', crontab: '0 2 * * *', timezone: 'Europe/Berlin' },
      });
      const script = join(tmp.path, 'ping.sh');
      writeFileSync(script, PING_SCRIPT);
      chmodSync(script, 0o755);
      const { stdout } = await run(script, [], {
        env: { ...process.env, BASE: tracker.url, SLUG: 'nightly-backup', KEY: p.key },
        encoding: 'utf8',
      });
      const id = stdout.trim();
      assert.match(id, /^[0-9a-f-]{36}$/);
      const [m] = await waitFor('the closed check-in', async () => {
        const ms = await monitorsOf(p);
        return ms[0]?.checkIns[0]?.status === 'ok' ? ms : undefined;
      });
      assert.deepEqual(m.checkIns, [{ id, status: 'ok', durationMs: 1500, environment: 'production' }]);
      assert.equal(m.status, 'OK');
      // Check-ins are free of the event quota.
      const usage = await p.q<{ usage: { events: { used: number } } }>(
        `query($o: ID!) { usage(organizationId: $o) { events { used } } }`,
        { o: p.organization.id },
      );
      assert.equal(usage.usage.events.used, 0);
    });

    test('bad input: each a clear 4xx, and nothing is stored', async () => {
      const p = await project('bad');
      await p.q(CREATE, { p: p.project.id, i: { slug: 'job', intervalMinutes: 10 } });
      const expectError = async (res: Response, status: number, message: RegExp) => {
        const body = (await res.json()) as { error: { message: string } };
        assert.equal(res.status, status, JSON.stringify(body));
        assert.match(body.error.message, message);
        return res;
      };
      await expectError(await ping(p.key, 'no-such-job'), 404, /no monitor "no-such-job"/);
      await expectError(await ping(p.key, 'job', 'duration=-5'), 400, /duration/);
      await expectError(await ping(p.key, 'job', `duration=${25 * 3600 * 1000}`), 400, /duration.*24 hours/);
      await expectError(await ping(p.key, 'job', 'status=finished'), 400, /status/);
      await expectError(await ping(p.key, 'job', 'checkInId=nope'), 400, /check_in_id/);
      await expectError(await ping(null, 'job'), 401, /key/);
      await expectError(await ping(null, 'job', 'key=et_00000000000000000000000000000000'), 401, /unknown/);
      // A flood of one monitor's check-ins: past the per-monitor limit, 429 with Retry-After.
      const answers: Response[] = [];
      for (let i = 0; i < 1000; i += 100) {
        answers.push(...(await Promise.all(Array.from({ length: 100 }, () => ping(p.key, 'job', 'status=ok')))));
      }
      const limited = answers.filter((r) => r.status === 429);
      assert.ok(limited.length > 0, 'some were rate-limited');
      assert.equal(limited[0].headers.get('retry-after'), '1');
      assert.match(
        ((await limited[0].json()) as { error: { message: string } }).error.message,
        /more than 10 check-ins in a second/,
      );
      const accepted = answers.filter((r) => r.status === 202).length;
      assert.equal(accepted + limited.length, 1000);
      const ms = await waitFor(
        'the accepted flood stored',
        async () => {
          const rows = await tracker.db.ds.query(
            `SELECT count(*)::int AS n FROM monitor_check_ins c JOIN monitors m ON m.id = c.monitor_id WHERE m.project_id = $1`,
            [p.project.id],
          );
          return rows[0].n === accepted ? rows : undefined;
        },
        60_000,
      );
      assert.equal(ms[0].n, accepted, 'only accepted check-ins are stored; the refused ones left nothing');
    });

    test('@sentry/node 11 withMonitor and captureCheckIn create the monitors from monitor_config and check in', async () => {
      const p = await project('sentry');
      const sent = await runSender<{ errorCheckInId: string }>(
        process.execPath,
        [join(__dirname, 'sentry-monitor-sender.cjs')],
        { SENTRY_DSN: p.sentryDsn },
        90_000,
      );
      const ms = await waitFor(
        'both monitors and their check-ins',
        async () => {
          const list = await monitorsOf(p);
          const nightly = list.find((m) => m.slug === 'sentry-nightly');
          const interval = list.find((m) => m.slug === 'sentry-interval');
          return nightly?.checkIns[0]?.status === 'ok' && interval?.checkIns.length ? { nightly, interval } : undefined;
        },
        60_000,
      );
      assert.equal(ms.nightly.crontab, '30 3 * * *');
      assert.equal(ms.nightly.timezone, 'Europe/Berlin');
      assert.equal(ms.nightly.checkinMarginMinutes, 7);
      assert.equal(ms.nightly.maxRuntimeMinutes, 45);
      assert.equal(ms.nightly.failureTolerance, 2);
      assert.equal(ms.nightly.recoveryThreshold, 3);
      assert.equal(ms.nightly.checkIns.length, 1, 'in_progress and ok are one run');
      assert.equal(ms.nightly.checkIns[0].environment, 'sdk-test');
      assert.ok(ms.nightly.checkIns[0].durationMs >= 0);
      assert.equal(ms.interval.intervalMinutes, 120);
      assert.equal(ms.interval.checkIns[0].status, 'error');
      assert.equal(ms.interval.checkIns[0].id.replace(/-/g, ''), sent.errorCheckInId.replace(/-/g, ''));
    });

    test("a monitor_config or check-in id of another project's monitor changes nothing there", async () => {
      const a = await project('victim');
      const b = await project('attacker', 'free');
      await a.q(CREATE, { p: a.project.id, i: { slug: 'payroll', crontab: '0 6 * * 1', timezone: 'UTC' } });
      const started = (await (await ping(a.key, 'payroll', 'status=in_progress')).json()) as { id: string };
      await waitFor('A in progress', async () => (await monitorsOf(a))[0]?.checkIns.length === 1);
      const envelope = [
        JSON.stringify({ dsn: b.sentryDsn }),
        JSON.stringify({ type: 'check_in' }),
        JSON.stringify({
          check_in_id: started.id.replace(/-/g, ''),
          monitor_slug: 'payroll',
          status: 'error',
          monitor_config: { schedule: { type: 'crontab', value: '* * * * *' }, timezone: 'Asia/Tokyo' },
        }),
      ].join('\n');
      const res = await fetch(`${tracker.url}/api/${b.number}/envelope/`, { method: 'POST', body: envelope });
      assert.equal(res.status, 200);
      // B got a monitor of its own; A's is as it was, its run still in progress.
      await waitFor("B's own monitor", async () => (await monitorsOf(b)).find((m) => m.checkIns.length === 1));
      const [mine] = await monitorsOf(a);
      assert.equal(mine.crontab, '0 6 * * 1');
      assert.equal(mine.timezone, 'UTC');
      assert.deepEqual(
        mine.checkIns.map((c: { id: string; status: string }) => [c.id, c.status]),
        [[started.id, 'in_progress']],
      );
      const [theirs] = await monitorsOf(b);
      assert.equal(theirs.crontab, '* * * * *');
      assert.notEqual(theirs.checkIns[0].id, started.id);
    });

    test('@tracker/node withMonitor sends in_progress then ok with the duration, creating the monitor from its config', async () => {
      const p = await project('tracker-node');
      trackerNode.init({ dsn: p.dsn, exitOnFatal: false, breadcrumbs: false, environment: 'staging' });
      try {
        const value = await trackerNode.withMonitor(
          'sdk-job',
          async () => {
            await new Promise((r) => setTimeout(r, 30));
            return 42;
          },
          { crontab: '*/15 * * * *', timezone: 'Europe/Berlin' },
        );
        assert.equal(value, 42);
        await trackerNode.flush(10_000);
        const stats = trackerNode.getStats();
        assert.equal(stats.failed + stats.dropped, 0, JSON.stringify({ stats, drops: trackerNode.getDroppedCounts() }));
      } finally {
        await trackerNode.close(5_000);
      }
      const [m] = await waitFor(
        'the sdk-job run closed',
        async () => {
          const list = await monitorsOf(p);
          return list[0]?.checkIns[0]?.status === 'ok' ? list : undefined;
        },
        30_000,
      );
      assert.equal(m.crontab, '*/15 * * * *');
      assert.equal(m.checkIns.length, 1);
      assert.equal(m.checkIns[0].environment, 'staging');
      assert.ok(m.checkIns[0].durationMs >= 25);
    });
  });
}
