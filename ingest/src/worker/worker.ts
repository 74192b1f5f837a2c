import type { DataSource } from 'typeorm';
import { MAX_ATTEMPTS, type Queue, type QueueMessage } from '../queue';
import type { EventSymbolicator } from '@tracker/core';
import { encodeAlertJob } from '../dispatch/alert-dispatcher';
import {
  emptyBatch,
  persistBatch,
  prepareJobs,
  processBatch,
  symbolicateBatch,
  type PreparedBatch,
} from './process-batch';

export interface WorkerOptions {
  ds: DataSource;
  queue: Queue;
  batchSize: number;
  /** How long one receive waits for work before looping (and noticing a stop). */
  waitMs?: number;
  /**
   * Receive and prepare the next batch while the current one's transaction runs. On by default,
   * except on a one-connection database (PGlite): there the database queue's statements and the
   * source-map reads would only wait for the transaction, and PGlite runs on this same thread,
   * so there is nothing to gain.
   */
  overlap?: boolean;
  /** Source maps for stack frames (the worker role passes one; benches and tests may not). */
  symbolicator?: EventSymbolicator;
  /** Where alert deliveries written by a batch are queued after its commit. */
  alerts?: Queue;
  /** Dashboard origin for links in alerts (read per batch: a test server learns its port late). */
  publicUrl?: () => string;
  log?: (level: 'info' | 'warn' | 'error', msg: string, data?: Record<string, unknown>) => void;
}

export interface WorkerStats {
  batches: number;
  events: number;
  duplicates: number;
  failures: number;
}

export interface RunningWorker {
  readonly stats: WorkerStats;
  stop(): Promise<void>;
}

/**
 * Payloads prepared per slice before yielding (~0.15 ms of work), so that a statement result of
 * the running transaction, the critical path, waits as little as possible for Node. 4 made the
 * transactions ~4 % shorter than 16 in the benchmark.
 */
const PREPARE_SLICE = 4;

interface Received {
  messages: QueueMessage[];
  batch: PreparedBatch;
}

/**
 * Drains the queue in batches until stopped. A batch is acked only after its transaction
 * commits; if the process dies in between, the batch is delivered again and the
 * (project, eventId) uniqueness makes the second delivery count nothing.
 *
 * Two batches are in hand at a time: while batch N's transaction runs in PostgreSQL, the next
 * one is received and prepared (decode, parse, group) in Node, so the two use a core each
 * instead of waiting for each other. Transactions still run one at a time and in order, and
 * each batch is acked only after its own commit. `stop()` finishes both batches in hand.
 */
export function startWorker(options: WorkerOptions): RunningWorker {
  const { ds, queue, batchSize } = options;
  const waitMs = options.waitMs ?? 1_000;
  const log = options.log ?? (() => undefined);
  const overlap = options.overlap ?? !hasOneConnection(ds);
  const context = () => ({ symbolicator: options.symbolicator, publicUrl: options.publicUrl?.() ?? '' });
  const stats: WorkerStats = { batches: 0, events: 0, duplicates: 0, failures: 0 };
  let stopping = false;

  const loop = (async () => {
    let next: Promise<Received | Error> | undefined = receive();
    while (next) {
      const received = await next;
      next = undefined;
      if (received instanceof Error) {
        stats.failures += 1;
        log('error', 'worker receive failed', { error: received.message });
        await sleep(500);
      } else {
        if (overlap && !stopping) next = receive();
        if (received.messages.length > 0) {
          try {
            await handle(received);
          } catch (err) {
            stats.failures += 1;
            log('error', 'worker batch failed', { error: (err as Error).message, size: received.messages.length });
            await sleep(500);
          }
        }
      }
      if (!next && !stopping) next = receive();
    }
  })();

  /** The next batch, received and prepared; never rejects (the loop must not lose a rejection). */
  async function receive(): Promise<Received | Error> {
    try {
      const messages = await queue.receive(batchSize, waitMs);
      const batch = emptyBatch();
      for (let i = 0; i < messages.length; i += PREPARE_SLICE) {
        if (i > 0) await yieldToIo();
        prepareJobs(
          batch,
          messages.slice(i, i + PREPARE_SLICE).map((m) => m.payload),
          i,
        );
      }
      try {
        await symbolicateBatch(batch, context());
      } catch (err) {
        // A map could not be read (database trouble): retry later rather than group on
        // minified frames, which would split the issue for good.
        await queue.fail(messages, `symbolication failed: ${(err as Error).message}`);
        throw err;
      }
      return { messages, batch };
    } catch (err) {
      return err instanceof Error ? err : new Error(String(err));
    }
  }

  async function handle({ messages, batch }: Received): Promise<void> {
    try {
      await persistAndAck(messages, () => persistBatch(ds, batch, context()));
    } catch (err) {
      if (messages.length === 1) {
        await queue.fail(messages, (err as Error).message);
        throw err;
      }
      // One bad message must not hold back the others: retry one by one to isolate it.
      log('warn', 'batch failed; retrying its messages one by one', { error: (err as Error).message });
      for (const m of messages) {
        try {
          await persistAndAck([m], () => processBatch(ds, [m.payload], context()));
        } catch (single) {
          stats.failures += 1;
          await queue.fail([m], (single as Error).message);
          log('error', 'message failed', { id: m.id, attempts: m.attempts, max: MAX_ATTEMPTS });
        }
      }
    }
  }

  async function persistAndAck(
    messages: QueueMessage[],
    persist: () => ReturnType<typeof processBatch>,
  ): Promise<void> {
    const outcome = await persist();
    const unreadable = new Set(outcome.unreadable.map((u) => u.index));
    if (unreadable.size > 0) {
      const bad = messages.filter((_, i) => unreadable.has(i));
      // Redelivery cannot fix an unreadable payload: straight to the dead letters.
      await queue.deadLetter(bad, outcome.unreadable.map((u) => u.error).join('; '));
      log('error', 'unreadable jobs set aside', { count: bad.length, error: outcome.unreadable[0].error });
    }
    // Only now, after the commit: a crash before this line delivers the batch again.
    await queue.ack(unreadable.size > 0 ? messages.filter((_, i) => !unreadable.has(i)) : messages);
    stats.batches += 1;
    stats.events += outcome.inserted;
    stats.duplicates += outcome.duplicates;
    if (outcome.alertDeliveryIds.length > 0 && options.alerts) {
      // Committed already: if this enqueue is lost, the dispatcher's sweeper queues them later.
      await options.alerts
        .enqueue(outcome.alertDeliveryIds.map(encodeAlertJob))
        .catch((err) =>
          log('warn', 'could not queue alert deliveries; the sweeper will', { error: (err as Error).message }),
        );
    }
  }

  return {
    stats,
    async stop() {
      stopping = true;
      await loop;
    },
  };
}

/** PGlite's DataSource has a pool of exactly one connection (core's openDatabase). */
function hasOneConnection(ds: DataSource): boolean {
  return (ds.options as { poolSize?: number }).poolSize === 1;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Lets pending I/O (a statement's result) be handled between slices of CPU work. */
function yieldToIo(): Promise<void> {
  return new Promise((r) => setImmediate(r));
}
