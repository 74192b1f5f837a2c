import type { Config, Database } from '@tracker/core';
import type { Queue } from '@tracker/ingest';
import { createQueue } from '../create-queue';

/**
 * Where replayed dead letters go in a running server (the admin screen, the control socket):
 * the server's own queue of their topic, or, for a topic it has none of, one opened for the
 * replay and closed after it.
 */
export function createReplayEnqueue(
  config: Config,
  db: Database,
  queues: Record<string, Queue>,
): (topic: string, payloads: string[]) => Promise<void> {
  return async (topic, payloads) => {
    const known = Object.hasOwn(queues, topic) ? queues[topic] : undefined;
    if (known) return known.enqueue(payloads);
    const queue = await createQueue(config, db, {}, topic);
    try {
      await queue.enqueue(payloads);
    } finally {
      await queue.close();
    }
  };
}
