/** A delivered message; `attempts` counts deliveries including this one. */
export interface QueueMessage {
  id: string;
  payload: string;
  attempts: number;
}

/**
 * What an edge enqueues: JSON text, or the same text as UTF-8 bytes (the fast path hands over
 * the request body's bytes without decoding them again). Delivered messages are always text.
 */
export type QueuePayload = string | Buffer;

/**
 * The one seam between the ingest edge and the worker. Two backends implement it: Redis
 * streams (production) and a table in the database (embedded mode). Both are at-least-once:
 * a message is delivered again until acked, so the consumer must be idempotent.
 */
export interface Queue {
  readonly kind: 'redis' | 'database';
  /** Resolves once the payloads are stored durably enough to answer 202. */
  enqueue(payloads: QueuePayload[]): Promise<void>;
  /**
   * Up to `max` messages, waiting at most `waitMs` for the first. Messages whose consumer
   * died are delivered again here once they have been idle long enough.
   */
  receive(max: number, waitMs: number): Promise<QueueMessage[]>;
  /** Call only after the effects of the messages are committed. */
  ack(messages: QueueMessage[]): Promise<void>;
  /**
   * Processing failed because of the message itself: it is retried later (with back-off) and
   * moved to the dead letters (the `dead_letters` table) after MAX_ATTEMPTS. Never call it for
   * a failure of the database or the network: those are retried by the worker, in hand.
   */
  fail(messages: QueueMessage[], error: string): Promise<void>;
  /** Sets messages aside for good (a payload no retry can fix) in the `dead_letters` table. */
  deadLetter(messages: QueueMessage[], error: string): Promise<void>;
  /**
   * Keeps messages in hand a while longer (the worker is retrying them through a database
   * outage): no other consumer takes them over and no delivery is counted.
   */
  extend(messages: QueueMessage[]): Promise<void>;
  /**
   * Throws `AppError('UNAVAILABLE')` (503 with `Retry-After`) when the backlog is over its bound
   * (docs/reliability.md, "Overload"). Synchronous and free of I/O: the edge calls it before the
   * quota gate, so a refused request spends nothing. Queues without a bound leave it out.
   * `items` is what the request would enqueue (default 1): a request that would take the backlog
   * past the bound is refused whole.
   */
  checkBacklog?(items?: number): void;
  /** Messages waiting, for /readyz and operators. */
  depth(): Promise<number>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Deliveries before a message is moved aside as dead (failures, or deliveries never acked). */
export const MAX_ATTEMPTS = 5;
