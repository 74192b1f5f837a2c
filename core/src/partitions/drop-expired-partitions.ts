import type { QueryRunner } from 'typeorm';
import { someInErrorChain } from '../db/transient';
import { isWeekExpired, parseWeekPartitionName, PARTITIONED_TABLES, type PartitionedTable } from './partition-names';

/** A week partition the purge dropped, and how many rows went with it. */
export interface DroppedPartition {
  table: PartitionedTable;
  name: string;
  rows: number;
  /** `rows` is the planner's estimate (`pg_class.reltuples`): the exact count did not finish within its budget. */
  estimated: boolean;
}

/**
 * How long counting one expired week may take before the purge settles for the planner's estimate.
 * The count only reports what went; a week of hundreds of millions of rows would otherwise take
 * minutes, and past the pool's 60 s statement timeout fail the whole purge every hour.
 */
export const COUNT_BUDGET_MS = 5_000;

/**
 * Drops every week partition all of whose rows are older than its retention at `now`. Runs on
 * `runner` outside any transaction, so that each partition is detached and dropped on its own:
 *
 * - `concurrently` (PostgreSQL): `DETACH PARTITION … CONCURRENTLY` first. A plain `DROP TABLE` of
 *   a partition takes an ACCESS EXCLUSIVE lock on its parent, which waits behind any open read of
 *   the table and makes every insert and read that comes after wait behind it; the concurrent
 *   detach takes only SHARE UPDATE EXCLUSIVE (inserts and reads go on) and waits for the
 *   transactions that could still see the partition; the `DROP TABLE` of the then independent
 *   table locks nothing the worker or the API touch.
 * - otherwise (PGlite: one connection, nothing runs beside the purge): a plain `DROP TABLE`.
 *
 * A detach interrupted half-way (PostgreSQL leaves it "pending") is finished with `FINALIZE`, and
 * an expired week left detached by a crash between detach and drop is dropped too.
 */
export async function dropExpiredPartitions(
  runner: QueryRunner,
  now: Date,
  options: { concurrently: boolean; countBudgetMs?: number },
): Promise<DroppedPartition[]> {
  const budget = options.countBudgetMs ?? COUNT_BUDGET_MS;
  const attached: Array<{ table: PartitionedTable; sub: string; leaf: string; pending: boolean }> = await runner.query(
    `SELECT t.relname AS table, sub.relname AS sub, leaf.relname AS leaf, i2.inhdetachpending AS pending
       FROM pg_class t
       JOIN pg_inherits i1 ON i1.inhparent = t.oid JOIN pg_class sub ON sub.oid = i1.inhrelid
       JOIN pg_inherits i2 ON i2.inhparent = sub.oid JOIN pg_class leaf ON leaf.oid = i2.inhrelid
      WHERE t.relname = ANY($1::text[]) AND t.relnamespace = current_schema()::regnamespace
      ORDER BY leaf.relname`,
    [[...PARTITIONED_TABLES]],
  );
  const detached: Array<{ name: string }> = await runner.query(
    `SELECT relname AS name FROM pg_class
      WHERE relkind = 'r' AND NOT relispartition AND relnamespace = current_schema()::regnamespace
        AND relname ~ $1`,
    [`^(${PARTITIONED_TABLES.join('|')})_r[0-9]+_[0-9]{8}$`],
  );
  const dropped: DroppedPartition[] = [];
  const expired = (table: PartitionedTable, name: string) => {
    const p = parseWeekPartitionName(table, name);
    return p !== null && isWeekExpired(p.week, p.retentionDays, now);
  };
  for (const a of attached) {
    if (!expired(a.table, a.leaf)) continue;
    const counted = await countRows(runner, a.leaf, budget);
    if (a.pending) await runner.query(`ALTER TABLE ${a.sub} DETACH PARTITION ${a.leaf} FINALIZE`);
    else if (options.concurrently) await runner.query(`ALTER TABLE ${a.sub} DETACH PARTITION ${a.leaf} CONCURRENTLY`);
    await runner.query(`DROP TABLE ${a.leaf}`);
    dropped.push({ table: a.table, name: a.leaf, ...counted });
  }
  for (const d of detached) {
    const table = PARTITIONED_TABLES.find((t) => parseWeekPartitionName(t, d.name) !== null);
    if (!table || !expired(table, d.name)) continue;
    const counted = await countRows(runner, d.name, budget);
    await runner.query(`DROP TABLE ${d.name}`);
    dropped.push({ table, name: d.name, ...counted });
  }
  return dropped;
}

/**
 * The exact row count, or the planner's estimate when counting takes longer than `budgetMs`
 * (a statement timeout local to a transaction of its own, so the session's setting stays).
 */
async function countRows(
  runner: QueryRunner,
  name: string,
  budgetMs: number,
): Promise<{ rows: number; estimated: boolean }> {
  await runner.startTransaction();
  try {
    await runner.query(`SET LOCAL statement_timeout = ${Math.max(1, Math.round(budgetMs))}`);
    const [r] = await runner.query(`SELECT count(*)::int8 AS n FROM ${name}`);
    await runner.commitTransaction();
    return { rows: Number(r.n), estimated: false };
  } catch (err) {
    await runner.rollbackTransaction();
    if (!isStatementTimeout(err)) throw err;
    const [e] = await runner.query(`SELECT greatest(reltuples, 0)::int8 AS n FROM pg_class WHERE oid = $1::regclass`, [
      name,
    ]);
    return { rows: Number(e?.n ?? 0), estimated: true };
  }
}

/** 57014 query_canceled: what a statement timeout raises. */
function isStatementTimeout(err: unknown): boolean {
  return someInErrorChain(err, (e) => (e as { code?: unknown }).code === '57014');
}
