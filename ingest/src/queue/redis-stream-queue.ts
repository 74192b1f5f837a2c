import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { createClient } from 'redis';
import { MAX_ATTEMPTS, type Queue, type QueueMessage, type QueuePayload } from './queue';
import { StreamAppender } from './stream-appender';

function createRedis(url: string) {
  // node-redis arms an AbortSignal timer per command by default; on the ingest path that cost
  // more CPU than the XADD itself (ingest benchmark). Enqueue has one timer of its own instead,
  // and a broken connection still fails commands at the socket.
  return createClient({ url, commandOptions: { timeout: 0 } });
}

const ENQUEUE_TIMEOUT_MS = 5_000;
type RedisClient = ReturnType<typeof createRedis>;

export interface RedisQueueOptions {
  url: string;
  /** Key prefix: the stream is `<prefix>:jobs`, dead letters `<prefix>:jobs:dead`. */
  prefix: string;
  /** A pending message idle this long is presumed orphaned by a dead worker and reclaimed. */
  reclaimIdleMs?: number;
  consumer?: string;
  /** How long an enqueue waits for Redis to acknowledge its entries before it fails (5 s). */
  enqueueTimeoutMs?: number;
  /**
   * XADDs over the queue's own connection (`StreamAppender`, the default where the URL allows
   * it) or through node-redis (`false`; what `rediss://` URLs always get). Tests run both.
   */
  ownXaddConnection?: boolean;
}

const GROUP = 'workers';

/**
 * Redis streams with one consumer group. A message is XACKed and XDELed after the worker's
 * commit; a worker that dies leaves its messages pending, and any live worker claims them
 * after `reclaimIdleMs`. The delivery counter Redis keeps per pending entry is the attempt
 * count, so a poison message is moved to the dead-letter stream after MAX_ATTEMPTS.
 */
export class RedisStreamQueue implements Queue {
  readonly kind = 'redis' as const;
  private readonly stream: string;
  private readonly deadStream: string;
  private readonly errors: string;
  private readonly reclaimIdleMs: number;
  private readonly consumer: string;
  private readonly enqueueTimeoutMs: number;
  private lastReclaim = 0;
  /** Enqueues waiting for the next flush. */
  private pending: Array<{ payloads: QueuePayload[]; resolve: () => void; reject: (err: unknown) => void }> = [];
  private flushScheduled = false;
  // Blocking reads hold their connection, so they get one of their own.
  private reader: RedisClient | undefined;

  /** Enqueues' own connection (plain `redis://` URLs); undefined: node-redis writes them. */
  private readonly appender: StreamAppender | undefined;

  private constructor(
    private readonly client: RedisClient,
    options: RedisQueueOptions,
  ) {
    this.stream = `${options.prefix}:jobs`;
    this.appender =
      options.ownXaddConnection !== false && StreamAppender.supports(options.url)
        ? new StreamAppender(options.url, this.stream)
        : undefined;
    this.deadStream = `${options.prefix}:jobs:dead`;
    this.errors = `${options.prefix}:jobs:errors`;
    this.reclaimIdleMs = options.reclaimIdleMs ?? 60_000;
    this.enqueueTimeoutMs = options.enqueueTimeoutMs ?? ENQUEUE_TIMEOUT_MS;
    this.consumer = options.consumer ?? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  }

  static async connect(options: RedisQueueOptions): Promise<RedisStreamQueue> {
    const client = createRedis(options.url);
    client.on('error', () => undefined); // reconnects by itself; callers see failed commands
    await client.connect();
    const queue = new RedisStreamQueue(client, options);
    try {
      await client.xGroupCreate(queue.stream, GROUP, '0', { MKSTREAM: true });
    } catch (err) {
      if (!String((err as Error).message).includes('BUSYGROUP')) throw err;
    }
    return queue;
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
      const err = new Error(`Redis did not confirm the enqueue within ${this.enqueueTimeoutMs} ms`);
      for (const b of batch) b.reject(err); // a no-op for those already settled
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
    this.client.sendCommand(['XADD', this.stream, '*', 'p', payload]);

  async receive(max: number, waitMs: number): Promise<QueueMessage[]> {
    const now = Date.now();
    if (now - this.lastReclaim >= Math.min(this.reclaimIdleMs, 5_000)) {
      this.lastReclaim = now;
      const reclaimed = await this.reclaim(max);
      if (reclaimed.length > 0) return reclaimed;
    }
    this.reader ??= await this.connectReader();
    const reply = await this.reader.xReadGroup(
      GROUP,
      this.consumer,
      { key: this.stream, id: '>' },
      { COUNT: max, BLOCK: Math.max(1, waitMs) },
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
    await Promise.all([
      this.client.xAck(this.stream, GROUP, ids),
      this.client.xDel(this.stream, ids),
      this.client.hDel(this.errors, ids),
    ]);
  }

  async fail(messages: QueueMessage[], error: string): Promise<void> {
    // Left pending on purpose: reclaim() delivers them again after the idle time, and moves
    // them aside when Redis's delivery counter passes MAX_ATTEMPTS.
    if (messages.length === 0) return;
    await this.client.hSet(this.errors, Object.fromEntries(messages.map((m) => [m.id, error.slice(0, 2000)])));
  }

  async depth(): Promise<number> {
    return this.client.xLen(this.stream);
  }

  async ping(): Promise<void> {
    await this.client.ping();
  }

  async close(): Promise<void> {
    // Enqueues still waiting for their flush go out now; close() waits for their replies.
    if (this.pending.length > 0) this.flushPending();
    await Promise.allSettled([this.appender?.close(), this.client.close(), this.reader?.destroy()]);
  }

  private async connectReader(): Promise<RedisClient> {
    const reader = this.client.duplicate();
    reader.on('error', () => undefined);
    await reader.connect();
    return reader;
  }

  /** Takes over messages whose consumer has been silent for `reclaimIdleMs`. */
  private async reclaim(max: number): Promise<QueueMessage[]> {
    const pending = await this.client.xPendingRange(this.stream, GROUP, '-', '+', max, { IDLE: this.reclaimIdleMs });
    if (pending.length === 0) return [];
    const dead = pending.filter((p) => p.deliveriesCounter >= MAX_ATTEMPTS).map((p) => p.id);
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
    await Promise.all(messages.map((m) => this.client.xAdd(this.deadStream, '*', { p: m.payload, id: m.id, error })));
    await this.ack(messages);
  }

  private async deadLetterIds(ids: string[]): Promise<void> {
    const entries = await Promise.all(ids.map((id) => this.client.xRange(this.stream, id, id)));
    const errors = await this.client.hmGet(this.errors, ids);
    await Promise.all(
      entries.map((e, i) =>
        e?.[0]
          ? this.client.xAdd(this.deadStream, '*', {
              p: e[0].message.p,
              id: ids[i],
              error: errors[i] ?? 'delivered repeatedly without an ack (worker died?)',
            })
          : undefined,
      ),
    );
    await this.ack(ids.map((id) => ({ id, payload: '', attempts: 0 })));
  }
}
