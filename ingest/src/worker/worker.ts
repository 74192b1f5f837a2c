import type { DataSource } from 'typeorm';
import { MAX_ATTEMPTS, type Queue, type QueueMessage } from '../queue';
import { errorMessage, isTransientError, type Clock, type EventSymbolicator, type UsageGiveBack } from '@tracker/core';
import { encodeAlertJob } from '../dispatch/alert-dispatcher';
import {
  emptyBatch,
  persistBatch,
  prepareJobs,
  processBatch,
  symbolicateBatch,
  type PreparedBatch,
} from './process-batch';
import { BatchSizer } from './batch-sizer';

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
  /**
   * Size batches so one transaction takes about this long (`batchSize` stays the most). Default
   * 20 ms on a one-connection database (PGlite), where the edge's writes wait for the worker's
   * transaction; off otherwise (a fixed `batchSize`). 0 switches it off.
   */
  transactionTargetMs?: number;
  /** Source maps for stack frames (the worker role passes one; benches and tests may not). */
  symbolicator?: EventSymbolicator;
  /** Where alert deliveries written by a batch are queued after its commit. */
  alerts?: Queue;
  /** Dashboard origin for links in alerts (read per batch: a test server learns its port late). */
  publicUrl?: () => string;
  /** The time alert rules read (windows, intervals, mutes, digests); default the wall clock. */
  clock?: Clock;
  log?: (level: 'info' | 'warn' | 'error', msg: string, data?: Record<string, unknown>) => void;
  /** Waits between retries of a batch through a database outage (default: 0.5 s doubling to 15 s). */
  transientBackoff?: (attempt: number) => number;
  /**
   * Gives back the quota units of events dropped because their issue is discarded (after the
   * commit); absent, the units stay counted (benches and tests that run no quota).
   */
  giveBackUsage?: UsageGiveBack;
}

/**
 * Where a worker failure happened, one counter each (`tracker_worker_failures_total{cause}`):
 * - `receive`: reading from the queue failed (an outage, or a queue error), nothing was in hand;
 * - `symbolication`: reading the source maps for a batch failed; the batch is then settled in parts;
 * - `batch`: a batch failed as a whole and was split in halves to find the culprits;
 * - `message`: one message failed on its own and goes back to the queue to be retried;
 * - `unreadable`: a payload that cannot be decoded, set aside at once;
 * - `dead_lettered`: a message that failed on its own on its last attempt, set aside.
 * A counter counts steps, not events: one bad event in a batch whose maps fail shows under
 * `symbolication`, then `batch` for each split, then `message` or `dead_lettered`.
 */
export type WorkerFailureCause = 'receive' | 'symbolication' | 'batch' | 'message' | 'unreadable' | 'dead_lettered';

export interface WorkerStats {
  batches: number;
  events: number;
  duplicates: number;
  /** Messages that failed on their own (retried later, or set aside after their last attempt). */
  failures: number;
  /** Retries of a batch, in hand, after a failure of the database or the network. */
  transientRetries: number;
  /** Batches redone with the issues locked first: a user action changed one of their issues meanwhile (decision 033). */
  relockedBatches: number;
  /** Messages this worker set aside as dead letters (unreadable, or failed on their last attempt). */
  deadLettered: number;
  /** Failures by where they happened, including those retried in hand. */
  failuresByCause: Record<WorkerFailureCause, number>;
  /** Events not stored, by reason (`discarded_issue`: their issue is discarded). */
  discardedByReason: Record<'discarded_issue', number>;
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
  /** Undefined when symbolication failed: the batch is then settled in parts (`settle`). */
  batch: PreparedBatch | undefined;
  error?: unknown;
}

/** A transaction this long holds back an edge request about as long, well inside a 100 ms p99. */
const DEFAULT_TRANSACTION_TARGET_MS = 20;

const defaultBackoff = (attempt: number) => Math.min(15_000, 500 * 2 ** attempt);

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
  const targetMs = options.transactionTargetMs ?? (hasOneConnection(ds) ? DEFAULT_TRANSACTION_TARGET_MS : 0);
  const sizer = targetMs > 0 ? new BatchSizer(batchSize, targetMs) : undefined;
  const context = () => ({
    symbolicator: options.symbolicator,
    publicUrl: options.publicUrl?.() ?? '',
    clock: options.clock,
  });
  const backoff = options.transientBackoff ?? defaultBackoff;
  const stats: WorkerStats = {
    batches: 0,
    events: 0,
    duplicates: 0,
    failures: 0,
    transientRetries: 0,
    relockedBatches: 0,
    deadLettered: 0,
    failuresByCause: { receive: 0, symbolication: 0, batch: 0, message: 0, unreadable: 0, dead_lettered: 0 },
    discardedByReason: { discarded_issue: 0 },
  };
  const byCause = stats.failuresByCause;
  let stopping = false;
  /** Cuts a back-off short when stop() is called (a SIGTERM must not wait out 15 s). */
  let wakeFromBackoff: () => void = () => undefined;
  const backoffSleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wakeFromBackoff = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const loop = (async () => {
    let next: Promise<Received | Error> | undefined = receive();
    while (next) {
      const received = await next;
      next = undefined;
      if (received instanceof Error) {
        // Nothing received, nothing at risk: wait and receive again.
        byCause.receive += 1;
        if (isTransientError(received)) stats.transientRetries += 1;
        else stats.failures += 1;
        log('warn', 'worker receive failed', { error: received.message });
        await sleep(500);
      } else {
        if (overlap && !stopping) next = receive();
        if (received.messages.length > 0) {
          try {
            await handle(received);
          } catch (err) {
            stats.failures += 1;
            byCause.batch += 1;
            log('error', 'worker batch failed', { error: errorMessage(err), size: received.messages.length });
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
      const messages = await queue.receive(sizer?.next() ?? batchSize, waitMs);
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
      } catch (error) {
        byCause.symbolication += 1;
        // A map could not be read: the database is down (retried in hand), or one event's
        // release or file name is one the query refuses (found and set aside by `settle`).
        // Never grouped on minified frames instead: that would split the issue for good.
        return { messages, batch: undefined, error };
      }
      return { messages, batch };
    } catch (err) {
      return err instanceof Error ? err : new Error(String(err));
    }
  }

  async function handle({ messages, batch, error }: Received): Promise<void> {
    if (batch) {
      try {
        await persistAndAck(messages, async () => {
          const started = performance.now();
          const outcome = await persistBatch(ds, batch, context());
          sizer?.record(messages.length, performance.now() - started);
          return outcome;
        });
        return;
      } catch (err) {
        error = err;
      }
    }
    await settle(messages, error);
  }

  /**
   * Stores every message of `messages` that can be stored, after `error` failed them as a whole.
   * A failure of the database or the network (`isTransientError`) is retried in hand, with
   * back-off, for as long as it lasts: it never counts an attempt nor sets anything aside. A
   * failure of the data is narrowed down by halves until each culprit is alone; only a message
   * that fails on its own is failed on the queue (retried later, a dead letter after its last
   * attempt) with its own error, and its batch mates are stored.
   */
  async function settle(messages: QueueMessage[], error: unknown): Promise<void> {
    for (let attempt = 0; isTransientError(error); attempt++) {
      if (stopping) throw error; // unacked: delivered again after the restart
      stats.transientRetries += 1;
      const delay = backoff(attempt);
      log('warn', 'database or queue unavailable; retrying the batch in hand', {
        error: errorMessage(error),
        size: messages.length,
        attempt: attempt + 1,
        retryInMs: delay,
      });
      await queue.extend(messages).catch(() => undefined);
      await backoffSleep(delay);
      if (stopping) throw error;
      try {
        await persistAndAck(messages, () => processBatch(ds, payloads(messages), context()));
        return;
      } catch (err) {
        error = err;
      }
    }
    if (messages.length === 1) {
      const [m] = messages;
      stats.failures += 1;
      const reason = errorMessage(error);
      if (m.attempts >= MAX_ATTEMPTS) {
        stats.deadLettered += 1;
        byCause.dead_lettered += 1;
      } else byCause.message += 1;
      log(
        m.attempts >= MAX_ATTEMPTS ? 'warn' : 'error',
        m.attempts >= MAX_ATTEMPTS ? 'message set aside as a dead letter' : 'message failed; retried later',
        {
          id: m.id,
          attempts: m.attempts,
          max: MAX_ATTEMPTS,
          error: reason,
        },
      );
      // Not acked if this fails too: the message comes back and is tried again.
      await queue
        .fail(messages, reason)
        .catch((err) => log('warn', 'could not record a failure', { error: errorMessage(err) }));
      return;
    }
    byCause.batch += 1;
    log('warn', 'batch failed; splitting it to find the messages that fail', {
      error: errorMessage(error),
      size: messages.length,
    });
    const half = Math.ceil(messages.length / 2);
    for (const part of [messages.slice(0, half), messages.slice(half)]) {
      try {
        await persistAndAck(part, () => processBatch(ds, payloads(part), context()));
      } catch (err) {
        await settle(part, err);
      }
    }
  }

  async function persistAndAck(
    messages: QueueMessage[],
    persist: () => ReturnType<typeof processBatch>,
  ): Promise<void> {
    const outcome = await persist();
    const unreadable = new Set(outcome.unreadable.map((u) => u.index));
    // Only now, after the commit: a crash before the ack delivers the batch again, and the
    // (project, eventId) uniqueness makes that delivery count nothing. A failed ack is the same
    // case, not a failure of the messages: they are not retried here nor split.
    try {
      if (unreadable.size > 0) {
        const bad = messages.filter((_, i) => unreadable.has(i));
        // Redelivery cannot fix an unreadable payload: straight to the dead letters.
        await queue.deadLetter(bad, outcome.unreadable.map((u) => u.error).join('; '));
        stats.deadLettered += bad.length;
        byCause.unreadable += bad.length;
        log('warn', 'unreadable jobs set aside as dead letters', {
          count: bad.length,
          error: outcome.unreadable[0].error,
        });
      }
      await queue.ack(unreadable.size > 0 ? messages.filter((_, i) => !unreadable.has(i)) : messages);
    } catch (err) {
      log('warn', 'ack failed after the commit; the batch will be delivered again and count nothing twice', {
        error: errorMessage(err),
      });
    }
    stats.batches += 1;
    if (outcome.relocked) stats.relockedBatches += 1;
    stats.events += outcome.inserted;
    stats.duplicates += outcome.duplicates;
    for (const usage of outcome.discarded) {
      stats.discardedByReason.discarded_issue += usage.count;
      // Committed: the drop is final, so its quota units go back. A crash before this line keeps
      // them counted (the safe side); a redelivery after it gives them back twice (rare; docs/quotas.md).
      await options
        .giveBackUsage?.(usage)
        .catch((err) => log('warn', 'could not give back the quota of discarded events', { error: errorMessage(err) }));
    }
    if (outcome.alertDeliveryIds.length > 0 && options.alerts) {
      // Committed already: if this enqueue is lost, the dispatcher's sweeper queues them later.
      await options.alerts
        .enqueue(outcome.alertDeliveryIds.map(encodeAlertJob))
        .catch((err) =>
          log('warn', 'could not queue alert deliveries; the sweeper will', { error: errorMessage(err) }),
        );
    }
  }

  return {
    stats,
    async stop() {
      stopping = true;
      wakeFromBackoff();
      await loop;
    },
  };
}

/** PGlite's DataSource has a pool of exactly one connection (core's openDatabase). */
function hasOneConnection(ds: DataSource): boolean {
  return (ds.options as { poolSize?: number }).poolSize === 1;
}

function payloads(messages: QueueMessage[]): string[] {
  return messages.map((m) => m.payload);
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Lets pending I/O (a statement's result) be handled between slices of CPU work. */
function yieldToIo(): Promise<void> {
  return new Promise((r) => setImmediate(r));
}
