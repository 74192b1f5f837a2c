import type { MigrationInterface, QueryRunner } from 'typeorm';
import { retentionPartitionName, WEEK_MS, weekPartitionName, weekStart } from '../partitions/partition-names';

/**
 * Issue 21 (decision 029): events, logs and vitals reports move into tables partitioned by LIST
 * (retention_days) and, under each retention, by RANGE (received_at) in weeks from Monday 00:00
 * UTC, so that retention drops whole weeks instead of deleting rows.
 *
 * Each table is renamed, a partitioned one is created like it with `retention_days` (from the
 * organization's plan now: the retention its rows were purged by until today), every week its
 * rows span is created, the rows are copied, the indexes and foreign keys are made again (a
 * unique key must hold the partition keys), and the old table is dropped: one transaction, so a
 * failure leaves the install as it was. The statement timeout is lifted for it: copying a big
 * table takes longer than any request may.
 */
export class PartitionedTables1796500000000 implements MigrationInterface {
  name = 'PartitionedTables1796500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('SET LOCAL statement_timeout = 0');
    for (const t of TABLES) await partition(q, t);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('SET LOCAL statement_timeout = 0');
    for (const t of TABLES) {
      const old = `${t.name}_partitioned`;
      await q.query(`ALTER TABLE ${t.name} RENAME TO ${old}`);
      if (t.name === 'events') await renameIdentity(q, old, 'events_partitioned_id_seq');
      for (const { name } of await indexesOf(q, old)) await dropIndex(q, old, name);
      await q.query(
        `CREATE TABLE ${t.name} (LIKE ${old} INCLUDING DEFAULTS INCLUDING IDENTITY INCLUDING CONSTRAINTS INCLUDING COMPRESSION)`,
      );
      await q.query(`ALTER TABLE ${t.name} DROP COLUMN retention_days`);
      const columns = (await columnsOf(q, t.name)).join(', ');
      await q.query(`INSERT INTO ${t.name} (${columns}) OVERRIDING SYSTEM VALUE SELECT ${columns} FROM ${old}`);
      await q.query(t.down);
      for (const fk of await foreignKeysOf(q, old))
        await q.query(`ALTER TABLE ${t.name} ADD CONSTRAINT ${fk.name} ${fk.def}`);
      await q.query(`DROP TABLE ${old}`);
      if (t.name === 'events') {
        await renameIdentity(q, 'events', 'events_id_seq');
        await q.query(`SELECT setval('events_id_seq', greatest((SELECT max(id) FROM events), 1))`);
      }
    }
  }
}

const TABLES = [
  {
    name: 'events',
    // Idempotency (persist-events.ts): with the partition keys, plus the worker's look-up.
    unique:
      'CREATE UNIQUE INDEX events_project_event_id_key ON events (project_id, event_id, retention_days, received_at)',
    down: `ALTER TABLE events ADD PRIMARY KEY (id);
      CREATE UNIQUE INDEX events_project_event_id_key ON events (project_id, event_id);
      CREATE INDEX events_issue_timestamp_idx ON events (issue_id, timestamp DESC, id DESC);
      CREATE INDEX events_received_at_brin ON events USING brin (received_at);
      CREATE INDEX events_project_release_idx ON events (project_id, release, environment, timestamp) WHERE release IS NOT NULL`,
  },
  {
    name: 'logs',
    unique: 'ALTER TABLE logs ADD PRIMARY KEY (project_id, id, retention_days, received_at)',
    down: `ALTER TABLE logs ADD PRIMARY KEY (project_id, id);
      CREATE INDEX logs_project_timestamp_idx ON logs (project_id, timestamp DESC, id DESC);
      CREATE INDEX logs_project_level_timestamp_idx ON logs (project_id, level, timestamp DESC, id DESC);
      CREATE INDEX logs_project_env_timestamp_idx ON logs (project_id, environment, timestamp DESC, id DESC)`,
  },
  {
    name: 'vitals_reports',
    unique: 'ALTER TABLE vitals_reports ADD PRIMARY KEY (project_id, id, retention_days, received_at)',
    down: `ALTER TABLE vitals_reports ADD PRIMARY KEY (project_id, id);
      CREATE INDEX vitals_reports_project_received_idx ON vitals_reports (project_id, received_at DESC);
      CREATE INDEX vitals_reports_project_env_received_idx ON vitals_reports (project_id, environment, received_at)`,
  },
] as const;

/** The plans' retention when this migration was written: existing rows take their organization's. */
const RETENTION_SQL = `CASE g.plan WHEN 'free' THEN 30 WHEN 'pro' THEN 90 ELSE 365 END`;
const RETENTIONS = [30, 90, 365];

async function partition(q: QueryRunner, t: (typeof TABLES)[number]): Promise<void> {
  const old = `${t.name}_unpartitioned`;
  // Read before the rename, so that the definitions name the new table. Unique ones lack the
  // partition keys (made again below); the BRIN index on received_at served the row-deleting purge.
  const indexes = (await indexesOf(q, t.name)).filter((i) => !i.unique && !/USING brin/i.test(i.def));
  const foreignKeys = await foreignKeysOf(q, t.name);
  await q.query(`ALTER TABLE ${t.name} RENAME TO ${old}`);
  if (t.name === 'events') await renameIdentity(q, old, 'events_unpartitioned_id_seq');
  for (const { name } of await indexesOf(q, old)) await dropIndex(q, old, name);

  await q.query(
    `CREATE TABLE ${t.name} (LIKE ${old} INCLUDING DEFAULTS INCLUDING IDENTITY INCLUDING CONSTRAINTS INCLUDING COMPRESSION,
       retention_days smallint NOT NULL) PARTITION BY LIST (retention_days)`,
  );
  if (t.name === 'events') await renameIdentity(q, 'events', 'events_id_seq');

  const weeks: Array<{ days: number; week: string }> = await q.query(
    `SELECT DISTINCT ${RETENTION_SQL} AS days, to_char(date_trunc('week', o.received_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS week
       FROM ${old} o LEFT JOIN projects p ON p.id = o.project_id LEFT JOIN organizations g ON g.id = p.organization_id`,
  );
  const wanted = new Map<string, { days: number; week: Date }>();
  for (const w of weeks) {
    const week = new Date(`${w.week}T00:00:00Z`);
    wanted.set(weekPartitionName(t.name, w.days, week), { days: w.days, week });
  }
  for (const days of RETENTIONS) {
    for (let i = 0; i <= 2; i++) {
      const week = weekStart(new Date(Date.now() + i * WEEK_MS));
      wanted.set(weekPartitionName(t.name, days, week), { days, week });
    }
  }
  const compression: Array<{ column: string; method: string }> = await q.query(
    `SELECT quote_ident(attname) AS column, attcompression AS method FROM pg_attribute
      WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped AND attcompression <> ''`,
    [t.name],
  );
  const subs = new Set<string>();
  for (const [name, w] of [...wanted].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const sub = retentionPartitionName(t.name, w.days);
    if (!subs.has(sub)) {
      await q.query(
        `CREATE TABLE ${sub} PARTITION OF ${t.name} FOR VALUES IN (${w.days}) PARTITION BY RANGE (received_at)`,
      );
      subs.add(sub);
    }
    const to = new Date(w.week.getTime() + WEEK_MS).toISOString();
    await q.query(`CREATE TABLE ${name} PARTITION OF ${sub} FOR VALUES FROM ('${w.week.toISOString()}') TO ('${to}')`);
    if (compression.length > 0) {
      await q.query(
        `ALTER TABLE ${name} ${compression.map((c) => `ALTER COLUMN ${c.column} SET COMPRESSION ${c.method === 'l' ? 'lz4' : 'pglz'}`).join(', ')}`,
      );
    }
  }

  const columns = await columnsOf(q, old);
  await q.query(
    `INSERT INTO ${t.name} (${columns.join(', ')}, retention_days) OVERRIDING SYSTEM VALUE
     SELECT ${columns.map((c) => `o.${c}`).join(', ')}, ${RETENTION_SQL}
       FROM ${old} o LEFT JOIN projects p ON p.id = o.project_id LEFT JOIN organizations g ON g.id = p.organization_id`,
  );
  if (t.name === 'events') {
    await q.query(`SELECT setval('events_id_seq', greatest((SELECT max(id) FROM events), 1))`);
  }
  await q.query(t.unique);
  for (const i of indexes) await q.query(i.def);
  for (const fk of foreignKeys) await q.query(`ALTER TABLE ${t.name} ADD CONSTRAINT ${fk.name} ${fk.def}`);
  await q.query(`DROP TABLE ${old}`);
  // Autovacuum analyzes partitions but never a partitioned table itself: its statistics (what
  // the planner uses above the partitions) are gathered here and by the purge.
  await q.query(`ANALYZE ${t.name}`);
}

async function indexesOf(
  q: QueryRunner,
  table: string,
): Promise<Array<{ name: string; def: string; unique: boolean }>> {
  return q.query(
    `SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS def, i.indisunique AS unique
       FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
      WHERE i.indrelid = $1::regclass ORDER BY c.relname`,
    [table],
  );
}

async function dropIndex(q: QueryRunner, table: string, name: string): Promise<void> {
  const [constraint] = await q.query(`SELECT 1 FROM pg_constraint WHERE conrelid = $1::regclass AND conname = $2`, [
    table,
    name,
  ]);
  if (constraint) await q.query(`ALTER TABLE ${table} DROP CONSTRAINT ${name}`);
  else await q.query(`DROP INDEX ${name}`);
}

async function foreignKeysOf(q: QueryRunner, table: string): Promise<Array<{ name: string; def: string }>> {
  return q.query(
    `SELECT conname AS name, pg_get_constraintdef(oid) AS def FROM pg_constraint
      WHERE conrelid = $1::regclass AND contype = 'f' ORDER BY conname`,
    [table],
  );
}

async function columnsOf(q: QueryRunner, table: string): Promise<string[]> {
  const rows: Array<{ name: string }> = await q.query(
    `SELECT quote_ident(attname) AS name FROM pg_attribute
      WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum`,
    [table],
  );
  return rows.map((r) => r.name);
}

/** Gives a table's identity sequence a fixed name (a new one would otherwise be `…_seq1`). */
async function renameIdentity(q: QueryRunner, table: string, to: string): Promise<void> {
  const [row] = await q.query(`SELECT pg_get_serial_sequence($1, 'id') AS seq`, [table]);
  if (row?.seq && row.seq !== `public.${to}`) await q.query(`ALTER SEQUENCE ${row.seq} RENAME TO ${to}`);
}
