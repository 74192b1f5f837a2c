import {
  errorMessage,
  claimAlertDelivery,
  markAttemptFailed,
  markDelivered,
  systemClock,
  takeDueAlertDeliveries,
  type AlertSender,
  type ClaimedDelivery,
  type Clock,
  type SmtpConfig,
} from '@tracker/core';
import type { DataSource } from 'typeorm';
import { createAlertSender, nextRetryAt } from '../alerts';
import type { Queue, QueueMessage } from '../queue';

export interface AlertDispatcherOptions {
  ds: DataSource;
  /** The alerts queue (its own stream/topic: a slow webhook must never hold up events). */
  queue: Queue;
  allowPrivateTargets: boolean;
  smtp?: SmtpConfig;
  /** Deliveries in flight at once. */
  concurrency?: number;
  /** How often due retries and lost messages are looked for. */
  sweepMs?: number;
  /** Delay after failed attempt n; default `backoffDelayMs` (30 s doubling with jitter), cut short at the hour. */
  backoff?: (attempt: number) => number;
  timeoutMs?: number;
  /**
   * The dispatcher's time (default the wall clock): when a retry is due and when the hour of
   * retries ends, the webhook signature's timestamp and a target's HTTP-date `Retry-After`
   * (decision 027). Tests move it to prove the retries and the give-up without waiting.
   */
  clock?: Clock;
  /** The channel code; default `createAlertSender` with the options above. */
  send?: AlertSender;
  log?: (level: 'info' | 'warn' | 'error', msg: string, data?: Record<string, unknown>) => void;
}

export interface RunningDispatcher {
  readonly stats: { delivered: number; failedAttempts: number; gaveUp: number };
  stop(): Promise<void>;
}

/** How long a claimed delivery is ours before a sweeper may hand it to someone else. */
const LEASE_MS = 5 * 60_000;
/** A queued delivery not picked up this long is queued again (its message was lost). */
const REQUEUE_AFTER_MS = 60_000;

/** The queue message for a delivery. Versioned like the event jobs. */
export function encodeAlertJob(deliveryId: string): string {
  return JSON.stringify({ v: 1, kind: 'alert', deliveryId });
}

function decodeAlertJob(payload: string): string | null {
  try {
    const job = JSON.parse(payload) as { v?: unknown; kind?: unknown; deliveryId?: unknown };
    return job.v === 1 && job.kind === 'alert' && typeof job.deliveryId === 'string' ? job.deliveryId : null;
  } catch {
    return null;
  }
}

/**
 * Sends alert deliveries written by the worker (the outbox in `alert_deliveries`). Runs beside
 * the event worker, on its own queue, with its own concurrency: delivering never blocks event
 * processing. Each attempt is recorded (status, attempts, last error); a failed one is retried
 * with back-off by the sweeper, which also re-queues deliveries whose message was lost.
 */
export function startAlertDispatcher(options: AlertDispatcherOptions): RunningDispatcher {
  const { ds, queue } = options;
  const concurrency = options.concurrency ?? 8;
  const sweepMs = options.sweepMs ?? 5_000;
  const backoff = options.backoff;
  const clock = options.clock ?? systemClock;
  const log = options.log ?? (() => undefined);
  const send =
    options.send ??
    createAlertSender({
      allowPrivateTargets: options.allowPrivateTargets,
      smtp: options.smtp,
      timeoutMs: options.timeoutMs,
      clock,
      log,
    });
  const stats = { delivered: 0, failedAttempts: 0, gaveUp: 0 };
  let stopping = false;

  const loop = (async () => {
    while (!stopping) {
      try {
        const messages = await queue.receive(concurrency, 1_000);
        if (messages.length > 0) await Promise.all(messages.map(handle));
      } catch (err) {
        log('error', 'alert dispatcher receive failed', { error: errorMessage(err) });
        await sleep(1_000);
      }
    }
  })();

  let sweeping: Promise<void> = Promise.resolve();
  const sweeper = setInterval(() => {
    sweeping = sweep().catch((err) => log('error', 'alert sweep failed', { error: errorMessage(err) }));
  }, sweepMs);
  sweeper.unref();

  async function sweep(): Promise<void> {
    const ids = await takeDueAlertDeliveries(ds, REQUEUE_AFTER_MS, clock());
    if (ids.length > 0) await queue.enqueue(ids.map(encodeAlertJob));
  }

  async function handle(message: QueueMessage): Promise<void> {
    const id = decodeAlertJob(message.payload);
    if (!id) {
      await queue.deadLetter([message], 'not an alert job');
      return;
    }
    const claimed = await claimAlertDelivery(ds, id, LEASE_MS, clock());
    if (claimed) await attempt(claimed);
    // The outcome is in the table now; the message has done its job either way.
    await queue.ack([message]);
  }

  async function attempt(d: ClaimedDelivery): Promise<void> {
    const outcome = await send(d);
    const now = clock();
    if (outcome.ok) {
      await markDelivered(ds, d.id, outcome, now);
      stats.delivered += 1;
      return;
    }
    stats.failedAttempts += 1;
    const retryAt = outcome.retryable
      ? nextRetryAt({
          attempt: d.attempts,
          firstAttemptAt: d.firstAttemptAt.getTime(),
          now,
          retryAfterMs: outcome.retryAfterMs,
          backoff,
        })
      : null;
    if (retryAt === null) stats.gaveUp += 1;
    const error =
      retryAt === null && outcome.retryable
        ? `${outcome.error ?? 'The attempt failed.'} Gave up after ${d.attempts} attempts over an hour.`.replace(
            ' Tracker will try again.',
            '',
          )
        : (outcome.error ?? 'The attempt failed.');
    await markAttemptFailed(ds, d.id, { error, status: outcome.status, response: outcome.response, retryAt });
    log('warn', 'alert delivery failed', { id: d.id, attempt: d.attempts, retryAt, error });
  }

  return {
    stats,
    async stop() {
      stopping = true;
      clearInterval(sweeper);
      await Promise.all([loop, sweeping]);
    },
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
