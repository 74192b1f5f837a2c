import { jobProjectId, queueShardOf, queueStreamKeys } from '@tracker/core';
import type { Queue, QueueMessage, QueuePayload } from './queue';
import { RedisStreamQueue, type RedisQueueOptions } from './redis-stream-queue';

export interface ShardedQueueOptions extends Omit<RedisQueueOptions, 'stream'> {
  /** Streams to spread jobs over (TRACKER_QUEUE_SHARDS, at least 2). */
  shards: number;
}

/** One stream's answer to a ping (`/readyz`) or a depth (`/metrics`). */
export interface ShardState {
  /** `0`…`N-1`, or `legacy` for the single stream of one-shard deployments, still drained. */
  shard: string;
  stream: string;
  /** Entries waiting; undefined when the stream's master did not answer. */
  depth?: number;
  error?: string;
}

/** After a shard's read failed (its master is down), the others are read without it this long. */
const SHARD_RETRY_MS = 1_000;

/**
 * The jobs queue over N Redis streams, `<prefix>:jobs:{k}` (decision 068). An edge sends each job
 * to the shard of its project (a stable hash of the project id), so one project's jobs keep their
 * order in one stream, and a Redis Cluster places the shards, by their hash tags, on different
 * masters. Each shard is a whole `RedisStreamQueue`: its own consumer group, claims of idle
 * entries, failure records and dead letters, exactly as with one stream.
 *
 * A worker reads every shard at once, each on its own blocking read, and hands back what came
 * first; what the others bring meanwhile waits in hand for the next `receive` (it is pending under
 * this consumer, so a crash leaves it to be claimed like any other). A shard whose master is down
 * fails alone: its enqueues fail (the edge answers 503 + Retry-After for its projects), its reads
 * are retried every second, and the other shards go on.
 *
 * The stream a one-shard deployment used (`<prefix>:jobs`) is read too, never written: its backlog
 * is stored after the switch, and an edge of the old configuration during a rolling deploy is not
 * lost.
 */
export class ShardedQueue implements Queue {
  readonly kind = 'redis' as const;
  private buffer: QueueMessage[] = [];
  private readonly reading: Array<Promise<void> | undefined>;
  private readonly retryAt: number[];
  private lastError: unknown;
  private wake: (() => void) | undefined;
  private closed = false;

  private constructor(
    /** The shards, in order; the last source is the legacy stream. */
    private readonly sources: RedisStreamQueue[],
    private readonly shards: number,
  ) {
    this.reading = sources.map(() => undefined);
    this.retryAt = sources.map(() => 0);
  }

  static async connect(options: ShardedQueueOptions): Promise<ShardedQueue> {
    const streams = [...queueStreamKeys(options.prefix, options.shards), queueStreamKeys(options.prefix, 1)[0]];
    const opened = await Promise.allSettled(streams.map((stream) => RedisStreamQueue.connect({ ...options, stream })));
    const failed = opened.find((o) => o.status === 'rejected');
    if (failed) {
      await Promise.all(opened.map((o) => (o.status === 'fulfilled' ? o.value.close() : undefined)));
      throw failed.reason;
    }
    return new ShardedQueue(
      opened.map((o) => (o as PromiseFulfilledResult<RedisStreamQueue>).value),
      options.shards,
    );
  }

  /** The shard a project's jobs go to (`queueShardOf`). */
  shardOf(projectId: string | undefined): number {
    return queueShardOf(projectId, this.shards);
  }

  enqueue(payloads: QueuePayload[]): Promise<void> {
    if (payloads.length === 0) return Promise.resolve();
    // An edge's request is one project's: one shard, no grouping to do.
    const first = this.shardOf(jobProjectId(payloads[0]));
    const byShard = new Map<number, QueuePayload[]>([[first, []]]);
    for (const p of payloads) {
      const k = p === payloads[0] ? first : this.shardOf(jobProjectId(p));
      const list = byShard.get(k) ?? [];
      list.push(p);
      byShard.set(k, list);
    }
    if (byShard.size === 1) return this.sources[first].enqueue(payloads);
    return settleAll([...byShard].map(([k, list]) => this.sources[k].enqueue(list)));
  }

  async receive(max: number, waitMs: number): Promise<QueueMessage[]> {
    if (this.buffer.length === 0) await this.fill(max, waitMs);
    return this.buffer.splice(0, max);
  }

  /** Starts a read on every shard not already being read; waits for the first messages, or for all reads to end. */
  private async fill(max: number, waitMs: number): Promise<void> {
    this.lastError = undefined;
    const now = Date.now();
    for (let i = 0; i < this.sources.length; i++) {
      if (this.reading[i] || now < this.retryAt[i] || this.closed) continue;
      this.reading[i] = this.sources[i]
        .receive(max, waitMs)
        .then(
          (messages) => {
            for (const m of messages) this.buffer.push({ ...m, id: `${i}/${m.id}` });
          },
          (err: unknown) => {
            this.lastError = err;
            this.retryAt[i] = Date.now() + SHARD_RETRY_MS;
          },
        )
        .finally(() => {
          this.reading[i] = undefined;
          this.wake?.();
        });
    }
    if (this.reading.every((r) => r === undefined)) {
      // Every shard failed a moment ago: wait for the first retry rather than spin.
      const next = Math.min(...this.retryAt) - Date.now();
      await new Promise((r) => setTimeout(r, Math.max(10, Math.min(waitMs, next))));
      return;
    }
    while (this.buffer.length === 0 && this.reading.some((r) => r !== undefined)) {
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
    if (this.buffer.length === 0 && this.lastError !== undefined) throw this.lastError;
  }

  ack(messages: QueueMessage[]): Promise<void> {
    return this.perSource(messages, (q, part) => q.ack(part));
  }

  fail(messages: QueueMessage[], error: string): Promise<void> {
    return this.perSource(messages, (q, part) => q.fail(part, error));
  }

  deadLetter(messages: QueueMessage[], error: string): Promise<void> {
    return this.perSource(messages, (q, part) => q.deadLetter(part, error));
  }

  extend(messages: QueueMessage[]): Promise<void> {
    return this.perSource(messages, (q, part) => q.extend(part));
  }

  /** Splits messages by the shard their id names; every shard is tried, the first failure is thrown. */
  private perSource(messages: QueueMessage[], run: (q: RedisStreamQueue, part: QueueMessage[]) => Promise<void>) {
    const parts = new Map<number, QueueMessage[]>();
    for (const m of messages) {
      const slash = m.id.indexOf('/');
      const i = Number(m.id.slice(0, slash));
      if (!(slash > 0 && i >= 0 && i < this.sources.length)) throw new Error(`not a sharded queue message id: ${m.id}`);
      const list = parts.get(i) ?? [];
      list.push({ ...m, id: m.id.slice(slash + 1) });
      parts.set(i, list);
    }
    return settleAll([...parts].map(([i, part]) => run(this.sources[i], part)));
  }

  /** Every stream's depth, or why it has none (`/metrics`): a node not answering in `timeoutMs` has none. */
  async states(timeoutMs: number): Promise<ShardState[]> {
    return Promise.all(
      this.sources.map(async (q, i) => {
        const shard = i < this.shards ? String(i) : 'legacy';
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
        });
        try {
          return { shard, stream: q.stream, depth: await Promise.race([q.depth(), late]) };
        } catch (err) {
          return { shard, stream: q.stream, error: err instanceof Error ? err.message : String(err) };
        } finally {
          clearTimeout(timer);
        }
      }),
    );
  }

  /** All streams' entries; fails when one stream's master does not answer (its gauge says which). */
  async depth(): Promise<number> {
    const depths = await Promise.all(this.sources.map((q) => q.depth()));
    return depths.reduce((a, b) => a + b, 0);
  }

  /**
   * Ready while any shard answers: every edge sees the same masters, so failing readiness for one
   * would take every edge out of the load balancer and refuse the projects of the healthy shards
   * too. Which shards answer is in `/readyz`'s detail and `/metrics`.
   */
  async ping(): Promise<void> {
    try {
      await Promise.any(this.sources.slice(0, this.shards).map((q) => q.ping()));
    } catch (err) {
      throw (err as AggregateError).errors[0];
    }
  }

  /** Per shard: whether its master answered a ping within `timeoutMs` (`/readyz`). */
  async pingShards(timeoutMs: number): Promise<Record<string, 'ok' | 'unavailable'>> {
    const pinged = await Promise.allSettled(
      this.sources.slice(0, this.shards).map((q) => {
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<never>(
          (_, reject) => (timer = setTimeout(() => reject(new Error('late')), timeoutMs)),
        );
        return Promise.race([q.ping(), late]).finally(() => clearTimeout(timer));
      }),
    );
    return Object.fromEntries(pinged.map((p, i) => [String(i), p.status === 'fulfilled' ? 'ok' : 'unavailable']));
  }

  get groupsRecreated(): number {
    return this.sources.reduce((n, q) => n + q.groupsRecreated, 0);
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.sources.map((q) => q.close()));
    this.wake?.();
  }
}

/** Waits for every promise; rejects with the first failure once all have settled. */
async function settleAll(promises: Array<Promise<void>>): Promise<void> {
  const settled = await Promise.allSettled(promises);
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
}
