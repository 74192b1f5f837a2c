import { encodeJob, errorMessage, systemClock, type Clock } from '@tracker/core';
import type { Queue } from '../queue';
import type { IngestCounters } from './ingest-counters';

/** How often an edge queues what its inbound filters dropped: a flood costs a job per project and filter this often. */
export const FILTER_COUNT_FLUSH_MS = 5_000;

/**
 * Queues the drops `counters` summed since the last flush, one `filtered` job per project and
 * filter, for the worker to add to `inbound_filter_counts` (issue 31). Runs every
 * FILTER_COUNT_FLUSH_MS and once more when the edge closes (before the queue closes). A flush
 * that fails puts its counts back for the next one; the edge's answers never wait for it.
 */
export function startFilterCountFlush(
  counters: IngestCounters,
  queue: Queue,
  options: { clock?: Clock; intervalMs?: number; log?: (message: string, data: Record<string, unknown>) => void } = {},
): { flush(): Promise<void>; stop(): Promise<void> } {
  const clock = options.clock ?? systemClock;
  let running: Promise<void> | undefined;
  const flush = async (): Promise<void> => {
    if (running) await running;
    const counts = counters.takeFiltered();
    if (counts.length === 0) return;
    const now = new Date(clock());
    const receivedAt = now.toISOString();
    const day = receivedAt.slice(0, 10);
    const payloads = counts.map(({ projectId, filter, count }) =>
      encodeJob({ v: 1, kind: 'filtered', projectId, receivedAt, filtered: { filter, count, day } }),
    );
    running = queue.enqueue(payloads).then(
      () => undefined,
      (err: unknown) => {
        // Put them back: the next flush tries again.
        counters.putBackFiltered(counts);
        options.log?.('could not queue inbound filter counts; kept for the next try', { error: errorMessage(err) });
      },
    );
    await running;
    running = undefined;
  };
  const timer = setInterval(() => void flush(), options.intervalMs ?? FILTER_COUNT_FLUSH_MS);
  timer.unref();
  return {
    flush,
    async stop() {
      clearInterval(timer);
      await flush();
    },
  };
}
