import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { errorMessage, type DeadLetterInput, type DeadLetterSink } from '@tracker/core';
import { unackedReason } from './database-queue';
import { MAX_ATTEMPTS, type Queue, type QueueMessage, type QueuePayload } from './queue';
import { createRecycler, createRedisClient, recycleOnTimeout, type Recycler } from './redis-client';
import { StreamAppender } from './stream-appender';

/**
 * Commands off the ingest path (acks, claims, reads, ping) fail after this long, and the
 * connection is made again. The XADDs of the ingest path have no timer each: node-redis arms
 * an AbortSignal timer per command, which on that path cost more CPU than the XADD itself
 * (ingest benchmark); a flush of enqueues has one timer of its own instead.
 */
const COMMAND_TIMEOUT_MS = 2_000;
/**
 * Short enough that a request whose enqueue fails is answered 503 within 2 s, the ingest gate's
 * fail-open wait included (docs/reliability.md); XADDs take well under 10 ms when Redis is well.
 */
export const ENQUEUE_TIMEOUT_MS = 1_200;
const NO_TIMER = { timeout: 0 };
type RedisClient = ReturnType<typeof createRedisClient>;

export interface RedisQueueOptions {
  url: string;
  /** Key prefix: the stream is `<prefix>:jobs`. */
  prefix: string;
  /** The stream's key instead of `<prefix>:jobs` (a shard: `<prefix>:jobs:{k}`, `ShardedQueue`). */
  stream?: string;
  /** What the queue carries (`jobs`: events, logs, …; `alerts`), as its dead letters name it. */
  topic?: string;
  /** Where messages set aside go (the `dead_letters` table); they are acked only once it resolved. */
  deadLetters: DeadLetterSink;
  /** A pending message idle this long is presumed orphaned by a dead worker and reclaimed. */
  reclaimIdleMs?: number;
  consumer?: string;
  /**
   * How long an enqueue waits for Redis to acknowledge its entries before it fails (1.2 s);
   * the connection is then made again, since Redis stopped answering on it.
   */
  enqueueTimeoutMs?: number;
  /**
   * XADDs over the queue's own connection (`StreamAppender`, the default where the URL allows
   * it) or through node-redis (`false`; what `rediss://` URLs always get). Tests run both.
   */
  ownXaddConnection?: boolean;
  /**
   * Told when the consumer group had to be made again (Redis lost it: a restart without
   * persistence, or someone deleted the stream).
   */
  log?: (level: 'warn', message: string, data: Record<string, unknown>) => void;
}

const GROUP = 'workers';

/** Redis's answer to a group command when the stream or its consumer group is missing. */
function isNoGroup(err: unknown): boolean {
  return errorMessage(err).startsWith('NOGROUP');
}

/**
 * Redis streams with one consumer group. A message is XACKed and XDELed after the worker's
 * commit; a worker that dies leaves its messages pending, and any live worker claims them
 * after `reclaimIdleMs`. The delivery counter Redis keeps per pending entry is the attempt
 * count, so a poison message is moved to the dead-letter stream after MAX_ATTEMPTS.
 */
export class RedisStreamQueue implements Queue {
  readonly kind = 'redis' as const;
  /** The stream's key. */
  readonly stream: string;
  private readonly topic: string;
  private readonly deadLetters: DeadLetterSink;
  /** Before the dead_letters table: a stream per queue, drained into the table on connect. */
  private readonly legacyDeadStream: string;
  private readonly errors: string;
  private readonly reclaimIdleMs: number;
  private readonly consumer: string;
  private readonly enqueueTimeoutMs: number;
  private lastReclaim = 0;
  private readonly log: RedisQueueOptions['log'];
  /** How often the consumer group was made again after Redis lost it (`/metrics`). */
  groupsRecreated = 0;
  /** Enqueues waiting for the next flush. */
  private pending: Array<{ payloads: QueuePayload[]; resolve: () => void; reject: (err: unknown) => void }> = [];
  private flushScheduled = false;
  // Blocking reads hold their connection, so they get one of their own.
  private reader: RedisClient | undefined;
  private readerRecycler: Recycler | undefined;
  private readonly recycler: Recycler;

  /** Enqueues' own connection (plain `redis://` URLs); undefined: node-redis writes them. */
  private readonly appender: StreamAppender | undefined;

  private constructor(
    private readonly client: RedisClient,
    options: RedisQueueOptions,
  ) {
    this.topic = options.topic ?? 'jobs';
    this.stream = options.stream ?? `${options.prefix}:jobs`;
    this.deadLetters = options.deadLetters;
    this.appender =
      options.ownXaddConnection !== false && StreamAppender.supports(options.url)
        ? new StreamAppender(options.url, this.stream)
        : undefined;
    this.legacyDeadStream = `${this.stream}:dead`;
    this.errors = `${this.stream}:errors`;
    this.reclaimIdleMs = options.reclaimIdleMs ?? 60_000;
    this.enqueueTimeoutMs = options.enqueueTimeoutMs ?? ENQUEUE_TIMEOUT_MS;
    this.consumer = options.consumer ?? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
    this.recycler = createRecycler(client);
    this.log = options.log;
  }

  /** A command off the ingest path: a timeout recycles the connection. */
  private call<T>(command: Promise<T>): Promise<T> {
    return recycleOnTimeout(command, this.recycler, COMMAND_TIMEOUT_MS);
  }

  static async connect(options: RedisQueueOptions): Promise<RedisStreamQueue> {
    const client = createRedisClient(options.url, COMMAND_TIMEOUT_MS);
    client.on('error', () => undefined); // reconnects by itself; callers see failed commands
    await client.connect();
    const queue = new RedisStreamQueue(client, options);
    await queue.createGroup();
    await queue.drainLegacyDeadLetters();
    return queue;
  }

  /**
   * The consumer group, from the stream's first entry (MKSTREAM: the stream too). `true` when it
   * was made now, `false` when it was there already.
   */
  private async createGroup(): Promise<boolean> {
    try {
      await this.call(this.client.xGroupCreate(this.stream, GROUP, '0', { MKSTREAM: true }));
      return true;
    } catch (err) {
      if (!errorMessage(err).includes('BUSYGROUP')) throw err;
      return false;
    }
  }

  /**
   * Runs a group command; when Redis answers NOGROUP, makes the group again and runs it once
   * more. A Redis restarted without persistence comes back empty, and the edge's next XADD makes
   * the stream without the group: every XREADGROUP then failed with NOGROUP until the worker
   * process was restarted (issue 28: 2,527 events waited). The group starts from the stream's
   * first entry ('0'), so what the edge accepted after the restart is delivered; acked entries
   * are deleted (XDEL), so only unstored ones are there. With persistence Redis keeps the group
   * and this never happens.
   */
  private async withGroup<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch (err) {
      if (!isNoGroup(err)) throw err;
      if (await this.createGroup()) {
        this.groupsRecreated += 1;
        this.log?.(
          'warn',
          'the Redis consumer group was missing and was made again (did Redis restart without persistence?)',
          {
            stream: this.stream,
            group: GROUP,
            error: errorMessage(err),
          },
        );
      }
      return command();
    }
  }

  /**
   * Group commit, as in the database queue: the enqueues issued while the event loop handles one
   * round of I/O (every request whose body arrived in it) are flushed together, with one timeout
   * timer for the lot instead of one per request. Their XADDs leave in one write (the
   * `StreamAppender`'s own connection for `redis://` URLs, node-redis's pipeline otherwise) and
   * each is answered on its own, so each caller's promise settles with its own entries: it
   * resolves only once Redis has acknowledged every one of them (a 202 is never sent for an
   * entry that is not in the stream), and rejects, for that caller alone, when one of them
   * failed or Redis did not answer within `enqueueTimeoutMs`. (A MULTI per flush measured no
   * cheaper; one EVALSHA carrying the whole flush saved ~2 µs of client CPU per entry and cost
   * ~1 µs more in Redis: not worth a Lua script.)
   */
  enqueue(payloads: QueuePayload[]): Promise<void> {
    if (payloads.length === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ payloads, resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(this.flushPending);
      }
    });
  }

  private readonly flushPending = (): void => {
    const batch = this.pending;
    this.pending = [];
    this.flushScheduled = false;
    let unsettled = batch.length;
    const timer = setTimeout(() => {
      const message = `Redis did not confirm the enqueue within ${this.enqueueTimeoutMs} ms`;
      const err = new Error(message);
      for (const b of batch) b.reject(err); // a no-op for those already settled
      // The connection is stuck (or lost requests): the next flush must not queue behind it.
      if (this.appender) this.appender.reset(message);
      else this.recycler.recycle();
    }, this.enqueueTimeoutMs);
    const settled = () => {
      if (--unsettled === 0) clearTimeout(timer);
    };
    if (this.appender) {
      this.appender.append(
        batch.map((b) => ({
          payloads: b.payloads,
          resolve: () => {
            b.resolve();
            settled();
          },
          reject: (err: unknown) => {
            b.reject(err);
            settled();
          },
        })),
      );
      return;
    }
    for (const b of batch) {
      const adds = b.payloads.length === 1 ? this.xAdd(b.payloads[0]) : Promise.all(b.payloads.map(this.xAdd));
      adds.then(
        () => {
          b.resolve();
          settled();
        },
        (err: unknown) => {
          b.reject(err);
          settled();
        },
      );
    }
  };

  /**
   * XADD as a raw command: skips node-redis's typed-argument layer (~1 µs per entry on this
   * path). A Buffer payload is written as it is; a string is measured and encoded to UTF-8 here.
   */
  private readonly xAdd = (payload: QueuePayload): Promise<unknown> =>
    this.client.sendCommand(['XADD', this.stream, '*', 'p', payload], NO_TIMER);

  async receive(max: number, waitMs: number): Promise<QueueMessage[]> {
    const now = Date.now();
    if (now - this.lastReclaim >= Math.min(this.reclaimIdleMs, 5_000)) {
      this.lastReclaim = now;
      const reclaimed = await this.withGroup(() => this.call(this.reclaim(max)));
      if (reclaimed.length > 0) return reclaimed;
    }
    this.reader ??= await this.connectReader();
    // The read blocks up to waitMs by design: its timeout is on top of that.
    const reader = this.reader;
    const reply = await this.withGroup(() =>
      recycleOnTimeout(
        reader
          .withCommandOptions({ timeout: waitMs + COMMAND_TIMEOUT_MS })
          .xReadGroup(GROUP, this.consumer, { key: this.stream, id: '>' }, { COUNT: max, BLOCK: Math.max(1, waitMs) }),
        this.readerRecycler!,
        waitMs + COMMAND_TIMEOUT_MS,
      ),
    );
    const messages: QueueMessage[] = [];
    for (const stream of (reply as Array<{ messages: Array<{ id: string; message: Record<string, string> }> }>) ?? []) {
      for (const m of stream.messages) messages.push({ id: m.id, payload: m.message.p, attempts: 1 });
    }
    return messages;
  }

  async ack(messages: QueueMessage[]): Promise<void> {
    if (messages.length === 0) return;
    const ids = messages.map((m) => m.id);
    await this.call(
      Promise.all([
        this.client.xAck(this.stream, GROUP, ids),
        this.client.xDel(this.stream, ids),
        this.client.hDel(this.errors, ids),
      ]),
    );
  }

  async fail(messages: QueueMessage[], error: string): Promise<void> {
    // Left pending on purpose: reclaim() delivers them again after the idle time, and moves
    // them aside when Redis's delivery counter passes MAX_ATTEMPTS.
    if (messages.length === 0) return;
    const firsts = await this.call(
      this.client.hmGet(
        this.errors,
        messages.map((m) => m.id),
      ),
    );
    const now = Date.now();
    await this.call(
      this.client.hSet(
        this.errors,
        Object.fromEntries(
          messages.map((m, i) => [
            m.id,
            JSON.stringify({ e: error.slice(0, 2000), f: parseFailure(firsts[i])?.f ?? now }),
          ]),
        ),
      ),
    );
  }

  async extend(messages: QueueMessage[]): Promise<void> {
    if (messages.length === 0) return;
    // JUSTID: resets the idle time without counting a delivery.
    await this.withGroup(() =>
      this.call(
        this.client.sendCommand([
          'XCLAIM',
          this.stream,
          GROUP,
          this.consumer,
          '0',
          ...messages.map((m) => m.id),
          'JUSTID',
        ]),
      ),
    );
  }

  async depth(): Promise<number> {
    return this.call(this.client.xLen(this.stream));
  }

  /** Asks the stream's own node (a keyless PING would reach any node of a cluster). */
  async ping(): Promise<void> {
    await this.call(this.client.xLen(this.stream));
  }

  /**
   * Enqueues still waiting for their flush go out now, and close() waits for their replies, for
   * at most `timeoutMs`: a stuck Redis then gets its connections destroyed, and what it had not
   * confirmed fails (those requests were answered 503, nothing accepted is lost).
   */
  async close(timeoutMs = 2_000): Promise<void> {
    this.recycler.stop();
    this.readerRecycler?.stop();
    if (this.pending.length > 0) this.flushPending();
    this.reader?.destroy();
    let timer: NodeJS.Timeout | undefined;
    const graceful = Promise.allSettled([this.appender?.close(timeoutMs), this.client.close()]);
    const timedOut = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), timeoutMs)));
    if (await Promise.race([graceful.then(() => false), timedOut])) this.client.destroy();
    clearTimeout(timer);
  }

  private async connectReader(): Promise<RedisClient> {
    const reader = this.client.duplicate();
    reader.on('error', () => undefined);
    this.readerRecycler = createRecycler(reader);
    await reader.connect();
    return reader;
  }

  /** Takes over messages whose consumer has been silent for `reclaimIdleMs`. */
  private async reclaim(max: number): Promise<QueueMessage[]> {
    const pending = await this.client.xPendingRange(this.stream, GROUP, '-', '+', max, { IDLE: this.reclaimIdleMs });
    if (pending.length === 0) return [];
    const dead = pending.filter((p) => p.deliveriesCounter >= MAX_ATTEMPTS);
    const retry = pending.filter((p) => p.deliveriesCounter < MAX_ATTEMPTS);
    if (dead.length > 0) await this.deadLetterIds(dead);
    if (retry.length === 0) return [];
    const claimed = await this.client.xClaim(
      this.stream,
      GROUP,
      this.consumer,
      this.reclaimIdleMs,
      retry.map((p) => p.id),
    );
    const counts = new Map(retry.map((p) => [p.id, p.deliveriesCounter]));
    return claimed
      .filter((m): m is NonNullable<typeof m> => m !== null)
      .map((m) => ({ id: m.id, payload: m.message.p, attempts: (counts.get(m.id) ?? 0) + 1 }));
  }

  async deadLetter(messages: QueueMessage[], error: string): Promise<void> {
    if (messages.length === 0) return;
    const failures = await this.call(
      this.client.hmGet(
        this.errors,
        messages.map((m) => m.id),
      ),
    );
    await this.deadLetters(
      messages.map((m, i) => this.deadLetterOf(m.id, m.payload, error, m.attempts, parseFailure(failures[i])?.f)),
    );
    await this.ack(messages);
  }

  /** Entries delivered MAX_ATTEMPTS times: to the dead letters with their last recorded error. */
  private async deadLetterIds(pending: Array<{ id: string; deliveriesCounter: number }>): Promise<void> {
    const ids = pending.map((p) => p.id);
    const entries = await Promise.all(ids.map((id) => this.client.xRange(this.stream, id, id)));
    const failures = (await this.client.hmGet(this.errors, ids)).map(parseFailure);
    const found = pending.flatMap((p, i) => {
      const payload = entries[i]?.[0]?.message.p;
      if (payload === undefined) return []; // already acked and deleted
      const failure = failures[i];
      return [
        this.deadLetterOf(
          p.id,
          payload,
          failure?.e ?? unackedReason(p.deliveriesCounter),
          p.deliveriesCounter,
          failure?.f,
        ),
      ];
    });
    await this.deadLetters(found);
    await this.ack(ids.map((id) => ({ id, payload: '', attempts: 0 })));
  }

  private deadLetterOf(
    id: string,
    payload: string,
    error: string,
    attempts: number,
    firstFailedAt?: number,
  ): DeadLetterInput {
    return {
      messageId: `redis:${this.stream}:${id}`,
      topic: this.topic,
      payload,
      error,
      attempts,
      firstFailedAt: firstFailedAt === undefined ? undefined : new Date(firstFailedAt),
    };
  }

  /** Moves what an earlier version appended to `<stream>:dead` into the dead-letter table. */
  private async drainLegacyDeadLetters(): Promise<void> {
    for (;;) {
      const entries = await this.call(this.client.xRange(this.legacyDeadStream, '-', '+', { COUNT: 500 }));
      if (!entries || entries.length === 0) return;
      await this.deadLetters(
        entries.map((e) =>
          this.deadLetterOf(e.message.id ?? e.id, e.message.p ?? '', e.message.error ?? 'unknown', MAX_ATTEMPTS),
        ),
      );
      await this.client.xDel(
        this.legacyDeadStream,
        entries.map((e) => e.id),
      );
    }
  }
}

/** A failure recorded by `fail`: `{e: error, f: first failure, ms}`; older versions stored the text. */
function parseFailure(value: string | null | undefined): { e: string; f?: number } | undefined {
  if (value == null) return undefined;
  try {
    const parsed = JSON.parse(value) as { e?: unknown; f?: unknown };
    if (typeof parsed.e === 'string') return { e: parsed.e, f: typeof parsed.f === 'number' ? parsed.f : undefined };
  } catch {
    // plain text
  }
  return { e: value };
}
