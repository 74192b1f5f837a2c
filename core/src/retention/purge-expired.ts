import type { DataSource } from 'typeorm';
import { queryRows } from '../db/query-rows';
import {
  createPartitionsAhead,
  dropExpiredPartitions,
  forgetPartitions,
  LEDGER_OF,
  type DroppedPartition,
} from '../partitions';
import { PLANS } from '../plans';
import { purgeSessionStates } from '../sessions/purge-session-states';
import { purgeAuditLog } from '../audit/purge-audit-log';

export interface PurgeResult {
  /** Rows that went with the dropped partitions of each table. */
  events: number;
  logs: number;
  vitals: number;
  /** Comments and issue activity rows (issue timelines keep the plan's window too). */
  comments: number;
  activity: number;
  /** Ledger rows of events dropped for a discarded issue (kept only to give their quota back once). */
  discardedEvents: number;
  /** States of single sessions past Sentry's five days of updates (decision 045). */
  sessionStates: number;
  /** Audit rows past their year (every plan: core/src/audit). */
  auditLog: number;
  /** Monitors' check-ins past the plan's retention. */
  checkIns: number;
  /** Ids let go by the stored-id ledgers (decision 067): those of the rows of the dropped weeks. */
  ledgerIds: number;
  /** The week partitions dropped (events, logs and vitals reports), with their row counts. */
  partitions: DroppedPartition[];
  /**
   * Embedded only: how long the `ANALYZE` that ends the purge took, in ms (null on PostgreSQL,
   * whose autovacuum does it). PGlite runs PostgreSQL in single-user mode, where autovacuum and
   * its ANALYZE never run: without this, the planner would never learn a table's size or values.
   */
  analyzeMs: number | null;
  /** False when another process held the purge lock: it is doing the work. */
  ran: boolean;
}

/** `default_statistics_target` of the embedded ANALYZE (PostgreSQL's default is 100). */
const EMBEDDED_STATISTICS_TARGET = 10;

/** An arbitrary constant naming the purge's advisory lock (one purger at a time across processes). */
const PURGE_LOCK = 7_340_001;

const KEY_OF_TABLE = { events: 'events', logs: 'logs', vitals_reports: 'vitals' } as const;

/** Tables purged row by row: small, not partitioned, and read by issue, not by time. */
const ROW_TABLES = [
  // Comments before activity: a comment's COMMENTED row goes with it (foreign key cascade).
  { name: 'issue_comments', key: 'comments', time: 'created_at', id: 'id' },
  { name: 'issue_activity', key: 'activity', time: 'created_at', id: 'id' },
  { name: 'discarded_events', key: 'discardedEvents', time: 'received_at', id: 'id' },
  // Monitors' check-ins: one small row each, kept for the plan's retention (docs/monitors.md).
  { name: 'monitor_check_ins', key: 'checkIns', time: 'created_at', id: 'id' },
] as const;

/**
 * Enforces retention (docs/quotas.md, decision 029). Events, logs and vitals reports are stored
 * in week partitions per retention (the plan's when each row was received): a week whose
 * every row is past its retention is dropped whole, which costs the same for 10 rows or 10
 * million. Then the partitions of the coming weeks are created ahead, so the worker's inserts find
 * theirs. Comments and issue activity, which follow the organization's current plan, are deleted
 * in chunks of `chunk` rows, each its own short transaction. Issues keep their counts and
 * first/last seen: only the rows go. Only one process purges at a time (an advisory lock).
 */
export async function purgeExpired(ds: DataSource, options: { chunk?: number; now?: Date } = {}): Promise<PurgeResult> {
  const chunk = options.chunk ?? 5_000;
  const at = options.now ?? new Date();
  const result: PurgeResult = {
    events: 0,
    logs: 0,
    vitals: 0,
    comments: 0,
    activity: 0,
    discardedEvents: 0,
    sessionStates: 0,
    auditLog: 0,
    checkIns: 0,
    ledgerIds: 0,
    partitions: [],
    analyzeMs: null,
    ran: true,
  };

  // Detaching concurrently needs a session outside any transaction: a runner of its own, under a
  // session-level lock. Released before the row deletes below (PGlite has one connection).
  const runner = ds.createQueryRunner();
  let embedded = false;
  try {
    embedded = await isPglite(runner);
    const [lock] = await runner.query('SELECT pg_try_advisory_lock($1) AS ok', [PURGE_LOCK]);
    if (!lock.ok) return { ...result, ran: false };
    try {
      // The pool's statement timeout stays on: lifted, a statement the driver's own timeout gave up
      // on would go on running in PostgreSQL on a connection handed back to the pool. A detach cut
      // short is left pending and finished (FINALIZE) by the next purge.
      result.partitions = await dropExpiredPartitions(runner, at, { concurrently: !embedded });
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [PURGE_LOCK]);
    }
  } finally {
    await runner.release();
  }
  forgetPartitions(
    ds,
    result.partitions.map((p) => p.name),
  );
  for (const p of result.partitions) result[KEY_OF_TABLE[p.table]] += p.rows;
  await createPartitionsAhead(ds, at);

  const now = at.toISOString();
  const days = [PLANS.free.retentionDays, PLANS.pro.retentionDays, PLANS.business.retentionDays];
  const shortest = Math.min(...days);
  for (const table of ROW_TABLES) {
    for (;;) {
      const deleted = await ds.transaction(async (em) => {
        const [lock] = await em.query('SELECT pg_try_advisory_xact_lock($1) AS ok', [PURGE_LOCK]);
        if (!lock.ok) return -1;
        // The plain bound on the shortest retention lets the planner use the time index first.
        const rows = await queryRows(
          em,
          `DELETE FROM ${table.name} WHERE ${table.id} IN (
             SELECT t.${table.id} FROM ${table.name} t
               JOIN projects p ON p.id = t.project_id
               JOIN organizations o ON o.id = p.organization_id
              WHERE t.${table.time} < $1::timestamptz - make_interval(days => $2::int)
                AND t.${table.time} < $1::timestamptz - make_interval(days =>
                      CASE o.plan WHEN 'free' THEN $3::int WHEN 'pro' THEN $4::int ELSE $5::int END)
              LIMIT $6)
           RETURNING 1`,
          [now, shortest, days[0], days[1], days[2], chunk],
        );
        return rows.length;
      });
      if (deleted < 0) return { ...result, ran: false };
      result[table.key] += deleted;
      if (deleted < chunk) break;
    }
  }
  const ledgers = await purgeLedgers(ds, at, chunk * LEDGER_CHUNK_FACTOR);
  if (ledgers === null) return { ...result, ran: false };
  result.ledgerIds = ledgers;
  result.sessionStates = await purgeSessionStates(ds, at, chunk);
  result.auditLog = await purgeAuditLog(ds, at, chunk);
  if (embedded) {
    // The edge's writes wait for it (one connection): a sample of 3,000 rows a table instead of
    // 30,000 (292 ms against 2,554 at 100,000 events, 146 MB; 853 ms at 30). Sizes, most common
    // values and rough histograms, which is what a small instance's plans were missing.
    const started = performance.now();
    // No autovacuum there either: the ledgers' deleted ids would stay as dead rows and their
    // keys grow without end. Vacuuming them reuses the space for the next week's ids.
    if (result.ledgerIds > 0) await ds.query(`VACUUM ${Object.values(LEDGER_OF).join(', ')}`);
    await ds.transaction(async (em) => {
      await em.query(`SET LOCAL default_statistics_target = ${EMBEDDED_STATISTICS_TARGET}`);
      await em.query('ANALYZE');
    });
    result.analyzeMs = Math.round(performance.now() - started);
  }
  return result;
}

/** Ledger rows are ~40 bytes: a chunk of them is this many times the other tables' chunk. */
const LEDGER_CHUNK_FACTOR = 10;

/**
 * Lets the stored-id ledgers forget the ids whose rows went with the weeks just dropped: each
 * entry expires on the day its row's week partition does (`ledgerExpiresOn`), and runs after the
 * drop, with the same `at`, so an id is never forgotten while its row is kept. Chunked deletes
 * through the index on `expires_on`, each its own short transaction, under the purge's lock.
 * Answers the ids deleted, or null when another process holds the purge lock.
 */
async function purgeLedgers(ds: DataSource, at: Date, chunk: number): Promise<number | null> {
  const day = at.toISOString().slice(0, 10);
  let total = 0;
  for (const ledger of Object.values(LEDGER_OF)) {
    for (;;) {
      const deleted = await ds.transaction(async (em) => {
        const [lock] = await em.query('SELECT pg_try_advisory_xact_lock($1) AS ok', [PURGE_LOCK]);
        if (!lock.ok) return -1;
        // The count, not RETURNING: tens of thousands of rows each time for nothing.
        const r = await em.queryRunner!.query(
          `DELETE FROM ${ledger} WHERE ctid = ANY(ARRAY(
             SELECT ctid FROM ${ledger} WHERE expires_on <= $1::date LIMIT $2))`,
          [day, chunk],
          true,
        );
        return (r as { affected?: number }).affected ?? 0;
      });
      if (deleted < 0) return null;
      total += deleted;
      if (deleted < chunk) break;
    }
  }
  return total;
}

/** PGlite names its WASM build in `version()`; nothing runs beside the purge there. */
async function isPglite(runner: { query: (sql: string) => Promise<Array<{ v: string }>> }): Promise<boolean> {
  const [r] = await runner.query('SELECT version() AS v');
  return /emscripten|wasm/i.test(r.v);
}
