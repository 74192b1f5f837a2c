import {
  errorMessage,
  claimAlertDelivery,
  markAttemptFailed,
  markDelivered,
  systemClock,
  takeDueAlertDeliveries,
  type ClaimedDelivery,
  type Clock,
  type SmtpConfig,
} from '@tracker/core';
import type { DataSource } from 'typeorm';
import {
  backoffDelayMs,
  BACKOFF_CAP_MS,
  deliverAlert,
  isDeliveryError,
  MAX_DELIVERY_ATTEMPTS,
  type AlertChannel,
  type AlertPayload,
} from '../alerts';
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
  /** Delay after failed attempt n; default `backoffDelayMs` (30 s doubling, capped at 1 h). */
  backoff?: (attempt: number) => number;
  timeoutMs?: number;
  /**
   * What the webhook signature's timestamp and a target's HTTP-date `Retry-After` are read
   * against (default the wall clock). When a delivery is due is the database's `now()`, one
   * clock for every dispatcher process.
   */
  clock?: Clock;
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
  const backoff = options.backoff ?? ((n: number) => backoffDelayMs(n));
  const log = options.log ?? (() => undefined);
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
    const ids = await takeDueAlertDeliveries(ds, REQUEUE_AFTER_MS);
    if (ids.length > 0) await queue.enqueue(ids.map(encodeAlertJob));
  }

  async function handle(message: QueueMessage): Promise<void> {
    const id = decodeAlertJob(message.payload);
    if (!id) {
      await queue.deadLetter([message], 'not an alert job');
      return;
    }
    const claimed = await claimAlertDelivery(ds, id, LEASE_MS);
    if (claimed) await attempt(claimed);
    // The outcome is in the table now; the message has done its job either way.
    await queue.ack([message]);
  }

  async function attempt(d: ClaimedDelivery): Promise<void> {
    try {
      const result = await deliverAlert(channelOf(d), payloadOf(d), {
        allowPrivateTargets: options.allowPrivateTargets,
        smtp: options.smtp,
        timeoutMs: options.timeoutMs,
        now: options.clock,
      });
      await markDelivered(ds, d.id, result.status ?? null, new Date((options.clock ?? systemClock)()));
      stats.delivered += 1;
    } catch (err) {
      stats.failedAttempts += 1;
      const retryable = isDeliveryError(err) ? err.retryable : true;
      const status = isDeliveryError(err) ? (err.status ?? null) : null;
      const giveUp = !retryable || d.attempts >= MAX_DELIVERY_ATTEMPTS;
      let retryInMs: number | null = null;
      if (!giveUp) {
        const hinted = isDeliveryError(err) && err.retryAfterMs ? Math.min(err.retryAfterMs, BACKOFF_CAP_MS) : 0;
        retryInMs = Math.max(backoff(d.attempts), hinted);
      }
      if (giveUp) stats.gaveUp += 1;
      await markAttemptFailed(ds, d.id, { error: errorMessage(err), status, retryInMs });
      log('warn', 'alert delivery failed', { id: d.id, attempt: d.attempts, retryInMs, error: errorMessage(err) });
    }
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

function channelOf(d: ClaimedDelivery): AlertChannel {
  if (d.channelType === 'EMAIL') return { type: 'EMAIL', email: d.email ?? '' };
  if (d.channelType === 'SLACK') return { type: 'SLACK', url: d.url ?? '' };
  return { type: 'WEBHOOK', url: d.url ?? '', secret: d.secret ?? '' };
}

function payloadOf(d: ClaimedDelivery): AlertPayload {
  return {
    ...(d.payload as Omit<AlertPayload, 'kind' | 'ruleId' | 'deliveryId' | 'triggeredAt'>),
    kind: d.kind,
    ruleId: d.ruleId,
    deliveryId: d.id,
    triggeredAt: d.createdAt.toISOString(),
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
