import type { EntityManager } from 'typeorm';
import { evaluateAlerts } from '../alerts/evaluate';
import { queryRows } from '../db/query-rows';
import { systemClock } from '../time/clock';
import type { PersistOptions } from './persist-events';
import type { RecordsResult } from './persist-records';
import type { PreparedLog } from './prepare-log';

/** Logs inserted, and the LOG_MATCH alert deliveries they wrote (queue them after commit). */
export interface LogsResult extends RecordsResult {
  alertDeliveryIds: string[];
}

/**
 * One statement for the batch, inside the caller's transaction. The (project_id, id) key
 * assigned at the edge makes a redelivered log insert nothing.
 */
export async function persistLogs(
  em: EntityManager,
  logs: PreparedLog[],
  options: PersistOptions = {},
): Promise<LogsResult> {
  if (logs.length === 0) return { inserted: 0, duplicates: 0, alertDeliveryIds: [] };
  const rows = await queryRows<{ id: string }>(
    em,
    `INSERT INTO logs (project_id, id, level, message, context, environment, release, tags, timestamp, received_at)
     SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::jsonb[], $6::text[], $7::text[],
       $8::jsonb[], $9::timestamptz[], $10::timestamptz[])
     ON CONFLICT (project_id, id) DO NOTHING
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
    ],
  );
  // Only inserted lines can fire LOG_MATCH: a redelivered one already had its chance.
  const inserted = new Set(rows.map((r) => r.id));
  const alertDeliveryIds = await evaluateAlerts(
    em,
    { events: [], triggers: [], logs: logs.filter((l) => inserted.has(l.id)) },
    { now: (options.clock ?? systemClock)(), publicUrl: options.publicUrl ?? '' },
  );
  return { inserted: rows.length, duplicates: logs.length - rows.length, alertDeliveryIds };
}
