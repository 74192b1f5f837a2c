import type { EntityManager } from 'typeorm';
import { queryRows } from '../db/query-rows';
import { placeRows, SAME_ID_WINDOW_MS } from '../partitions';
import type { RecordsResult } from './persist-records';
import type { PreparedVitals } from './prepare-vitals';

/**
 * One insert for the batch, inside the caller's transaction; idempotent on (project_id, id), the
 * id assigned at the edge: claimed in the vitals' ledger first (decision 067), since the table's
 * unique key also holds the partition keys (decision 029). Pieces of one page load from Sentry's tracing
 * (`merge`, decision 046) are folded together first, and a piece whose report is stored fills
 * that report's missing metrics (and its page address) instead of being dropped as a repeat.
 */
export async function persistVitals(em: EntityManager, batch: PreparedVitals[]): Promise<RecordsResult> {
  if (batch.length === 0) return { inserted: 0, duplicates: 0 };
  const folded = foldPieces(batch);
  const { fresh: reports, retention } = await placeRows(em, 'vitals_reports', folded, (r) => r);
  const freshSet = new Set(reports);
  await mergeIntoStored(
    em,
    folded.filter((r) => r.merge && !freshSet.has(r)),
  );
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

/** The batch with the pieces of one page load (same project and id) as one row, at the first's place. */
function foldPieces(batch: PreparedVitals[]): PreparedVitals[] {
  const pieces = new Map<string, PreparedVitals>();
  const out: PreparedVitals[] = [];
  for (const r of batch) {
    if (!r.merge) {
      out.push(r);
      continue;
    }
    const key = `${r.projectId}/${r.id}`;
    const first = pieces.get(key);
    if (first === undefined) {
      const copy = { ...r };
      pieces.set(key, copy);
      out.push(copy);
      continue;
    }
    first.url ??= r.url;
    first.release ??= r.release;
    first.lcp ??= r.lcp;
    first.inp ??= r.inp;
    first.cls ??= r.cls;
    first.fcp ??= r.fcp;
    first.ttfb ??= r.ttfb;
  }
  return out;
}

/**
 * Fills what stored reports lack from later pieces of their page load. What is stored wins, so a
 * redelivered piece changes nothing. Bounded to the partitions of the same-id window.
 */
async function mergeIntoStored(em: EntityManager, pieces: PreparedVitals[]): Promise<void> {
  if (pieces.length === 0) return;
  const times = pieces.map((r) => r.receivedAt.getTime());
  await em.query(
    `UPDATE vitals_reports r
        SET url = COALESCE(r.url, d.url), lcp = COALESCE(r.lcp, d.lcp), inp = COALESCE(r.inp, d.inp),
            cls = COALESCE(r.cls, d.cls), fcp = COALESCE(r.fcp, d.fcp), ttfb = COALESCE(r.ttfb, d.ttfb),
            release = COALESCE(r.release, d.release)
       FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::float8[], $5::float8[], $6::float8[], $7::float8[],
              $8::float8[], $9::text[]) AS d(project_id, id, url, lcp, inp, cls, fcp, ttfb, release)
      WHERE r.project_id = d.project_id AND r.id = d.id
        AND r.received_at >= $10::timestamptz AND r.received_at < $11::timestamptz`,
    [
      pieces.map((r) => r.projectId),
      pieces.map((r) => r.id),
      pieces.map((r) => r.url),
      pieces.map((r) => r.lcp),
      pieces.map((r) => r.inp),
      pieces.map((r) => r.cls),
      pieces.map((r) => r.fcp),
      pieces.map((r) => r.ttfb),
      pieces.map((r) => r.release),
      new Date(Math.min(...times) - SAME_ID_WINDOW_MS).toISOString(),
      new Date(Math.max(...times) + SAME_ID_WINDOW_MS).toISOString(),
    ],
  );
}
