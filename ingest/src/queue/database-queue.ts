import { EventEmitter } from 'node:events';
import { queryRows } from '@tracker/core';
import type { DataSource } from 'typeorm';
import { BacklogBound, type BacklogLimits } from './backlog-bound';
import { MAX_ATTEMPTS, type Queue, type QueueMessage, type QueuePayload } from './queue';

export interface DatabaseQueueOptions {
  topic?: string;
  /** How long a received message stays invisible to other consumers. */
  visibilityMs?: number;
  /**
   * Embedded mode holds the data folder exclusively, so any lock left in the table belongs
   * to a previous run of this same process that died: release them all at start instead of
   * waiting out the visibility timeout. Never set with a shared PostgreSQL.
   */
  releaseLocksOnStart?: boolean;
  pollMs?: number;
  /** Back-off after a failure: this times 2^attempts (default 1 s: 2 s, 4 s, 8 s, 16 s). */
  retryBaseMs?: number;
  /**
   * Refuse new items (`checkBacklog`: 503 + Retry-After) while this much is waiting
   * (TRACKER_MAX_BACKLOG, TRACKER_MAX_BACKLOG_MB). Unset: no bound (the alerts topic, the CLI).
   */
  backlog?: BacklogLimits;
  /** How often the backlog is counted again from the table (default 1 s). */
  backlogRecountMs?: number;
}

/**
 * The queue for installations without Redis: a table in the same database. Rows are claimed
 * with `FOR UPDATE SKIP LOCKED`, so it also works with several workers on PostgreSQL.
 */
export class DatabaseQueue implements Queue {
  readonly kind = 'database' as const;
  private readonly topic: string;
  private readonly visibilityMs: number;
  private readonly pollMs: number;
  private readonly retryBaseMs: number;
  private readonly wakeups = new EventEmitter();
  private pending: Array<{
    payloads: QueuePayload[];
    bytes: number;
    resolve: () => void;
    reject: (e: unknown) => void;
  }> = [];
  private flushScheduled = false;
  private closed = false;
  /** Set when the queue has a backlog bound. */
  readonly bound: BacklogBound | undefined;
  private recountTimer: NodeJS.Timeout | undefined;
  private recounting = false;

  private constructor(
    private readonly ds: DataSource,
    options: DatabaseQueueOptions,
  ) {
    this.topic = options.topic ?? 'jobs';
    this.visibilityMs = options.visibilityMs ?? 60_000;
    this.pollMs = options.pollMs ?? 500;
    this.retryBaseMs = options.retryBaseMs ?? 1_000;
    this.wakeups.setMaxListeners(0);
    this.bound =
      options.backlog && (options.backlog.maxItems > 0 || options.backlog.maxBytes > 0)
        ? new BacklogBound(options.backlog)
        : undefined;
  }

  static async open(ds: DataSource, options: DatabaseQueueOptions = {}): Promise<DatabaseQueue> {
    const queue = new DatabaseQueue(ds, options);
    if (options.releaseLocksOnStart) {
      await ds.query('UPDATE queue_jobs SET locked_until = NULL WHERE topic = $1 AND locked_until IS NOT NULL', [
        queue.topic,
      ]);
    }
    if (queue.bound) {
      await queue.recount();
      queue.recountTimer = setInterval(() => void queue.recount(), options.backlogRecountMs ?? 1_000);
      queue.recountTimer.unref();
    }
    return queue;
  }

  checkBacklog(items = 1): void {
    this.bound?.check(items);
  }

  /** The table's count of waiting rows and their bytes (octet_length reads a TOASTed value's size without decompressing it). */
  private async recount(): Promise<void> {
    if (this.recounting || this.closed || !this.bound) return;
    this.recounting = true;
    try {
      const [row] = await queryRows<{ n: number; bytes: string }>(
        this.ds,
        `SELECT count(*)::int AS n, coalesce(sum(octet_length(payload)), 0)::text AS bytes
           FROM queue_jobs WHERE topic = $1 AND dead_at IS NULL`,
        [this.topic],
      );
      this.bound.recounted(row.n, Number(row.bytes));
    } catch {
      // The database is down or busy past its timeout: keep the running count; the worker logs outages.
    } finally {
      this.recounting = false;
    }
  }

  /**
   * Group commit: every enqueue issued in the same tick shares one INSERT. Under load that
   * turns hundreds of single-row transactions into a few multi-row ones; each caller still
   * resolves only after its rows are committed.
   */
  enqueue(payloads: QueuePayload[]): Promise<void> {
    if (this.closed) return Promise.reject(new Error('queue closed'));
    // Counted against the bound now, not at the flush: a `checkBacklog` right before this call,
    // in the same tick, then sees every earlier request of the tick (no overshoot by a tick's worth).
    const bytes = this.bound ? byteSum(payloads) : 0;
    this.bound?.enqueuing(payloads.length, bytes);
    return new Promise((resolve, reject) => {
      this.pending.push({ payloads, bytes, resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    this.flushScheduled = false;
    // A text column: bytes are decoded here, as the worker would decode them from Redis.
    const payloads = batch.flatMap((b) => b.payloads.map(asText));
    if (batch.length === 0) return;
    const bytes = batch.reduce((sum, b) => sum + b.bytes, 0);
    try {
      await this.ds.query('INSERT INTO queue_jobs (topic, payload) SELECT $1, unnest($2::text[])', [
        this.topic,
        payloads,
      ]);
      this.bound?.enqueued(payloads.length, bytes, true);
      for (const b of batch) b.resolve();
      this.wakeups.emit('job');
    } catch (err) {
      this.bound?.enqueued(payloads.length, bytes, false);
      for (const b of batch) b.reject(err);
    }
  }

  async receive(max: number, waitMs: number): Promise<QueueMessage[]> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const rows = await queryRows<{ id: string; payload: string; attempts: number; last_error: string | null }>(
        this.ds,
        CLAIM_SQL,
        [this.topic, max, this.visibilityMs],
      );
      const messages: QueueMessage[] = [];
      for (const r of rows) {
        const m = { id: r.id, payload: r.payload, attempts: Number(r.attempts) };
        // Delivered MAX_ATTEMPTS times already and never acked nor failed: its worker died on
        // it each time (a crash, an out-of-memory kill). Another delivery would do the same.
        if (m.attempts > MAX_ATTEMPTS) await this.deadLetter([m], r.last_error ?? unackedReason(m.attempts - 1));
        else messages.push(m);
      }
      if (messages.length > 0 || this.closed) return messages.sort((a, b) => Number(a.id) - Number(b.id));
      const left = deadline - Date.now();
      if (left <= 0) return [];
      if (rows.length === 0) await this.waitForJob(Math.min(left, this.pollMs));
    }
  }

  async extend(messages: QueueMessage[]): Promise<void> {
    if (messages.length === 0) return;
    await this.ds.query(
      `UPDATE queue_jobs SET locked_until = now() + make_interval(secs => $2::double precision / 1000)
       WHERE id = ANY($1::bigint[])`,
      [messages.map((m) => m.id), this.visibilityMs],
    );
  }

  private waitForJob(ms: number): Promise<void> {
    // In-process enqueues wake the worker at once; polling covers other processes.
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeups.off('job', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeups.once('job', done);
    });
  }

  async ack(messages: QueueMessage[]): Promise<void> {
    if (messages.length === 0) return;
    await this.ds.query('DELETE FROM queue_jobs WHERE id = ANY($1::bigint[])', [messages.map((m) => m.id)]);
    this.bound?.removed(messages.length, byteSum(messages.map((m) => m.payload)));
  }

  async fail(messages: QueueMessage[], error: string): Promise<void> {
    if (messages.length === 0) return;
    // Back-off grows with attempts (2 s, 4 s, 8 s …); the last failure moves the row to the
    // dead letters, in the same statement (nothing in between to lose it).
    await this.ds.query(
      `WITH retried AS (
         UPDATE queue_jobs SET locked_until = NULL, last_error = $2,
           first_failed_at = coalesce(first_failed_at, now()),
           available_at = now() + make_interval(secs => $4::double precision / 1000 * power(2, attempts))
         WHERE id = ANY($1::bigint[]) AND attempts < $3
       ), dead AS (
         DELETE FROM queue_jobs WHERE id = ANY($1::bigint[]) AND attempts >= $3
         RETURNING id, topic, payload, attempts, first_failed_at, $2::text AS last_error
       )
       ${this.insertDeadSql('dead')}`,
      [messages.map((m) => m.id), storable(error).slice(0, 2000), MAX_ATTEMPTS, this.retryBaseMs],
    );
  }

  async deadLetter(messages: QueueMessage[], error: string): Promise<void> {
    if (messages.length === 0) return;
    await this.ds.query(
      `WITH dead AS (
         DELETE FROM queue_jobs WHERE id = ANY($1::bigint[])
         RETURNING id, topic, payload, attempts, first_failed_at, $2::text AS last_error
       )
       ${this.insertDeadSql('dead')}`,
      [messages.map((m) => m.id), storable(error).slice(0, 2000)],
    );
    this.bound?.removed(messages.length, byteSum(messages.map((m) => m.payload)));
  }

  /**
   * Copies the rows of the CTE `from` into dead_letters. Project, kind and item are read from
   * the payload when it is a readable job (core's recordDeadLetters does the same in code).
   */
  private insertDeadSql(from: string): string {
    return `INSERT INTO dead_letters (message_id, topic, project_id, kind, item_id, payload, error, attempts,
                                    first_failed_at, last_failed_at)
       SELECT 'database:' || d.id, d.topic, j.project_id, j.kind, j.item_id, d.payload, d.last_error,
              d.attempts, coalesce(d.first_failed_at, now()), now()
         FROM ${from} d
         LEFT JOIN LATERAL (
           SELECT CASE WHEN p.doc->>'projectId' ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
                       THEN (p.doc->>'projectId')::uuid END AS project_id,
                  left(p.doc->>'kind', 32) AS kind,
                  left(coalesce(p.doc->'event'->>'eventId', p.doc->(p.doc->>'kind')->>'id', p.doc->>'deliveryId'), 64) AS item_id
             FROM (SELECT tracker_try_json(d.payload) AS doc) p
         ) j ON true
       ON CONFLICT (message_id) DO UPDATE SET error = excluded.error, attempts = excluded.attempts,
         last_failed_at = excluded.last_failed_at`;
  }

  async depth(): Promise<number> {
    const [row] = await queryRows<{ n: number }>(
      this.ds,
      'SELECT count(*)::int AS n FROM queue_jobs WHERE topic = $1 AND dead_at IS NULL',
      [this.topic],
    );
    return row.n;
  }

  async ping(): Promise<void> {
    await this.ds.query('SELECT 1');
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.recountTimer);
    this.wakeups.emit('job');
    if (this.pending.length > 0) await this.flush();
  }
}

/**
 * Claims up to $2 ready rows of topic $1 for $3 ms. The rows are picked in a MATERIALIZED CTE,
 * which PostgreSQL runs exactly once, and updated by primary key from the array it yields.
 *
 * Why not `UPDATE … WHERE id IN (SELECT … LIMIT $2 FOR UPDATE SKIP LOCKED)`: after an ANALYZE of
 * an empty table (the embedded purge's, or autovacuum's) the planner may make that subquery the
 * inner side of a nested-loop semi join and run it again for every row of the table; each run
 * skips the rows the previous ones locked, so one claim took every row (5,000 of 10 asked, in
 * 5 s on PostgreSQL 15; O(rows²) on PGlite, where it froze the server: issue 28). A LIMIT is a
 * limit per execution, not per statement. The array form (rather than `FROM picked`) keeps the
 * update an index lookup whatever the statistics say, instead of a scan of the table.
 */
export const CLAIM_SQL = `WITH picked AS MATERIALIZED (
     SELECT id FROM queue_jobs
      WHERE topic = $1 AND dead_at IS NULL AND available_at <= now()
        AND (locked_until IS NULL OR locked_until < now())
      ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED)
   UPDATE queue_jobs SET locked_until = now() + make_interval(secs => $3::double precision / 1000),
     attempts = attempts + 1
    WHERE id = ANY (ARRAY(SELECT id FROM picked))
   RETURNING id::text, payload, attempts, last_error`;

export function unackedReason(deliveries: number): string {
  return `delivered ${deliveries} times without an ack or a failure (did the worker die on it?)`;
}

/** NUL is the one character PostgreSQL's text cannot hold (an error may quote the payload). */
function storable(text: string): string {
  return text.includes('\u0000') ? text.replaceAll('\u0000', '\uFFFD') : text;
}

function byteSum(texts: QueuePayload[]): number {
  let n = 0;
  for (const t of texts) n += typeof t === 'string' ? Buffer.byteLength(t) : t.length;
  return n;
}

function asText(payload: QueuePayload): string {
  return typeof payload === 'string' ? payload : payload.toString('utf8');
}
