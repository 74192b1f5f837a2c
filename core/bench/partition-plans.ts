/**
 * The plans of the hot reads of events, logs and vitals on partitioned tables (decision 029), for
 * docs/issue-queries.md: a pro organization (90 days) with 20 weeks of rows (200,000 events over
 * 1,000 issues, 200,000 log lines, 100,000 vitals reports), plus the weeks created ahead for
 * every plan: 29 partitions per table. Prints `EXPLAIN (ANALYZE, BUFFERS)` of each statement as
 * the code sends it (the text is copied from the file named above it).
 *
 * Run: `TSX_TSCONFIG_PATH=../tsconfig.json node --conditions=@tracker/source --import tsx bench/partition-plans.ts`
 * in `core/`. The database is dropped at the end.
 */
import { createProject, openDatabase, signUp, weekStart } from '../src';
import { ensurePartitionsBetween } from '../src/partitions';
import { createTestPostgres } from '../src/testing';

const DAY = 86_400_000;
const WEEKS = 20;

async function main(): Promise<void> {
  const pg = await createTestPostgres();
  const db = await openDatabase({ databaseUrl: pg.url, dataDir: '' }, { migrate: true });
  try {
    const s = await signUp(
      db.ds,
      { email: 'plans@example.com', password: 'long enough pw', organizationName: 'P' },
      'pro',
    );
    const { project } = await createProject(db.ds, s.user.id, s.organization.id, 'Web');
    const now = new Date();
    const from = new Date(weekStart(now).getTime() - (WEEKS - 1) * 7 * DAY);
    for (const table of ['events', 'logs', 'vitals_reports'] as const) {
      await ensurePartitionsBetween(db.ds, table, 90, from, now);
    }
    const span = (now.getTime() - from.getTime()) / 1000;
    await db.ds.query(
      `INSERT INTO issues (project_id, fingerprint, title, type, level, first_seen, last_seen)
       SELECT $1, 'p-' || k, 't' || k, 'Error', 'error', now(), now() FROM generate_series(0, 999) k`,
      [project.id],
    );
    await db.ds.query(
      `INSERT INTO events (project_id, issue_id, event_id, timestamp, received_at, level, type, message, environment, frames, tags, retention_days)
       SELECT $1, i.id, gen_random_uuid(), ts, ts, 'error', 'Error', 'm ' || s, 'production', '[]', '{}', 90
         FROM generate_series(0, 199999) s
         JOIN (SELECT id, row_number() OVER (ORDER BY id) - 1 AS k FROM issues WHERE project_id = $1) i ON i.k = s % 1000
         CROSS JOIN LATERAL (SELECT $2::timestamptz + (s * $3::float8 / 200000) * interval '1 second' AS ts) t`,
      [project.id, from.toISOString(), span],
    );
    await db.ds.query(
      `INSERT INTO logs (project_id, id, level, message, environment, tags, timestamp, received_at, retention_days)
       SELECT $1, gen_random_uuid(), (ARRAY['info', 'warn', 'error'])[1 + s % 3], 'line ' || s, 'production', '{}', ts, ts, 90
         FROM generate_series(0, 199999) s
         CROSS JOIN LATERAL (SELECT $2::timestamptz + (s * $3::float8 / 200000) * interval '1 second' AS ts) t`,
      [project.id, from.toISOString(), span],
    );
    await db.ds.query(
      `INSERT INTO vitals_reports (project_id, id, url, lcp, inp, cls, environment, tags, received_at, retention_days)
       SELECT $1, gen_random_uuid(), '/p/' || (s % 50), 500 + s % 4000, 20 + s % 500, (s % 40) / 100.0, 'production', '{}', ts, 90
         FROM generate_series(0, 99999) s
         CROSS JOIN LATERAL (SELECT $2::timestamptz + (s * $3::float8 / 100000) * interval '1 second' AS ts) t`,
      [project.id, from.toISOString(), span],
    );
    await db.ds.query('VACUUM ANALYZE');
    const [issue] = await db.ds.query(`SELECT id FROM issues WHERE project_id = $1 LIMIT 1`, [project.id]);
    const [parts] = await db.ds.query(`SELECT count(*)::int AS n FROM pg_partition_tree('events') WHERE isleaf`);
    console.log(`# ${parts.n} leaf partitions per table; 200,000 events, 200,000 logs, 100,000 vitals reports\n`);
    // Twice: the first plan on a connection reads the partitions' catalogue entries, the second
    // finds them cached (what a pooled connection of the API sees).
    const explain = async (title: string, sql: string, params: unknown[]) => {
      await db.ds.transaction(async (em) => {
        for (const run of ['first on this connection', 'again']) {
          const rows: Array<{ 'QUERY PLAN': string }> = await em.query(
            `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${sql}`,
            params,
          );
          console.log(`## ${title} (${run})\n${rows.map((r) => r['QUERY PLAN']).join('\n')}\n`);
        }
      });
    };
    // core/src/issues/find-issue.ts (findLatestEvents)
    await explain(
      'latest event of an issue',
      `SELECT e.* FROM unnest($1::uuid[]) AS asked(issue_id)
         CROSS JOIN LATERAL (
           SELECT * FROM events WHERE issue_id = asked.issue_id ORDER BY timestamp DESC, id DESC LIMIT 1
         ) e`,
      [[issue.id]],
    );
    // core/src/issues/issue-events.ts (listIssueEvents), first page of 25
    await explain(
      'events list of an issue (first page)',
      `SELECT e.*, to_char(e.timestamp AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS sort_key
         FROM events e WHERE e.issue_id = $1
        ORDER BY e.timestamp DESC, e.id DESC LIMIT $2`,
      [issue.id, 26],
    );
    // core/src/logs/search-logs.ts (searchLogs), first page of 50, no filter
    await explain(
      'logs page (first page, no filter)',
      `SELECT l.id, l.level, l.message, l.context, l.environment, l.release, l.tags, l.timestamp, l.received_at,
         to_char(l.timestamp AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS ts_key
       FROM logs l WHERE l.project_id = $1
       ORDER BY l.timestamp DESC, l.id DESC LIMIT $2`,
      [project.id, 51],
    );
    // core/src/vitals/summarize-vitals.ts (summarizeVitals) over the last 7 days; LCP only here
    await explain(
      'vitals page (last 7 days)',
      `SELECT count(*) AS page_views, percentile_cont(0.75) WITHIN GROUP (ORDER BY r.lcp) AS lcp_p75
         FROM vitals_reports r WHERE r.project_id = $1 AND r.received_at >= $2 AND r.received_at < $3`,
      [project.id, new Date(now.getTime() - 7 * DAY).toISOString(), now.toISOString()],
    );
  } finally {
    await db.close();
    await pg.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
