import type { EntityManager } from 'typeorm';
import { queryRows } from '../db/query-rows';
import { placeRows } from '../partitions';
import type { RecordsResult } from './persist-records';
import type { PreparedVitals } from './prepare-vitals';

/**
 * One insert for the batch, inside the caller's transaction; idempotent on (project_id, id), the
 * id assigned at the edge: looked up around the receipt time first, since the table's unique key
 * also holds the partition keys (decision 029).
 */
export async function persistVitals(em: EntityManager, batch: PreparedVitals[]): Promise<RecordsResult> {
  if (batch.length === 0) return { inserted: 0, duplicates: 0 };
  const { fresh: reports, retention } = await placeRows(em, 'vitals_reports', 'id', batch, (r) => r);
  if (reports.length === 0) return { inserted: 0, duplicates: batch.length };
  const rows = await queryRows<{ id: string }>(
    em,
    `INSERT INTO vitals_reports (project_id, id, url, lcp, inp, cls, fcp, ttfb, environment, release, tags, received_at,
       retention_days)
     SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::float8[], $5::float8[], $6::float8[],
       $7::float8[], $8::float8[], $9::text[], $10::text[], $11::jsonb[], $12::timestamptz[], $13::smallint[])
     ON CONFLICT (project_id, id, retention_days, received_at) DO NOTHING
     RETURNING id`,
    [
      reports.map((r) => r.projectId),
      reports.map((r) => r.id),
      reports.map((r) => r.url),
      reports.map((r) => r.lcp),
      reports.map((r) => r.inp),
      reports.map((r) => r.cls),
      reports.map((r) => r.fcp),
      reports.map((r) => r.ttfb),
      reports.map((r) => r.environment),
      reports.map((r) => r.release),
      reports.map((r) => JSON.stringify(r.tags)),
      reports.map((r) => r.receivedAt.toISOString()),
      reports.map((r) => retention.get(r.projectId)),
    ],
  );
  return { inserted: rows.length, duplicates: batch.length - rows.length };
}
