import type { EntityManager } from 'typeorm';
import { evaluateAlerts } from '../alerts/evaluate';
import { queryRows } from '../db/query-rows';
import { placeRows } from '../partitions';
import { systemClock } from '../time/clock';
import type { PersistOptions } from './persist-events';
import type { RecordsResult } from './persist-records';
import type { PreparedLog } from './prepare-log';

/** Logs inserted, and the LOG_MATCH alert deliveries they wrote (queue them after commit). */
export interface LogsResult extends RecordsResult {
  alertDeliveryIds: string[];
}

/**
 * One insert for the batch, inside the caller's transaction. The (project_id, id) key assigned
 * at the edge (or sent by the SDK) makes a redelivered or retried log insert nothing: claimed in
 * the logs' ledger first (decision 067), since the table's unique key also holds the partition
 * keys (decision 029).
 */
export async function persistLogs(
  em: EntityManager,
  batch: PreparedLog[],
  options: PersistOptions = {},
): Promise<LogsResult> {
  if (batch.length === 0) return { inserted: 0, duplicates: 0, alertDeliveryIds: [] };
  const { fresh: logs, retention } = await placeRows(em, 'logs', batch, (l) => l);
  const rows =
    logs.length === 0
      ? []
      : await queryRows<{ id: string }>(
          em,
          `INSERT INTO logs (project_id, id, level, message, context, environment, release, tags, timestamp, received_at,
             retention_days)
           SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::jsonb[], $6::text[], $7::text[],
             $8::jsonb[], $9::timestamptz[], $10::timestamptz[], $11::smallint[])
           ON CONFLICT (project_id, id, retention_days, received_at) DO NOTHING
           RETURNING id`,
          [
            logs.map((l) => l.projectId),
            logs.map((l) => l.id),
            logs.map((l) => l.level),
            logs.map((l) => l.message),
            logs.map((l) => (l.context == null ? null : JSON.stringify(l.context))),
            logs.map((l) => l.environment),
            logs.map((l) => l.release),
            logs.map((l) => JSON.stringify(l.tags)),
            logs.map((l) => l.timestamp.toISOString()),
            logs.map((l) => l.receivedAt.toISOString()),
            logs.map((l) => retention.get(l.projectId)),
          ],
        );
  // Only inserted lines can fire LOG_MATCH: a redelivered one already had its chance.
  const inserted = new Set(rows.map((r) => r.id));
  const alertDeliveryIds = await evaluateAlerts(
    em,
    { events: [], triggers: [], logs: logs.filter((l) => inserted.has(l.id)) },
    { now: (options.clock ?? systemClock)(), publicUrl: options.publicUrl ?? '' },
  );
  return { inserted: rows.length, duplicates: batch.length - rows.length, alertDeliveryIds };
}
