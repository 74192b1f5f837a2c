/**
 * Issue 33: 10,000 cron monitors evaluated for missed check-ins in < 100 ms of database time
 * per minute. 10,000 monitors on crontabs of every 5 to 60 minutes; in each simulated minute
 * all 10,000 monitors' slots come (01:00 for every schedule) and each checks in on time except 1 in 100 (their row moves past the
 * minute, as the worker's check-in does), and the scheduler runs its pass once a second with
 * the held clock: 60 passes. Measured: the passes' wall time (SQL, round trips and Node) and
 * PostgreSQL's own active time for the database (what the target calls database time). A second
 * table row: the worst case, all 10,000 overdue at once (a worker fleet back after an outage).
 *
 *   npx tsx core/bench/monitors-cron.bench.ts          (PostgreSQL at TRACKER_TEST_PG_URL)
 */
import { randomUUID } from 'node:crypto';
import { signUp } from '../src/accounts';
import { openDatabase } from '../src/db';
import { evaluateCronMonitors, nextSlotAfter } from '../src/monitors';
import { createProject } from '../src/projects';
import {
  createTestPostgres,
  describeMachine,
  fmt,
  loadAverage,
  machineLine,
  table,
  writeDocSection,
} from '../src/testing';

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
    // 00:55:30: every crontab's next slot is 01:00 (5, 10, 15, 30 and 60 all divide the hour), so
    // all 10,000 deadlines (slot + 1 min margin) fall in the measured minute, 01:01 to 01:02: the
    // busiest minute these schedules make.
    const t0 = Date.parse('2026-10-01T00:55:30Z');
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
    const minuteStart = Date.parse('2026-10-01T01:01:00Z');
    const minuteEnd = minuteStart + 60_000;
    await db.ds.query(
      `UPDATE monitor_environments e SET next_run_at = e.next_run_at + interval '1 hour', expected_at = e.expected_at + interval '1 hour'
        WHERE e.next_run_at >= to_timestamp($1 / 1000.0) AND e.next_run_at < to_timestamp($2 / 1000.0)
          AND abs(hashtext(e.monitor_id::text)) % 100 <> 0`,
      [minuteStart, minuteEnd],
    );
    // PostgreSQL's own count of time spent executing statements in this database (pg_stat_database
    // .active_time, PostgreSQL 14+): "database time" without the round trips and Node's share.
    // Backends flush it within 10 s of going idle, hence the waits.
    const activeMs = async () => {
      await new Promise((r) => setTimeout(r, 11_000));
      const [row] = await db.ds.query('SELECT active_time FROM pg_stat_database WHERE datname = current_database()');
      return Number(row.active_time);
    };
    const activeBefore = await activeMs();
    let ms = 0;
    let missed = 0;
    for (let i = 0; i < 60; i++) {
      const started = performance.now();
      const r = await evaluateCronMonitors(db.ds, { now: minuteStart + i * 1000 + 999, publicUrl: '' });
      ms += performance.now() - started;
      missed += r.missed;
    }
    const active = (await activeMs()) - activeBefore;
    if (missed < MONITORS / 200) throw new Error(`the minute found ${missed} missed check-ins: the scenario is wrong`);
    // Worst case: every monitor overdue at once.
    await db.ds.query(
      `UPDATE monitor_environments SET next_run_at = now() - interval '1 hour', expected_at = now() - interval '2 hours'`,
    );
    const started = performance.now();
    const all = await evaluateCronMonitors(db.ds, { now: Date.now(), publicUrl: '' });
    const allMs = performance.now() - started;
    const report = table(
      ['case', 'monitors', 'missed', 'wall time of the passes', 'PostgreSQL active time'],
      [
        ['one minute, 60 passes, 1 % late', MONITORS, missed, `${fmt(ms)} ms`, `${fmt(active)} ms`],
        ['all overdue at once', MONITORS, all.missed, `${fmt(allMs)} ms`, '—'],
      ],
    );
    const load = fmt(loadAverage(), 1);
    process.stdout.write(`${report}\nload average ${load}\n`);
    writeDocSection(
      'monitors-cron',
      `## Cron monitors: missed check-ins of 10,000 monitors (\`core/bench/monitors-cron.bench.ts\`, issue 33)

- **Date**: ${new Date().toISOString()}; **machine**: ${machineLine(describeMachine())}; load average (1 min) at the end ${load} (2 cores shared with other work).
- **Command**: \`npm run bench:monitors -w @tracker/core\`.
- **Scenario**: 10,000 cron monitors (\`*/5\` … \`0 * * * *\`, margin 1 min), all due in the same minute (01:00 is a slot of every schedule, the busiest minute they make); 99 % check in on time, the rest are missed; the scheduler's pass runs once a second with a held clock, 60 passes. **Target**: < 100 ms of database time per minute. "PostgreSQL active time" is \`pg_stat_database.active_time\` of the bench's database over the minute: time spent executing statements, without round trips or Node. The wall time adds the round trips (~7 statements per missed monitor: its check-in row, its issue, its activity) and is what load inflates.

${report}`,
    );
  } finally {
    await db.close();
    await pg.drop();
  }
}

void main();
