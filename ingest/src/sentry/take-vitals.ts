import {
  AppError,
  encodeJob,
  mapSentryVitals,
  queuedVitalsSchema,
  type KeyInfo,
  type SentryVitals,
} from '@tracker/core';
import { admitOnce } from '../http/error.route';
import { parseBody } from '../http/parse-body';
import type { QueuePayload } from '../queue';
import type { IngestGate } from '../quota';
import type { RecentIds } from '../http/recent-ids';
import { parseSentryJson, type EnvelopeItem } from './parse-envelope';

/**
 * The vitals a `transaction` or `span` item carries (decision 046), one entry per page load it
 * touches; empty for any other transaction or span, and for one that is no JSON (such items were
 * read past before vitals were kept, and still are), which the caller drops and counts.
 */
export function readTracingItem(item: EnvelopeItem, what: string): SentryVitals[] {
  const type = item.type === 'transaction' ? 'transaction' : 'span';
  let payload: unknown;
  try {
    payload = parseSentryJson(item.payload, what);
  } catch (err) {
    if (err instanceof AppError) return [];
    throw err;
  }
  return mapSentryVitals(type, payload);
}

/**
 * One page load's piece as a queued vitals job, through the same schema as `/ingest/vitals` (the
 * URL cut at `?` and `#`) and the same gate: one unit of the event quota per page load. Every
 * piece of a page load has the report's id, so the process that took one piece does not count
 * the others (`RecentIds`, as a retried event); pieces taken by different edge processes may each
 * count once. Throws 400 for a piece the schema refuses, 429 when a limit refuses it.
 */
export async function takeVitals(
  key: KeyInfo,
  vitals: SentryVitals,
  receivedAt: string,
  deps: { gate?: IngestGate; recent?: RecentIds },
): Promise<QueuePayload> {
  const body = parseBody(queuedVitalsSchema, {
    id: vitals.id,
    url: vitals.url,
    metrics: vitals.metrics,
    environment: vitals.environment,
    release: vitals.release,
    tags: vitals.tags,
    merge: true,
  });
  await admitOnce(deps, key, 'events', vitals.id);
  return encodeJob({
    v: 1,
    kind: 'vitals',
    projectId: key.projectId,
    receivedAt,
    vitals: { ...body, id: vitals.id },
  });
}
