/**
 * Retention at 10,000,000 events (issue 21, decision 029): purging by dropping week partitions
 * (`purgeExpired` as it is now) against purging by chunked row deletes (the method before, on an
 * unpartitioned copy of the same rows, with the indexes `events` had then), the same rows expired.
 *
 * Data: one project of a free-plan organization (30 days' retention), EVENTS events of ~1.7 KB
 * (a stack, four frames with source context as jsonb, tags, context, user, sdk) received
 * uniformly over 44 days from a Monday S, in arrival order, over 1,000 issues; then VACUUM
 * ANALYZE and a checkpoint. The purge runs "at" P = S + 44 days: the weeks S and S + 7 days are
 * wholly past 30 days (14 of 44 days: 31.8 % of the rows); the row-deleting purge at P deletes
 * what was received before P − 30 days = S + 14 days, exactly those rows.
 *
 * During each purge, a second connection inserts 100-event transactions into the same table (as
 * the worker does, one at a time): its rate and its slowest transaction against the same loop
 * with nothing else running show what each purge does to ingestion.
 *
 * Seeding is SQL (generate_series), with the indexes built after the load. The database is
 * dropped at the end (TRACKER_BENCH_KEEP_DB=1 keeps it and prints its URL).
 *
 * Run: `npm run bench:retention -w @tracker/core`.
 * Env: TRACKER_BENCH_EVENTS (default 10000000), TRACKER_BENCH_NO_DOC=1 (do not rewrite
 *      docs/benchmarks.md).
 */
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { createProject, openDatabase, purgeExpired, signUp, weekStart } from '../src';
import { queryRows } from '../src/db/query-rows';
import { ensurePartitionsBetween } from '../src/partitions';
import {
  createTestPostgres,
  describeMachine,
  envFlag,
  envNumber,
  fmt,
  loadAverage,
  machineLine,
  table,
  writeDocSection,
} from '../src/testing';

const EVENTS = envNumber('BENCH_EVENTS', 10_000_000);
const ISSUES = 1_000;
const DAY = 86_400_000;
const SPAN_DAYS = 44;
const RETENTION_DAYS = 30;
/** The row-deleting purge's chunk: purgeExpired's default before and now. */
const CHUNK = 5_000;
const LOAD_CHUNK = 250_000;
const IDLE_MS = 15_000;
/** An arbitrary constant: the old purge's advisory lock, as it took it. */
const PURGE_LOCK = 7_340_001;

interface InsertStats {
  transactions: number;
  perSecond: number;
  maxMs: number;
  p99Ms: number;
}

async function main(): Promise<void> {
  const machine = describeMachine();
  const loadBefore = loadAverage();
  const pg = await createTestPostgres();
  const db = await openDatabase({ databaseUrl: pg.url, dataDir: '' }, { migrate: true, poolSize: 4 });
  const bulk = new Client({ connectionString: pg.url });
  await bulk.connect();
  try {
    const s = await signUp(
      db.ds,
      { email: 'bench@example.com', password: 'long enough pw', organizationName: 'Bench' },
      'free',
    );
    const { project } = await createProject(db.ds, s.user.id, s.organization.id, 'Web');
    const S = new Date(weekStart(new Date()).getTime() - 6 * 7 * DAY);
    const P = new Date(S.getTime() + SPAN_DAYS * DAY);
    const expectedCut = new Date(S.getTime() + 14 * DAY);
    console.log(`retention bench: ${fmt(EVENTS)} events from ${S.toISOString()} to ${P.toISOString()}, purge at P`);

    // ---- seed
    const seedStart = performance.now();
    await ensurePartitionsBetween(db.ds, 'events', RETENTION_DAYS, S, P);
    await bulk.query('SET maintenance_work_mem = 262144'); // 256 MB, in kB: faster index builds
    await bulk.query('SET synchronous_commit = off');
    // The foreign key to issues is checked by a trigger per row; the seed's issue ids are known good.
    await bulk.query('SET session_replication_role = replica');
    await bulk.query(
      `INSERT INTO issues (project_id, fingerprint, title, type, culprit, level, first_seen, last_seen)
       SELECT $1, 'bench-' || k, 'TypeError: failure ' || k, 'TypeError', 'handler' || k, 'error', $2, $3
         FROM generate_series(0, $4 - 1) k`,
      [project.id, S.toISOString(), P.toISOString(), ISSUES],
    );
    await bulk.query(
      `CREATE TEMP TABLE bench_issue AS
         SELECT substr(fingerprint, 7)::int AS k, id FROM issues WHERE project_id = $1`,
      [project.id],
    );
    await bulk.query('ALTER TABLE bench_issue ADD PRIMARY KEY (k)');
    const indexes: Array<{ name: string; def: string }> = (
      await bulk.query(
        `SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS def FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
          WHERE i.indrelid = 'events'::regclass`,
      )
    ).rows;
    for (const i of indexes) await bulk.query(`DROP INDEX ${i.name}`);
    for (let start = 0; start < EVENTS; start += LOAD_CHUNK) {
      const end = Math.min(start + LOAD_CHUNK, EVENTS);
      await bulk.query(
        `INSERT INTO events (${COLUMNS}) ${rowsSql("$4::timestamptz + (s * $5::float8) * interval '1 millisecond'")}`,
        [project.id, start, end, S.toISOString(), (SPAN_DAYS * DAY) / EVENTS],
      );
      process.stdout.write(`\r  events ${fmt(end)} / ${fmt(EVENTS)}`);
    }
    process.stdout.write(`  loaded in ${((performance.now() - seedStart) / 1000).toFixed(0)} s\n`);
    // A partitioned table's definitions say `ON ONLY events` (the parent alone, invalid until each
    // partition has its own): built on every partition here.
    for (const i of indexes) await bulk.query(i.def.replace(' ON ONLY ', ' ON '));
    console.log(`  indexed at ${((performance.now() - seedStart) / 1000).toFixed(0)} s`);
    // The same rows, unpartitioned, with the indexes `events` had before decision 029.
    await bulk.query('CREATE TABLE events_flat (LIKE events INCLUDING DEFAULTS INCLUDING COMPRESSION)');
    await bulk.query('INSERT INTO events_flat SELECT * FROM events ORDER BY received_at');
    await bulk.query(`CREATE SEQUENCE events_flat_id_seq OWNED BY events_flat.id`);
    await bulk.query(`SELECT setval('events_flat_id_seq', (SELECT max(id) FROM events_flat))`);
    await bulk.query(`ALTER TABLE events_flat ALTER COLUMN id SET DEFAULT nextval('events_flat_id_seq')`);
    await bulk.query(`
      ALTER TABLE events_flat ADD PRIMARY KEY (id);
      CREATE UNIQUE INDEX ON events_flat (project_id, event_id);
      CREATE INDEX ON events_flat (issue_id, timestamp DESC, id DESC);
      CREATE INDEX ON events_flat USING brin (received_at);
      CREATE INDEX ON events_flat (project_id, release, environment, timestamp) WHERE release IS NOT NULL`);
    console.log(`  copied and indexed at ${((performance.now() - seedStart) / 1000).toFixed(0)} s`);
    await bulk.query('RESET session_replication_role');
    await bulk.query('VACUUM ANALYZE events_flat');
    await bulk.query('VACUUM ANALYZE events');
    await bulk.query('CHECKPOINT');
    const seedSeconds = (performance.now() - seedStart) / 1000;
    const sizes = (
      await bulk.query(
        `SELECT (SELECT sum(pg_total_relation_size(relid)) FROM pg_partition_tree('events'))::bigint AS partitioned,
                pg_total_relation_size('events_flat') AS flat,
                (SELECT count(*) FROM events) AS n,
                (SELECT count(*) FROM events WHERE received_at < $1) AS expired,
                (SELECT count(*) FROM pg_partition_tree('events') WHERE isleaf) AS partitions`,
        [expectedCut.toISOString()],
      )
    ).rows[0];
    const expired = Number(sizes.expired);
    console.log(
      `  seeded in ${seedSeconds.toFixed(0)} s: ${fmt(Number(sizes.n))} events, ${fmt(expired)} to expire; ` +
        `partitioned ${gb(sizes.partitioned)} GB (${sizes.partitions} partitions), flat ${gb(sizes.flat)} GB`,
    );

    // ---- idle insert rate (no purge), on each table
    const idleFlat = await measureInserts(pg.url, 'events_flat', project.id, P, () => sleep(IDLE_MS));
    const idleParts = await measureInserts(pg.url, 'events', project.id, P, () => sleep(IDLE_MS));

    // ---- A: chunked row deletes on the unpartitioned copy (the purge before decision 029)
    const loadA = loadAverage();
    let deleted = 0;
    let deleteMs = 0;
    const duringDeletes = await measureInserts(pg.url, 'events_flat', project.id, P, async () => {
      const t = performance.now();
      deleted = await purgeByRowDeletes(db.ds, P);
      deleteMs = performance.now() - t;
    });
    const t0 = performance.now();
    await bulk.query('VACUUM events_flat');
    const vacuumMs = performance.now() - t0;
    console.log(
      `  row deletes: ${fmt(deleted)} rows in ${(deleteMs / 1000).toFixed(1)} s (+ VACUUM ${(vacuumMs / 1000).toFixed(1)} s), ` +
        `inserts ${duringDeletes.perSecond.toFixed(0)}/s (idle ${idleFlat.perSecond.toFixed(0)}/s), slowest ${duringDeletes.maxMs.toFixed(0)} ms, load ${loadA}`,
    );

    // ---- B: dropping the expired week partitions (purgeExpired)
    const loadB = loadAverage();
    let dropMs = 0;
    let result: Awaited<ReturnType<typeof purgeExpired>> | undefined;
    const duringDrops = await measureInserts(pg.url, 'events', project.id, P, async () => {
      const t = performance.now();
      result = await purgeExpired(db.ds, { now: P });
      dropMs = performance.now() - t;
    });
    const dropped = result!.events;
    console.log(
      `  partition drops: ${fmt(dropped)} rows in ${(dropMs / 1000).toFixed(2)} s (${result!.partitions.map((p) => p.name).join(', ')}), ` +
        `inserts ${duringDrops.perSecond.toFixed(0)}/s (idle ${idleParts.perSecond.toFixed(0)}/s), slowest ${duringDrops.maxMs.toFixed(0)} ms, load ${loadB}`,
    );
    if (deleted !== expired || dropped !== expired) {
      throw new Error(`not the same rows: expected ${expired}, deletes ${deleted}, drops ${dropped}`);
    }
    const ratio = deleteMs / dropMs;
    const loadAfter = loadAverage();
    console.log(`  ratio (row deletes / partition drops): ${fmt(ratio)}×; load ${loadBefore} → ${loadAfter}`);

    if (!envFlag('BENCH_NO_DOC')) {
      writeDocSection(
        'retention-purge',
        `## Retention: dropping week partitions against deleting rows (issue 21)

- **Date**: ${new Date().toISOString().slice(0, 10)}; **machine**: ${machineLine(machine)}; PostgreSQL ${(await bulk.query('SHOW server_version')).rows[0].server_version}; load average (1 min) ${loadBefore} at start, ${loadA} before the row deletes, ${loadB} before the partition drops, ${loadAfter} at the end (2 cores; other work shared the machine).
- **Command**: \`npm run bench:retention -w @tracker/core\` (in \`core/\`: \`TSX_TSCONFIG_PATH=../tsconfig.json node --conditions=@tracker/source --import tsx bench/retention.bench.ts\`), \`TRACKER_BENCH_EVENTS=${EVENTS}\`.
- **Data**: a fresh database; ${fmt(EVENTS)} events (~1.7 KB each: a stack, four frames with source context as jsonb, tags, context, user, sdk) of one free-plan project (30 days' retention), received uniformly over ${SPAN_DAYS} days from a Monday S, over ${fmt(ISSUES)} issues; seeded by SQL in ${seedSeconds.toFixed(0)} s. \`events\` partitioned (decision 029): ${sizes.partitions} week partitions, ${gb(sizes.partitioned)} GB with indexes. The baseline: the same rows in one plain table \`events_flat\` with the indexes \`events\` had before (primary key, unique \`(project_id, event_id)\`, \`(issue_id, timestamp, id)\`, BRIN on \`received_at\`, the release index), ${gb(sizes.flat)} GB. Both vacuumed and analyzed, then a checkpoint.
- **Purge**: at S + ${SPAN_DAYS} days; the weeks from S and S + 7 days are wholly past 30 days: **${fmt(expired)} rows (${((100 * expired) / EVENTS).toFixed(1)} %)** expire, the same rows both ways (checked).
- **During each purge** a second connection inserts 100-event transactions into the same table, one after another (the worker's shape); "idle" is the same loop for ${IDLE_MS / 1000} s just before, with no purge running.

${table(
  ['purge', 'time', 'rows', 'inserts/s during (idle)', 'slowest insert transaction', 'p99 insert transaction'],
  [
    [
      `chunked row deletes (${fmt(CHUNK)} a transaction, the purge before), unpartitioned`,
      `**${(deleteMs / 1000).toFixed(1)} s** (+ VACUUM ${(vacuumMs / 1000).toFixed(1)} s to make the space reusable)`,
      fmt(deleted),
      `${fmt(duringDeletes.perSecond * 100)} events/s (${fmt(idleFlat.perSecond * 100)})`,
      `${fmt(duringDeletes.maxMs)} ms`,
      `${fmt(duringDeletes.p99Ms)} ms`,
    ],
    [
      '`purgeExpired`: detach concurrently + drop ' +
        result!.partitions.length +
        ' week partitions (row count included)',
      `**${(dropMs / 1000).toFixed(2)} s**`,
      fmt(dropped),
      `${fmt(duringDrops.perSecond * 100)} events/s (${fmt(idleParts.perSecond * 100)})`,
      `${fmt(duringDrops.maxMs)} ms`,
      `${fmt(duringDrops.p99Ms)} ms`,
    ],
  ],
)}

**Ratio: dropping partitions is ${fmt(ratio)}× faster** than deleting the same rows (without counting the VACUUM the deletes still owe). The drop's time includes the exact row count of the dropped weeks (\`count(*)\` over them, which \`purgeExpired\` reports) and the detach waiting for running transactions; it leaves no dead rows, no WAL per row and no bloat behind. The insert columns are only as good as the machine was quiet: with the load average above the core count, the same idle loop ran at different rates minute to minute; the drop's window holds only a few dozen insert transactions.`,
      );
    }
  } finally {
    await bulk.end();
    await db.close();
    if (envFlag('BENCH_KEEP_DB')) console.log(`kept ${pg.url}`);
    else await pg.drop();
  }
}

const COLUMNS = `project_id, issue_id, event_id, timestamp, received_at, level, type, message, environment, release, url,
  handled, stack, frames, tags, context, "user", sdk, grouping_key, retention_days`;

/** Events `$2` to `$3` − 1 of project `$1`, received at `at` (SQL over `s`), in arrival order. */
function rowsSql(at: string): string {
  return `SELECT $1::uuid, i.id, gen_random_uuid(), ts, ts, 'error', 'TypeError',
      'TypeError: Cannot read properties of undefined (reading ''field' || (s % 37) || ''') in handler ' || i.k,
      (ARRAY['production', 'production', 'staging'])[1 + s % 3], 'web@1.' || (s % 7) || '.0',
      'https://app.example.com/orders/' || (s % 5000) || '/edit', s % 20 <> 0,
      'TypeError: Cannot read properties of undefined (reading ''field' || (s % 37) || ''')'
        || E'\\n    at handler' || i.k || ' (https://app.example.com/assets/app-3f9a1c.js:1:' || (1000 + i.k) || ')'
        || E'\\n    at dispatchEvent (https://app.example.com/assets/vendor-81bc02.js:2:44112)'
        || E'\\n    at HTMLButtonElement.onClick (https://app.example.com/assets/app-3f9a1c.js:1:98211)'
        || E'\\n    at invokeGuardedCallback (https://app.example.com/assets/vendor-81bc02.js:2:10233)'
        || E'\\n    at batchedUpdates (https://app.example.com/assets/vendor-81bc02.js:2:52011)',
      jsonb_build_array(
        jsonb_build_object('filename', 'src/orders/handler' || i.k || '.ts', 'function', 'handler' || i.k,
          'lineno', 10 + i.k % 200, 'colno', 17, 'inApp', true,
          'context', jsonb_build_object('pre', jsonb_build_array('  const order = orders.get(id);', '  if (!order.ready) {'),
            'line', '    return order.items[field].value;', 'post', jsonb_build_array('  }', '  return null;'))),
        jsonb_build_object('filename', 'src/ui/button.tsx', 'function', 'onClick', 'lineno', 42, 'colno', 9, 'inApp', true,
          'context', jsonb_build_object('pre', jsonb_build_array('  const onClick = useCallback(() => {'),
            'line', '    handler(props.id);', 'post', jsonb_build_array('  }, [props.id]);'))),
        jsonb_build_object('filename', 'https://app.example.com/assets/vendor-81bc02.js', 'function', 'dispatchEvent',
          'lineno', 2, 'colno', 44112, 'inApp', false),
        jsonb_build_object('filename', 'https://app.example.com/assets/vendor-81bc02.js', 'function', 'batchedUpdates',
          'lineno', 2, 'colno', 52011, 'inApp', false)),
      jsonb_build_object('browser', (ARRAY['Chrome 131', 'Firefox 133', 'Safari 18.1'])[1 + s % 3],
        'os', (ARRAY['Windows 11', 'macOS 15.1', 'Linux'])[1 + s % 3], 'device', 'desktop',
        'customer', 'acme-' || (i.k % 500), 'route', '/orders/:id/edit'),
      jsonb_build_object('request', jsonb_build_object('method', 'GET', 'headers',
        jsonb_build_object('User-Agent', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/131.0'))),
      jsonb_build_object('id', 'u' || (s * 31) % 20000, 'email', 'user' || (s * 31) % 20000 || '@example.com'),
      '{"name": "tracker.browser", "version": "1.4.2"}'::jsonb,
      'bench-' || i.k, ${RETENTION_DAYS}
    FROM generate_series($2::bigint, $3::bigint - 1) s
    JOIN bench_issue i ON i.k = s % ${ISSUES}
    CROSS JOIN LATERAL (SELECT ${at} AS ts) t`;
}

/**
 * The purge before decision 029, verbatim but for the table name: chunks of CHUNK rows, each its
 * own transaction under the purge's advisory lock, joined to the organization's plan.
 */
async function purgeByRowDeletes(ds: import('typeorm').DataSource, now: Date): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await ds.transaction(async (em) => {
      const [lock] = await em.query('SELECT pg_try_advisory_xact_lock($1) AS ok', [PURGE_LOCK]);
      if (!lock.ok) throw new Error('purge lock held');
      const rows = await queryRows(
        em,
        `DELETE FROM events_flat WHERE id IN (
           SELECT t.id FROM events_flat t
             JOIN projects p ON p.id = t.project_id
             JOIN organizations o ON o.id = p.organization_id
            WHERE t.received_at < $1::timestamptz - make_interval(days => $2::int)
              AND t.received_at < $1::timestamptz - make_interval(days =>
                    CASE o.plan WHEN 'free' THEN $3::int WHEN 'pro' THEN $4::int ELSE $5::int END)
            LIMIT $6)
         RETURNING 1`,
        [now.toISOString(), 30, 30, 90, 365, CHUNK],
      );
      return rows.length;
    });
    total += deleted;
    if (deleted < CHUNK) return total;
  }
}

/**
 * Inserts 100-event transactions into `table` on a connection of its own, one after another,
 * for as long as `during` runs; the rows are received an hour before P (a week kept).
 */
async function measureInserts(
  url: string,
  table: string,
  projectId: string,
  P: Date,
  during: () => Promise<void>,
): Promise<InsertStats> {
  const c = new Client({ connectionString: url });
  await c.connect();
  await c.query(
    `CREATE TEMP TABLE bench_issue AS SELECT substr(fingerprint, 7)::int AS k, id FROM issues WHERE project_id = $1`,
    [projectId],
  );
  const at = new Date(P.getTime() - 3_600_000).toISOString();
  const latencies: number[] = [];
  let running = true;
  let next = 2_000_000_000;
  const loop = (async () => {
    while (running) {
      const t = performance.now();
      await c.query('BEGIN');
      await c.query(`INSERT INTO ${table} (${COLUMNS}) ${rowsSql(`'${at}'::timestamptz`)}`, [
        projectId,
        next,
        next + 100,
      ]);
      await c.query('COMMIT');
      next += 100;
      latencies.push(performance.now() - t);
    }
  })();
  const started = performance.now();
  try {
    await during();
  } finally {
    running = false;
    await loop;
    await c.end();
  }
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    transactions: latencies.length,
    perSecond: latencies.length / seconds,
    maxMs: latencies[latencies.length - 1] ?? 0,
    p99Ms: latencies[Math.floor(latencies.length * 0.99)] ?? 0,
  };
}

function gb(bytes: string | number): string {
  return (Number(bytes) / 1e9).toFixed(1);
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
