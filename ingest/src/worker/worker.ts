import type { DataSource } from 'typeorm';
import { MAX_ATTEMPTS, type Queue, type QueueMessage } from '../queue';
import { processBatch } from './process-batch';

export interface WorkerOptions {
  ds: DataSource;
  queue: Queue;
  batchSize: number;
  /** How long one receive waits for work before looping (and noticing a stop). */
  waitMs?: number;
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
 * Drains the queue in batches until stopped. A batch is acked only after its transaction
 * commits; if the process dies in between, the batch is delivered again and the
 * (project, eventId) uniqueness makes the second delivery count nothing.
 */
export function startWorker(options: WorkerOptions): RunningWorker {
  const { ds, queue, batchSize } = options;
  const waitMs = options.waitMs ?? 1_000;
  const log = options.log ?? (() => undefined);
  const stats: WorkerStats = { batches: 0, events: 0, duplicates: 0, failures: 0 };
  let stopping = false;

  const loop = (async () => {
    while (!stopping) {
      let messages: QueueMessage[] = [];
      try {
        messages = await queue.receive(batchSize, waitMs);
        if (messages.length === 0) continue;
        await handle(messages);
      } catch (err) {
        stats.failures += 1;
        log('error', 'worker batch failed', { error: (err as Error).message, size: messages.length });
        await sleep(500);
      }
    }
  })();

  async function handle(messages: QueueMessage[]): Promise<void> {
    try {
      await processAndAck(messages);
    } catch (err) {
      if (messages.length === 1) {
        await queue.fail(messages, (err as Error).message);
        throw err;
      }
      // One bad message must not hold back the others: retry one by one to isolate it.
      log('warn', 'batch failed; retrying its messages one by one', { error: (err as Error).message });
      for (const m of messages) {
        try {
          await processAndAck([m]);
        } catch (single) {
          stats.failures += 1;
          await queue.fail([m], (single as Error).message);
          log('error', 'message failed', { id: m.id, attempts: m.attempts, max: MAX_ATTEMPTS });
        }
      }
    }
  }

  async function processAndAck(messages: QueueMessage[]): Promise<void> {
    const outcome = await processBatch(
      ds,
      messages.map((m) => m.payload),
    );
    const unreadable = new Set(outcome.unreadable.map((u) => u.index));
    if (unreadable.size > 0) {
      const bad = messages.filter((_, i) => unreadable.has(i));
      // Redelivery cannot fix an unreadable payload: straight to the dead letters.
      await queue.deadLetter(bad, outcome.unreadable.map((u) => u.error).join('; '));
      log('error', 'unreadable jobs set aside', { count: bad.length, error: outcome.unreadable[0].error });
    }
    await queue.ack(messages.filter((_, i) => !unreadable.has(i)));
    stats.batches += 1;
    stats.events += outcome.inserted;
    stats.duplicates += outcome.duplicates;
  }

  return {
    stats,
    async stop() {
      stopping = true;
      await loop;
    },
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
