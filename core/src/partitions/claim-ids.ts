import type { EntityManager } from 'typeorm';
import { queryRows } from '../db/query-rows';
import { ensurePartitions, findRetentionDays } from './ensure-partitions';
import { WEEK_MS, weekStart, type PartitionedTable } from './partition-names';

/**
 * How far apart two receipts of one id may be and still be folded together by an update of the
 * stored row (vitals pieces of one page load, decision 046): the partitions such an update reads.
 */
export const SAME_ID_WINDOW_MS = 7 * 86_400_000;

const DAY_MS = 86_400_000;

/** The ledger of each partitioned table's ids (decision 067). */
export const LEDGER_OF: Record<PartitionedTable, string> = {
  events: 'stored_event_ids',
  logs: 'stored_log_ids',
  vitals_reports: 'stored_vitals_ids',
};

/** A row's key in its ledger. */
export interface LedgerKey {
  projectId: string;
  id: string;
  receivedAt: Date;
}

/**
 * The day a row's week partition is dropped (`isWeekExpired`): its ledger entry lives exactly as
 * long, so an id is never stored again while a copy of it is kept.
 */
export function ledgerExpiresOn(receivedAt: Date, retentionDays: number): string {
  return new Date(weekStart(receivedAt).getTime() + WEEK_MS + retentionDays * DAY_MS).toISOString().slice(0, 10);
}

/**
 * Claims the rows' ids in their table's ledger and answers the rows that won, in batch order: the
 * first row of each (project, id) that no committed or concurrent transaction holds. Only these
 * may be stored and counted.
 *
 * The ledger's primary key is `(project_id, id)` alone, unlike the partitioned table's unique key
 * (which must hold `retention_days` and `received_at`): a retry received weeks later, after a plan
 * change, or at the same moment by another worker meets the same key. A concurrent claim of the
 * same id waits for this transaction and then does nothing (it committed) or wins (it rolled back).
 * Claims go in one statement, in one total order of the keys, as the first write of the caller's
 * batch: a worker waiting here holds only ledger keys that sort before the one it waits for, so two
 * workers cannot wait for each other.
 */
export async function claimIds<T>(
  em: EntityManager,
  table: PartitionedTable,
  rows: T[],
  keyOf: (row: T) => LedgerKey,
  retention: Map<string, number>,
): Promise<T[]> {
  const firsts = new Map<string, T>();
  for (const row of rows) {
    const key = ledgerKey(keyOf(row));
    if (!firsts.has(key)) firsts.set(key, row);
  }
  if (firsts.size === 0) return [];
  const ordered = [...firsts.keys()].sort();
  const projectIds: string[] = [];
  const ids: string[] = [];
  const expires: string[] = [];
  for (const key of ordered) {
    const k = keyOf(firsts.get(key)!);
    projectIds.push(k.projectId);
    ids.push(k.id);
    expires.push(ledgerExpiresOn(k.receivedAt, retention.get(k.projectId)!));
  }
  const won = await queryRows<{ project_id: string; id: string }>(
    em,
    `INSERT INTO ${LEDGER_OF[table]} (project_id, id, expires_on)
     SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::date[]) ON CONFLICT DO NOTHING
     RETURNING project_id, id`,
    [projectIds, ids, expires],
  );
  if (won.length === firsts.size) return [...firsts.values()];
  const wonKeys = new Set(won.map((w) => `${w.project_id}/${w.id}`));
  return [...firsts.entries()].filter(([key]) => wonKeys.has(key)).map(([, row]) => row);
}

/**
 * Gives claimed ids back, in the claiming transaction: rows that won the ledger but were not
 * stored after all (events of a discarded issue), so a later receipt of the id can be.
 */
export async function releaseIds(em: EntityManager, table: PartitionedTable, keys: LedgerKey[]): Promise<void> {
  if (keys.length === 0) return;
  await em.query(
    `DELETE FROM ${LEDGER_OF[table]} l USING unnest($1::uuid[], $2::uuid[]) AS d(project_id, id)
      WHERE l.project_id = d.project_id AND l.id = d.id`,
    [keys.map((k) => k.projectId), keys.map((k) => k.id)],
  );
}

function ledgerKey(k: LedgerKey): string {
  // PostgreSQL answers uuids in lower case; the key must match its answer.
  return `${k.projectId}/${k.id}`.toLowerCase();
}

/**
 * What every partitioned insert of the worker but the events' does first: the retention each row
 * is stored with, the rows that won their ids in the ledger (`claimIds`), and their week
 * partitions made sure of. (`persistEvents` claims before it resolves issues, so it calls the
 * parts itself.)
 */
export async function placeRows<T>(
  em: EntityManager,
  table: PartitionedTable,
  rows: T[],
  keyOf: (row: T) => LedgerKey,
): Promise<{ fresh: T[]; retention: Map<string, number> }> {
  const retention = await findRetentionDays(
    em,
    rows.map((r) => keyOf(r).projectId),
  );
  const fresh = await claimIds(em, table, rows, keyOf, retention);
  await ensurePartitions(
    em,
    table,
    fresh.map((r) => ({ retentionDays: retention.get(keyOf(r).projectId)!, receivedAt: keyOf(r).receivedAt })),
  );
  return { fresh, retention };
}
