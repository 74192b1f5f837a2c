import type { DataSource, EntityManager } from 'typeorm';
import { queryRows } from '../db/query-rows';

/** A job set aside, as a queue hands it over. */
export interface DeadLetterInput {
  /** The queue's id for the message, prefixed by the queue (`database:42`, `redis:tracker:1-0`). */
  messageId: string;
  topic: string;
  payload: string;
  error: string;
  attempts: number;
  firstFailedAt?: Date;
  lastFailedAt?: Date;
}

export interface DeadLetter {
  id: string;
  messageId: string;
  topic: string;
  projectId: string | null;
  kind: string | null;
  itemId: string | null;
  payload: string;
  error: string;
  attempts: number;
  firstFailedAt: Date;
  lastFailedAt: Date;
}

/** Where a queue records what it sets aside; the queue acks the messages only once this resolves. */
export type DeadLetterSink = (entries: DeadLetterInput[]) => Promise<void>;

const MAX_ERROR_CHARS = 2_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Records dead letters in the `dead_letters` table. A message recorded twice (set aside, then
 * the ack lost and the message set aside again) keeps one row with the later failure.
 */
export async function recordDeadLetters(on: DataSource | EntityManager, entries: DeadLetterInput[]): Promise<void> {
  if (entries.length === 0) return;
  const now = new Date();
  const described = entries.map((e) => ({ ...e, ...describePayload(e.payload) }));
  await on.query(
    `INSERT INTO dead_letters (message_id, topic, project_id, kind, item_id, payload, error, attempts,
                               first_failed_at, last_failed_at)
     SELECT * FROM unnest($1::text[], $2::text[], $3::uuid[], $4::text[], $5::text[], $6::text[], $7::text[],
                          $8::int[], $9::timestamptz[], $10::timestamptz[])
     ON CONFLICT (message_id) DO UPDATE SET error = excluded.error, attempts = excluded.attempts,
       last_failed_at = excluded.last_failed_at`,
    [
      described.map((e) => e.messageId),
      described.map((e) => e.topic),
      described.map((e) => e.projectId),
      described.map((e) => e.kind),
      described.map((e) => e.itemId),
      // The payload may be the very thing PostgreSQL refused (a NUL): stored text must not fail.
      described.map((e) => storable(e.payload)),
      described.map((e) => storable(e.error).slice(0, MAX_ERROR_CHARS)),
      described.map((e) => e.attempts),
      described.map((e) => (e.firstFailedAt ?? e.lastFailedAt ?? now).toISOString()),
      described.map((e) => (e.lastFailedAt ?? now).toISOString()),
    ],
  );
}

/** A sink writing to the table through `ds`. */
export function deadLetterSink(ds: DataSource): DeadLetterSink {
  return (entries) => recordDeadLetters(ds, entries);
}

export async function countDeadLetters(ds: DataSource): Promise<number> {
  const [row] = await queryRows<{ n: number }>(ds, 'SELECT count(*)::int AS n FROM dead_letters');
  return row.n;
}

/**
 * Dead letters per queue stream, from their message ids (`redis:<stream>:<entry id>`; the
 * database queue's are `db:<topic>:<id>`): a sharded Redis queue's count per shard.
 */
export async function countDeadLettersByStream(ds: DataSource): Promise<Map<string, number>> {
  const rows = await queryRows<{ stream: string; n: number }>(
    ds,
    `SELECT regexp_replace(message_id, '^[a-z]+:(.*):[^:]*$', '\\1') AS stream, count(*)::int AS n
       FROM dead_letters GROUP BY 1`,
  );
  return new Map(rows.map((r) => [r.stream, r.n]));
}

interface Row {
  id: string;
  message_id: string;
  topic: string;
  project_id: string | null;
  kind: string | null;
  item_id: string | null;
  payload: string;
  error: string;
  attempts: number;
  first_failed_at: Date;
  last_failed_at: Date;
}

const COLUMNS = `id::text, message_id, topic, project_id, kind, item_id, payload, error, attempts, first_failed_at, last_failed_at`;

/** The newest first. */
export async function listDeadLetters(ds: DataSource, options: { limit?: number } = {}): Promise<DeadLetter[]> {
  const rows = await queryRows<Row>(
    ds,
    `SELECT ${COLUMNS} FROM dead_letters ORDER BY last_failed_at DESC, id DESC LIMIT $1`,
    [options.limit ?? 50],
  );
  return rows.map(fromRow);
}

/**
 * Replays dead letters: each is handed to `enqueue` (the queue of its topic) and deleted only
 * once that resolved, so a crash in between replays it twice, which the worker's idempotency
 * (event ids, item ids) absorbs. `ids`: the rows to replay, or `'all'`. Returns the replayed rows.
 */
export async function replayDeadLetters(
  ds: DataSource,
  ids: string[] | 'all',
  enqueue: (topic: string, payloads: string[]) => Promise<void>,
): Promise<DeadLetter[]> {
  const replayed: DeadLetter[] = [];
  let after = '0';
  for (;;) {
    const rows = await queryRows<Row>(
      ds,
      ids === 'all'
        ? `SELECT ${COLUMNS} FROM dead_letters WHERE id > $1 ORDER BY id LIMIT 500`
        : `SELECT ${COLUMNS} FROM dead_letters WHERE id > $1 AND id = ANY($2::bigint[]) ORDER BY id LIMIT 500`,
      ids === 'all' ? [after] : [after, ids],
    );
    if (rows.length === 0) return replayed;
    const byTopic = new Map<string, Row[]>();
    for (const r of rows) byTopic.set(r.topic, [...(byTopic.get(r.topic) ?? []), r]);
    for (const [topic, group] of byTopic) {
      await enqueue(
        topic,
        group.map((r) => r.payload),
      );
      await ds.query('DELETE FROM dead_letters WHERE id = ANY($1::bigint[])', [group.map((r) => r.id)]);
      replayed.push(...group.map(fromRow));
    }
    after = rows[rows.length - 1].id;
  }
}

/** Deletes dead letters whose last failure is older than `days`; returns how many. */
export async function purgeDeadLetters(ds: DataSource, olderThanDays: number): Promise<number> {
  const rows = await queryRows<{ id: string }>(
    ds,
    `DELETE FROM dead_letters WHERE last_failed_at < now() - make_interval(days => $1) RETURNING id`,
    [olderThanDays],
  );
  return rows.length;
}

function fromRow(r: Row): DeadLetter {
  return {
    id: r.id,
    messageId: r.message_id,
    topic: r.topic,
    projectId: r.project_id,
    kind: r.kind,
    itemId: r.item_id,
    payload: r.payload,
    error: r.error,
    attempts: Number(r.attempts),
    firstFailedAt: new Date(r.first_failed_at),
    lastFailedAt: new Date(r.last_failed_at),
  };
}

/** The job's project, kind and item id, when the payload is a job that can be read at all. */
function describePayload(payload: string): { projectId: string | null; kind: string | null; itemId: string | null } {
  try {
    const job = JSON.parse(payload) as Record<string, unknown>;
    const projectId = typeof job.projectId === 'string' && UUID.test(job.projectId) ? job.projectId : null;
    const kind = typeof job.kind === 'string' ? job.kind.slice(0, 32) : null;
    const body = kind ? (job[kind === 'error' ? 'event' : kind] as Record<string, unknown> | undefined) : undefined;
    const rawId = body?.eventId ?? body?.id ?? job.deliveryId;
    return {
      projectId,
      kind: kind && storable(kind),
      itemId: typeof rawId === 'string' ? storable(rawId.slice(0, 64)) : null,
    };
  } catch {
    return { projectId: null, kind: null, itemId: null };
  }
}

/** NUL is the one character PostgreSQL's text cannot hold. */
function storable(text: string): string {
  return text.includes('\u0000') ? text.replaceAll('\u0000', '\uFFFD') : text;
}
