import { DataSource, type EntityManager } from 'typeorm';
import { queryRows } from '../db/query-rows';
import { PLAN_IDS, planOf } from '../plans';
import {
  isWeekExpired,
  PARTITIONED_TABLES,
  retentionPartitionName,
  WEEK_MS,
  weekPartitionName,
  weekStart,
  type PartitionedTable,
} from './partition-names';

/** The partition a row goes to: its retention and when it was received. */
export interface PartitionKey {
  retentionDays: number;
  receivedAt: Date;
}

/** An arbitrary constant naming the advisory lock taken (with the table's hash) to create partitions. */
const PARTITION_LOCK = 7_340_002;

/** Weeks created ahead of the current one, so that inserts normally never create one. */
const WEEKS_AHEAD = 2;

/**
 * Week partitions this process knows exist, per database. A known week is trusted only while it
 * cannot have been dropped by a purge in another process: up to a day before it expires.
 */
const known = new WeakMap<DataSource, Set<string>>();

function knownOf(ds: DataSource): Set<string> {
  let set = known.get(ds);
  if (!set) known.set(ds, (set = new Set()));
  return set;
}

/** Forgets partitions a purge of this process dropped. */
export function forgetPartitions(ds: DataSource, names: Iterable<string>): void {
  const set = knownOf(ds);
  for (const name of names) set.delete(name);
}

/**
 * Makes sure the week partitions holding `keys` exist, creating the missing ones inside the
 * caller's transaction (or one of its own when given a DataSource). This is what lets an insert
 * never fail for want of a partition (a 202 is a promise): the worker calls it for every batch,
 * and it costs nothing when the weeks are known. Creating one takes a lock on its retention's
 * table until the transaction ends, which is why weeks are also created ahead
 * (`createPartitionsAhead`) and this path only runs for rows far from now.
 */
export async function ensurePartitions(
  on: DataSource | EntityManager,
  table: PartitionedTable,
  keys: Iterable<PartitionKey>,
): Promise<void> {
  const ds = on instanceof DataSource ? on : on.connection;
  const cache = knownOf(ds);
  const trustUntil = new Date(Date.now() + 86_400_000);
  const missing = new Map<string, { retentionDays: number; week: Date }>();
  for (const k of keys) {
    const week = weekStart(k.receivedAt);
    const name = weekPartitionName(table, k.retentionDays, week);
    if (missing.has(name)) continue;
    if (cache.has(name) && !isWeekExpired(week, k.retentionDays, trustUntil)) continue;
    missing.set(name, { retentionDays: k.retentionDays, week });
  }
  if (missing.size === 0) return;
  const create = async (em: EntityManager) => {
    // One creator per table at a time: `CREATE TABLE IF NOT EXISTS` is not safe against a
    // concurrent create of the same name; the second waits here, then finds it.
    await em.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [PARTITION_LOCK, table]);
    const names = [...missing.keys()];
    const subs = [...new Set([...missing.values()].map((m) => retentionPartitionName(table, m.retentionDays)))];
    const existing = await queryRows<{ name: string }>(
      em,
      `SELECT relname AS name FROM pg_class
        WHERE relname = ANY($1::text[]) AND relnamespace = current_schema()::regnamespace`,
      [[...names, ...subs]],
    );
    const present = new Set(existing.map((r) => r.name));
    const compression = await queryRows<{ column: string; method: string }>(
      em,
      `SELECT quote_ident(attname) AS column, attcompression AS method FROM pg_attribute
        WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped AND attcompression <> ''`,
      [table],
    );
    for (const [name, m] of missing) {
      const sub = retentionPartitionName(table, m.retentionDays);
      if (!present.has(sub)) {
        await em.query(
          `CREATE TABLE ${sub} PARTITION OF ${table} FOR VALUES IN (${Number(m.retentionDays)}) PARTITION BY RANGE (received_at)`,
        );
        present.add(sub);
      }
      if (!present.has(name)) {
        const from = m.week.toISOString();
        const to = new Date(m.week.getTime() + WEEK_MS).toISOString();
        await em.query(`CREATE TABLE ${name} PARTITION OF ${sub} FOR VALUES FROM ('${from}') TO ('${to}')`);
        // A new partition does not take the parent's column compression (lz4 for events, decision
        // on worker throughput): copied here.
        if (compression.length > 0) {
          await em.query(
            `ALTER TABLE ${name} ${compression.map((c) => `ALTER COLUMN ${c.column} SET COMPRESSION ${c.method === 'l' ? 'lz4' : 'pglz'}`).join(', ')}`,
          );
        }
      }
    }
  };
  if (on instanceof DataSource) await on.transaction(create);
  else await create(on);
  for (const name of missing.keys()) cache.add(name);
}

/**
 * Creates, for every table and every plan's retention, the current week and the next
 * WEEKS_AHEAD, each table in a short transaction of its own. Run at start and by the hourly
 * purge, so that the worker's batches find their week and never take the creation lock.
 */
export async function createPartitionsAhead(ds: DataSource, now: Date = new Date()): Promise<void> {
  const retentions = [...new Set(PLAN_IDS.map((id) => planOf(id).retentionDays))];
  for (const table of PARTITIONED_TABLES) {
    const keys: PartitionKey[] = [];
    for (const retentionDays of retentions) {
      for (let w = 0; w <= WEEKS_AHEAD; w++)
        keys.push({ retentionDays, receivedAt: new Date(now.getTime() + w * WEEK_MS) });
    }
    await ensurePartitions(ds, table, keys);
  }
}

/**
 * The retention (days) of each project's organization's plan now: what its rows are stored with.
 * A project not found gets the longest retention (its insert fails on the foreign key anyway).
 */
export async function findRetentionDays(em: EntityManager, projectIds: string[]): Promise<Map<string, number>> {
  const rows = await queryRows<{ id: string; plan: string }>(
    em,
    `SELECT p.id, o.plan FROM projects p JOIN organizations o ON o.id = p.organization_id WHERE p.id = ANY($1::uuid[])`,
    [[...new Set(projectIds)]],
  );
  const longest = Math.max(...PLAN_IDS.map((id) => planOf(id).retentionDays));
  const days = new Map<string, number>();
  for (const r of rows)
    days.set(r.id, (PLAN_IDS as readonly string[]).includes(r.plan) ? planOf(r.plan as never).retentionDays : longest);
  for (const id of projectIds) if (!days.has(id)) days.set(id, longest);
  return days;
}

/** Makes sure every week from `from` to `to` of one retention exists (seeding, benches, tests). */
export async function ensurePartitionsBetween(
  on: DataSource | EntityManager,
  table: PartitionedTable,
  retentionDays: number,
  from: Date,
  to: Date,
): Promise<void> {
  const keys: PartitionKey[] = [];
  for (let t = weekStart(from).getTime(); t <= to.getTime(); t += WEEK_MS)
    keys.push({ retentionDays, receivedAt: new Date(t) });
  await ensurePartitions(on, table, keys);
}
