import type { EntityManager } from 'typeorm';
import { queryRows } from '../db/query-rows';
import { ensurePartitions, findRetentionDays } from './ensure-partitions';
import type { PartitionedTable } from './partition-names';

/**
 * How far apart two receipts of one id may be and still be recognised as the same row: an SDK
 * retry reaches the edge seconds to hours after the first try, a queue redelivery carries the
 * first receipt's time exactly.
 */
export const SAME_ID_WINDOW_MS = 7 * 86_400_000;

/**
 * The ids of `rows` already stored (as `projectId/id`). A unique index on a partitioned table must
 * hold the partition keys, so `(project_id, id, retention_days, received_at)` alone no longer
 * stops a row whose retention or receipt time differs from the stored one: an SDK retry of the
 * same id (a new receipt time), or a redelivered job after its organization changed plan (a new
 * retention). This probe, in the partitions of the window around the batch, is what keeps them
 * from being stored and counted twice; the unique index still settles two workers inserting the
 * same job at once.
 */
export async function findStoredIds(
  em: EntityManager,
  table: PartitionedTable,
  idColumn: 'event_id' | 'id',
  rows: Array<{ projectId: string; id: string; receivedAt: Date }>,
): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  let min = rows[0].receivedAt.getTime();
  let max = min;
  for (const r of rows) {
    const t = r.receivedAt.getTime();
    if (t < min) min = t;
    if (t > max) max = t;
  }
  const found = await queryRows<{ project_id: string; id: string }>(
    em,
    `SELECT s.project_id, s.${idColumn} AS id
       FROM unnest($1::uuid[], $2::uuid[]) AS d(project_id, id)
       JOIN ${table} s ON s.project_id = d.project_id AND s.${idColumn} = d.id
      WHERE s.received_at >= $3::timestamptz AND s.received_at < $4::timestamptz`,
    [
      rows.map((r) => r.projectId),
      rows.map((r) => r.id),
      new Date(min - SAME_ID_WINDOW_MS).toISOString(),
      new Date(max + SAME_ID_WINDOW_MS).toISOString(),
    ],
  );
  return new Set(found.map((r) => `${r.project_id}/${r.id}`));
}

/**
 * The rows of a batch that are neither stored already nor a repeat of an earlier row of the
 * batch (same project and id), in batch order; what the worker inserts.
 */
export async function withoutStored<T>(
  em: EntityManager,
  table: PartitionedTable,
  idColumn: 'event_id' | 'id',
  rows: T[],
  keyOf: (row: T) => { projectId: string; id: string; receivedAt: Date },
): Promise<T[]> {
  const seen = new Set<string>();
  const firsts: T[] = [];
  for (const row of rows) {
    const k = keyOf(row);
    const key = `${k.projectId}/${k.id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    firsts.push(row);
  }
  const stored = await findStoredIds(em, table, idColumn, firsts.map(keyOf));
  return stored.size === 0 ? firsts : firsts.filter((row) => !stored.has(`${keyOf(row).projectId}/${keyOf(row).id}`));
}

/**
 * What every partitioned insert of the worker does first: the retention each row is stored with,
 * the rows not stored yet (`withoutStored`), and their week partitions made sure of.
 */
export async function placeRows<T>(
  em: EntityManager,
  table: PartitionedTable,
  idColumn: 'event_id' | 'id',
  rows: T[],
  keyOf: (row: T) => { projectId: string; id: string; receivedAt: Date },
): Promise<{ fresh: T[]; retention: Map<string, number> }> {
  const retention = await findRetentionDays(
    em,
    rows.map((r) => keyOf(r).projectId),
  );
  const fresh = await withoutStored(em, table, idColumn, rows, keyOf);
  await ensurePartitions(
    em,
    table,
    fresh.map((r) => ({ retentionDays: retention.get(keyOf(r).projectId)!, receivedAt: keyOf(r).receivedAt })),
  );
  return { fresh, retention };
}
