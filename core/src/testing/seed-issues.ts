import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { ensurePartitionsBetween } from '../partitions/ensure-partitions';
import { PLANS } from '../plans';
import type { PlanId } from '../entities/organization.entity';

export interface Seeded {
  events: number;
  issues: number;
  eventsBytes: number;
  tableSize: string;
  serverVersion: string;
}

export interface SeedSize {
  events: number;
  issues: number;
  /**
   * Events of issue 0 (`bench-0`), the first ones generated; the rest are shared by the other
   * issues. 0 (the default): every issue gets the same share.
   */
  bigIssueEvents?: number;
}

/**
 * `events` events over `issues` issues of one project, in set-based SQL, for the benches of the
 * issues API (api/bench) and of the dashboard (server/bench). Each issue is one grouping key
 * (`bench-<k>`); event n belongs to issue n mod `issues`, so every issue gets the same share,
 * unless `bigIssueEvents` gives issue 0 a larger one. The secondary indexes of `events` are
 * dropped during the load and rebuilt after it (a bulk build is several times faster than a
 * million single-row index inserts); the derived tables are then filled from the events exactly
 * as the worker keeps them.
 */
export async function seedIssues(ds: DataSource, projectId: string, n: SeedSize): Promise<Seeded> {
  const big = n.bigIssueEvents ?? 0;
  if (big > 0 && (n.issues < 2 || big > n.events))
    throw new Error('seedIssues: bigIssueEvents needs 2+ issues and at most `events`');
  // Which issue event s belongs to ($4 = issues, $5 = bigIssueEvents).
  const issueOf = big > 0 ? 'CASE WHEN s < $5 THEN 0 ELSE 1 + (s - $5) % ($4 - 1) END' : 's % $4';
  // Rows are stored with their organization's plan retention, in week partitions (decision 029):
  // the weeks of the last 30 days, made before this session takes PGlite's one connection.
  const [org] = await ds.query(
    'SELECT o.plan FROM projects p JOIN organizations o ON o.id = p.organization_id WHERE p.id = $1',
    [projectId],
  );
  const retentionDays = PLANS[org.plan as PlanId].retentionDays;
  await ensurePartitionsBetween(ds, 'events', retentionDays, new Date(Date.now() - 31 * 86_400_000), new Date());
  // One session throughout: the temporary table and the SET live in it. On PostgreSQL a client of
  // its own: at 10,000,000 events the set-based fills below outlast the pool's statement and
  // query timeouts, which are meant for requests.
  const url = (ds.options as { url?: string }).url;
  const own = url ? new Client({ connectionString: url }) : undefined;
  const runner = own ? undefined : ds.createQueryRunner();
  if (own) await own.connect();
  else await runner!.connect();
  const c = {
    query: async (sql: string, params?: unknown[]) =>
      own ? { rows: (await own.query(sql, params)).rows } : { rows: await runner!.query(sql, params) },
  };
  try {
    await c.query('SET maintenance_work_mem = 262144'); // 256 MB, in kB: faster index builds
    await c.query(
      `INSERT INTO releases (project_id, version, environment, deployed_at)
       SELECT $1, 'v' || r, env, now() - ((5 - r) * 6 || ' days')::interval
         FROM generate_series(1, 5) r, unnest(ARRAY['production', 'staging']) env`,
      [projectId],
    );
    // Issue k: 70% production only, 20% staging only, 10% both; 2% fatal, 10% warnings.
    await c.query(
      `INSERT INTO issues (project_id, fingerprint, title, type, culprit, level, first_seen, last_seen)
       SELECT $1, 'bench-' || k, 'TypeError: failure ' || k || ' in module ' || (k % 97), 'TypeError',
              'src/module' || (k % 97) || '.ts in handler' || k,
              CASE WHEN k % 50 = 0 THEN 'fatal' WHEN k % 10 = 1 THEN 'warning' ELSE 'error' END, now(), now()
         FROM generate_series(0, $2 - 1) k`,
      [projectId, n.issues],
    );
    await c.query(
      `CREATE TEMP TABLE bench_issue AS SELECT substr(fingerprint, 7)::int AS k, id, level FROM issues WHERE project_id = $1`,
      [projectId],
    );
    await c.query('ALTER TABLE bench_issue ADD PRIMARY KEY (k)');
    const indexes: Array<{ name: string; def: string }> = (
      await c.query(
        `SELECT indexname AS name, indexdef AS def FROM pg_indexes
          WHERE tablename = 'events' AND indexname <> 'events_pkey'`,
      )
    ).rows;
    for (const i of indexes) await c.query(`DROP INDEX ${i.name}`);

    const CHUNK = 100_000;
    for (let start = 0; start < n.events; start += CHUNK) {
      const end = Math.min(start + CHUNK, n.events);
      // Times spread over 30 days by a multiplicative hash of n (deterministic, not sorted).
      await c.query(
        `INSERT INTO events (project_id, issue_id, event_id, timestamp, received_at, level, type, message,
                             environment, release, url, handled, stack, frames, tags, context, "user", sdk, retention_days)
         SELECT $1, i.id, gen_random_uuid(), ts, ts, i.level, 'TypeError',
                'failure ' || i.k || ' in module ' || (i.k % 97), env,
                'v' || greatest(1, 5 - floor(extract(epoch FROM now() - ts) / 518400)::int),
                'https://app.example.com/page/' || (s % 20),
                s % 20 <> 0,
                'TypeError: failure ' || i.k || E'\\n    at handler' || i.k || ' (https://app.example.com/assets/app-3f9a.js:1:' || (100 + i.k) || ')'
                  || E'\\n    at dispatch (https://app.example.com/assets/vendor-81bc.js:2:4411)'
                  || E'\\n    at HTMLButtonElement.onclick (https://app.example.com/page:1:1)',
                jsonb_build_array(
                  jsonb_build_object('filename', 'src/handlers/handler' || i.k || '.ts', 'function', 'handler' || i.k,
                    'lineno', 10 + i.k % 200, 'colno', 5, 'inApp', true,
                    'minified', jsonb_build_object('filename', 'https://app.example.com/assets/app-3f9a.js', 'function', 'a',
                      'lineno', 1, 'colno', 100 + i.k),
                    'context', jsonb_build_object('pre', jsonb_build_array('function handler() {'),
                      'line', '  throw new TypeError(message);', 'post', jsonb_build_array('}'))),
                  jsonb_build_object('filename', 'https://app.example.com/assets/vendor-81bc.js', 'function', 'dispatch',
                    'lineno', 2, 'colno', 4411, 'inApp', false)),
                jsonb_build_object('browser', (ARRAY['chrome', 'firefox', 'safari'])[1 + s % 3],
                                   'os', (ARRAY['linux', 'mac'])[1 + s % 2],
                                   -- One per issue: a tag a quarter of the issues match, and one twenty do.
                                   'browser.name', (ARRAY['Chrome', 'Firefox', 'Safari', 'Edge'])[1 + i.k % 4],
                                   'customer', 'acme-' || (i.k % 500)),
                jsonb_build_object('route', '/page/' || (s % 20)),
                CASE WHEN s % 5 <> 0 THEN jsonb_build_object('id', 'u' || (s * 31) % 20000,
                                                             'email', 'user' || (s * 31) % 20000 || '@example.com') END,
                '{"name": "tracker.browser", "version": "1.0.0"}'::jsonb, ${retentionDays}
           FROM generate_series($2::bigint, $3::bigint - 1) s
           JOIN bench_issue i ON i.k = ${issueOf}
           CROSS JOIN LATERAL (SELECT now() - ((s * 7919) % 2592000 || ' seconds')::interval AS ts) t
           CROSS JOIN LATERAL (SELECT CASE WHEN i.k % 10 < 7 THEN 'production' WHEN i.k % 10 < 9 THEN 'staging'
                                      WHEN (s / $4) % 2 = 0 THEN 'production' ELSE 'staging' END AS env) e`,
        big > 0 ? [projectId, start, end, n.issues, big] : [projectId, start, end, n.issues],
      );
      process.stdout.write(`\r  events ${end.toLocaleString('en-US')} / ${n.events.toLocaleString('en-US')}`);
    }
    process.stdout.write('\n');
    // A partitioned table's definitions say `ON ONLY events` (the parent alone, left invalid):
    // built on every partition.
    for (const i of indexes) await c.query(i.def.replace(' ON ONLY ', ' ON '));

    await c.query(
      `INSERT INTO issue_environments (issue_id, project_id, environment, first_seen, last_seen, event_count)
         SELECT issue_id, $1, environment, min(timestamp), max(timestamp), count(*) FROM events
          WHERE project_id = $1 GROUP BY 1, 3`,
      [projectId],
    );
    await c.query(
      `INSERT INTO issue_releases (issue_id, environment, release, first_seen, last_seen, event_count)
         SELECT issue_id, environment, release, min(timestamp), max(timestamp), count(*) FROM events
          WHERE project_id = $1 AND release IS NOT NULL GROUP BY 1, 2, 3`,
      [projectId],
    );
    await c.query(
      `INSERT INTO issue_users (issue_id, user_key)
         SELECT DISTINCT issue_id, 'id:' || ("user" ->> 'id') FROM events WHERE project_id = $1 AND "user" IS NOT NULL`,
      [projectId],
    );
    // As the worker keeps it (persist-events.ts) and the migration backfills it.
    await c.query(
      `INSERT INTO issue_tag_values (issue_id, project_id, key, value)
         SELECT DISTINCT e.issue_id, $1::uuid, t.key, t.value FROM events e, jsonb_each_text(e.tags) t WHERE e.project_id = $1
         UNION SELECT issue_id, $1::uuid, 'user.id', "user" ->> 'id' FROM events WHERE project_id = $1 AND "user" ? 'id'
         UNION SELECT issue_id, $1::uuid, 'user.email', lower("user" ->> 'email') FROM events WHERE project_id = $1 AND "user" ? 'email'`,
      [projectId],
    );
    await c.query(
      `UPDATE issues i SET event_count = s.n, first_seen = s.f, last_seen = s.l,
              user_count = coalesce((SELECT count(*) FROM issue_users u WHERE u.issue_id = i.id), 0)
         FROM (SELECT issue_id, count(*) AS n, min(timestamp) AS f, max(timestamp) AS l FROM events
                WHERE project_id = $1 GROUP BY 1) s
        WHERE i.id = s.issue_id`,
      [projectId],
    );
    // A fifth resolved in the newest release, some feedback: what the detail page shows.
    await c.query(
      `UPDATE issues SET status = 'resolved', resolved_at = now(),
              resolved_in_release_id = (SELECT id FROM releases WHERE project_id = $1 ORDER BY deployed_at DESC LIMIT 1)
        WHERE project_id = $1 AND substr(fingerprint, 7)::int % 5 = 0`,
      [projectId],
    );
    await c.query(
      `INSERT INTO feedback (project_id, id, message, email, event_id, issue_id, received_at)
         SELECT $1, gen_random_uuid(), 'It broke', 'user@example.com', NULL, id, now()
           FROM issues WHERE project_id = $1 AND substr(fingerprint, 7)::int % 3 = 0`,
      [projectId],
    );
    await c.query('VACUUM ANALYZE');
    const size = (
      await c.query(
        `SELECT sum(pg_total_relation_size(relid)) AS total, sum(pg_relation_size(relid)) AS heap,
                pg_size_pretty(sum(pg_total_relation_size(relid))) AS pretty, current_setting('server_version') AS v
           FROM pg_partition_tree('events')`,
      )
    ).rows[0];
    const counts = (await c.query('SELECT (SELECT count(*) FROM events) AS e, (SELECT count(*) FROM issues) AS i'))
      .rows[0];
    return {
      events: Number(counts.e),
      issues: Number(counts.i),
      eventsBytes: Number(size.heap),
      tableSize: size.pretty,
      serverVersion: size.v,
    };
  } finally {
    if (own) await own.end();
    else {
      await runner!.query('RESET maintenance_work_mem').catch(() => undefined);
      await runner!.release();
    }
  }
}
