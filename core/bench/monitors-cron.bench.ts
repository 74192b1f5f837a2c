/**
 * Issue 33: 10,000 cron monitors evaluated for missed check-ins in < 100 ms of database time
 * per minute. 10,000 monitors on crontabs of every 5 to 60 minutes; in each simulated minute
 * every monitor whose slot came checks in on time except 1 in 100 (their row moves past the
 * minute, as the worker's check-in does), and the scheduler runs its pass once a second with
 * the held clock: 60 passes. The time measured is the passes' wall time (their SQL). A second
 * table row: the worst case, all 10,000 overdue at once (a worker fleet back after an outage).
 *
 *   npx tsx core/bench/monitors-cron.bench.ts          (PostgreSQL at TRACKER_TEST_PG_URL)
 */
import { randomUUID } from 'node:crypto';
import { signUp } from '../src/accounts';
import { openDatabase } from '../src/db';
import { evaluateCronMonitors, nextSlotAfter } from '../src/monitors';
import { createProject } from '../src/projects';
import { createTestPostgres, fmt, loadAverage, table } from '../src/testing';

const MONITORS = 10_000;
const PERIODS = [5, 10, 15, 30, 60];

async function main() {
  const pg = await createTestPostgres();
  const db = await openDatabase({ databaseUrl: pg.url, dataDir: '' }, { migrate: true });
  try {
    const s = await signUp(
      db.ds,
      { email: `${randomUUID()}@example.com`, password: 'correct horse battery', organizationName: 'B' },
      'business',
    );
    const projectId = (await createProject(db.ds, s.user.id, s.organization.id, 'Jobs')).project.id;
    const t0 = Date.parse('2026-10-01T00:00:30Z');
    await db.ds.query(
      `INSERT INTO monitors (project_id, kind, slug, name, crontab, checkin_margin_minutes)
       SELECT $1, 'cron', 'job-' || g, 'job-' || g, '*/' || ($2::int[])[1 + g % 5] || ' * * * *', 1 FROM generate_series(1, $3) g`,
      [projectId, PERIODS, MONITORS],
    );
    // Each monitor's next slot after t0 and its deadline (slot + 1 min margin).
    const rows: Array<{ id: string; crontab: string }> = await db.ds.query('SELECT id, crontab FROM monitors');
    const slots = rows.map((r) => nextSlotAfter({ type: 'crontab', crontab: r.crontab, timezone: 'UTC' }, t0));
    await db.ds.query(
      `INSERT INTO monitor_environments (monitor_id, environment, expected_at, next_run_at)
       SELECT id, 'production', to_timestamp(s / 1000.0), to_timestamp(s / 1000.0 + 60)
         FROM unnest($1::uuid[], $2::float8[]) AS t(id, s)`,
      [rows.map((r) => r.id), slots],
    );
    await db.ds.query('ANALYZE monitor_environments; ANALYZE monitors');
    // The minute: monitors whose deadline falls in it and who check in (99 %) move a period on.
    const minuteStart = t0 + 30_000;
    const minuteEnd = minuteStart + 60_000;
    await db.ds.query(
      `UPDATE monitor_environments e SET next_run_at = e.next_run_at + interval '1 hour', expected_at = e.expected_at + interval '1 hour'
        WHERE e.next_run_at >= to_timestamp($1 / 1000.0) AND e.next_run_at < to_timestamp($2 / 1000.0)
          AND abs(hashtext(e.monitor_id::text)) % 100 <> 0`,
      [minuteStart, minuteEnd],
    );
    let ms = 0;
    let missed = 0;
    for (let i = 0; i < 60; i++) {
      const started = performance.now();
      const r = await evaluateCronMonitors(db.ds, { now: minuteStart + i * 1000 + 999, publicUrl: '' });
      ms += performance.now() - started;
      missed += r.missed;
    }
    process.stdout.write(`one minute, 60 passes, 1 % late: ${missed} missed, ${fmt(ms)} ms of passes\n`);
    // Worst case: every monitor overdue at once.
    await db.ds.query(
      `UPDATE monitor_environments SET next_run_at = now() - interval '1 hour', expected_at = now() - interval '2 hours'`,
    );
    const started = performance.now();
    const all = await evaluateCronMonitors(db.ds, { now: Date.now(), publicUrl: '' });
    const allMs = performance.now() - started;
    const report = table(
      ['case', 'monitors', 'missed', 'database time'],
      [
        ['one minute, 60 passes, 1 % late', MONITORS, missed, `${fmt(ms)} ms`],
        ['all overdue at once', MONITORS, all.missed, `${fmt(allMs)} ms`],
      ],
    );
    process.stdout.write(`${report}\nload average ${fmt(loadAverage(), 1)}\n`);
  } finally {
    await db.close();
    await pg.drop();
  }
}

void main();
