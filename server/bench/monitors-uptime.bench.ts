/**
 * Issue 33: 1,000 uptime monitors at a 1-minute interval on one worker keep every check within
 * 5 s of its due time. One scheduler (the worker role's) against PostgreSQL, a loopback HTTP
 * server as every monitor's target (TRACKER_ALLOW_PRIVATE_TARGETS), due times spread over the
 * first minute as a steady state spreads them; it runs 75 s of real time. Lag = when the check
 * was stored − when it was due.
 *
 *   npx tsx server/bench/monitors-uptime.bench.ts
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { createProject, openDatabase, signUp } from '@tracker/core';
import {
  createTestPostgres,
  describeMachine,
  fmt,
  loadAverage,
  machineLine,
  table,
  writeDocSection,
} from '@tracker/core/testing';
import { startMonitorScheduler } from '@tracker/ingest';

const MONITORS = 1_000;
const RUN_MS = 75_000;

async function main() {
  const site = http.createServer((_req, res) => res.writeHead(200).end('ok'));
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', () => r()));
  const port = (site.address() as AddressInfo).port;
  const pg = await createTestPostgres();
  const db = await openDatabase({ databaseUrl: pg.url, dataDir: '' }, { migrate: true });
  try {
    const s = await signUp(
      db.ds,
      { email: `${randomUUID()}@example.com`, password: 'correct horse battery', organizationName: 'B' },
      'business',
    );
    const projectId = (await createProject(db.ds, s.user.id, s.organization.id, 'Sites')).project.id;
    const start = Date.now() + 3_000;
    await db.ds.query(
      `WITH m AS (
         INSERT INTO monitors (project_id, kind, slug, name, url, interval_minutes, timeout_ms, failure_tolerance)
         SELECT $1, 'uptime', 'site-' || g, 'site-' || g, $2 || g, 1, 10000, 3 FROM generate_series(1, $3) g RETURNING id, slug)
       INSERT INTO monitor_environments (monitor_id, environment, expected_at, next_run_at)
       SELECT id, 'production', d, d FROM (
         SELECT id, to_timestamp(($4::bigint + (split_part(slug, '-', 2)::int % 60) * 1000) / 1000.0) AS d FROM m) x`,
      [projectId, `http://127.0.0.1:${port}/health?i=`, MONITORS, start],
    );
    const cpuBefore = process.cpuUsage();
    const scheduler = startMonitorScheduler({
      ds: db.ds,
      publicUrl: () => '',
      allowPrivateTargets: true,
      log: () => undefined,
    });
    await new Promise((r) => setTimeout(r, RUN_MS));
    await scheduler.stop();
    // This process is the worker and the target site (a few µs a request): its CPU per check is
    // the scheduler's cost, a slight over-count.
    const cpu = process.cpuUsage(cpuBefore);
    const [r] = await db.ds.query(
      `SELECT count(*)::int AS checks,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM created_at - expected_at)) * 1000 AS p50,
              percentile_cont(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM created_at - expected_at)) * 1000 AS p99,
              max(extract(epoch FROM created_at - expected_at)) * 1000 AS max,
              count(*) FILTER (WHERE created_at - expected_at > interval '5 seconds')::int AS late,
              count(*) FILTER (WHERE status <> 'ok')::int AS failed
         FROM monitor_check_ins`,
    );
    const [twice] = await db.ds.query(
      `SELECT count(*)::int AS n FROM (SELECT monitor_id, expected_at FROM monitor_check_ins GROUP BY 1, 2 HAVING count(*) > 1) d`,
    );
    const report = table(
      [
        'monitors',
        'checks in 75 s',
        'lag p50',
        'lag p99',
        'lag max',
        'over 5 s',
        'failed',
        'ran twice',
        'CPU per check',
      ],
      [
        [
          MONITORS,
          r.checks,
          `${fmt(Number(r.p50))} ms`,
          `${fmt(Number(r.p99))} ms`,
          `${fmt(Number(r.max))} ms`,
          r.late,
          r.failed,
          twice.n,
          `${fmt((cpu.user + cpu.system) / Math.max(1, r.checks))} µs`,
        ],
      ],
    );
    const load = fmt(loadAverage(), 1);
    process.stdout.write(`${report}\nload average ${load}\n`);
    writeDocSection(
      'monitors-uptime',
      `## Uptime monitors: 1,000 at a 1-minute interval on one worker (\`server/bench/monitors-uptime.bench.ts\`, issue 33)

- **Date**: ${new Date().toISOString()}; **machine**: ${machineLine(describeMachine())}; load average (1 min) at the end ${load} (2 cores shared with other work).
- **Command**: \`npm run bench:monitors -w @tracker/server\`.
- **Scenario**: one scheduler (the worker role's) on PostgreSQL, 1,000 uptime monitors every minute against a loopback HTTP server, due times spread over the minute, 75 s of real time. Lag = stored − due. **Target**: every check within 5 s of its due time, none run twice. CPU per check is this process's (the scheduler, plus the tiny target server) divided by the checks.

${report}`,
    );
  } finally {
    await db.close();
    await pg.drop();
    site.close();
  }
}

void main();
