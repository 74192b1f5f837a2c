import {
  secondsUntilPeriodEnd,
  systemClock,
  type AppError,
  type Clock,
  type KeyInfo,
  type UsageMeter,
} from '@tracker/core';
import type { DataSource } from 'typeorm';
import type { Counter } from './counter';
import { FailOpenWaits } from './fail-open';
import { AdmissionRefusal, type IngestGate, type IngestGateOptions } from './ingest-gate';
import { Lease } from './lease';
import { Periods } from './periods';
import { PlanLimits, type Limits } from './plan-limits';

/** Beyond this many leases, idle ones are released and forgotten: keys and organizations churn. */
const MAX_LEASES = 100_000;

/** The Redis count outlives its month by a day, for whoever looks at it after the reset. */
const MONTH_COUNT_GRACE_SECONDS = 86_400;

/** Joins the counter, the plan limits and the leases into the edge's admission check. */
export class Gate implements IngestGate {
  /**
   * Leases by meter (`rate` for a key's per-second count), then subject: the per-request lookup
   * uses the key's and the organization's id strings as they are (their hashes are cached by
   * V8) instead of building and hashing a `meter:subject` string for every request.
   */
  private readonly leases = {
    rate: new Map<string, Lease>(),
    events: new Map<string, Lease>(),
    logs: new Map<string, Lease>(),
  };
  private readonly periods = new Periods();
  private readonly clock: Clock;
  private readonly limits: PlanLimits;
  private readonly waits: FailOpenWaits;
  private readonly failOpenMs: number;
  private readonly maxBlock: number;
  private readonly idleReleaseMs: number;
  private readonly exhaustedRecheckMs: number;
  private releaser: NodeJS.Timeout | undefined;

  constructor(
    ds: DataSource,
    private readonly counter: Counter,
    options: IngestGateOptions,
  ) {
    this.clock = options.clock ?? systemClock;
    this.failOpenMs = options.failOpenMs ?? 500;
    this.maxBlock = Math.max(1, options.maxBlock ?? 256);
    this.idleReleaseMs = options.idleReleaseMs ?? 2_000;
    this.exhaustedRecheckMs = options.exhaustedRecheckMs ?? 1_000;
    this.limits = new PlanLimits(ds, this.clock, options.planTtlMs ?? 5_000, {
      events: options.eventLimitOverride,
      logs: options.logLimitOverride,
    });
    this.waits = new FailOpenWaits(this.clock, this.failOpenMs);
  }

  admit(key: KeyInfo, meter: UsageMeter | null): void | Promise<void> {
    if (key.rateLimitPerSecond !== null) {
      const limit = key.rateLimitPerSecond;
      const rated = this.take(
        this.leaseOf(null, key.keyId, this.periods.secondOf(this.clock())),
        limit,
        () => new AdmissionRefusal(`rate limit of ${limit} events per second exceeded for this key`, 1, 'key'),
      );
      if (rated instanceof Promise)
        return meter === null ? rated : rated.then(() => this.checkQuota(key.organizationId, meter));
    }
    if (meter === null) return;
    return this.checkQuota(key.organizationId, meter);
  }

  /** Takes one unit of the organization's `meter`: synchronously when this process holds some. */
  private checkQuota(organizationId: string, meter: UsageMeter): void | Promise<void> {
    const limits = this.limits.of(organizationId);
    if (limits instanceof Promise) return limits.then((l) => this.takeQuota(organizationId, meter, l));
    return this.takeQuota(organizationId, meter, limits);
  }

  private takeQuota(organizationId: string, meter: UsageMeter, limits: Limits | null): void | Promise<void> {
    if (limits === null) return; // the organization is gone; the worker drops what it cannot place
    const limit = limits[meter];
    const lease = this.leaseOf(meter, organizationId, this.periods.monthOf(this.clock()));
    return this.take(lease, limit, () => {
      const what =
        meter === 'logs' ? `monthly log quota of ${limit} entries` : `monthly event quota of ${limit} events`;
      return new AdmissionRefusal(
        `${what} reached; it resets at the start of next month (UTC)`,
        secondsUntilPeriodEnd(new Date(this.clock())),
        meter,
      );
    });
  }

  private take(lease: Lease, limit: number, refusal: () => AppError): void | Promise<void> {
    const now = this.clock();
    if (lease.takeOne(now)) {
      // Ask for the next block while half of this one is left, so that requests do not queue
      // behind a round trip each time a block runs out (they did: p99 rose ~4×, measured).
      if (lease.wantsPrefetch(limit, now)) {
        const pending = this.reserve(lease, limit).finally(() => (lease.pending = undefined));
        lease.asked(pending, now);
        pending.catch(() => undefined); // a failed prefetch is retried by the next request that needs it
      }
      return;
    }
    if (lease.exhausted(limit, now)) throw refusal();
    return this.takeAfterReserve(lease, limit, refusal);
  }

  private async takeAfterReserve(lease: Lease, limit: number, refusal: () => AppError): Promise<void> {
    lease.waiters += 1;
    try {
      // Each round either adds to the shared count (which stops at the limit) or learns that the
      // limit is reached, so this ends; a round comes up empty only when waiters that asked
      // earlier took the whole block.
      for (;;) {
        // A count outstanding for longer than the fail-open wait: the counter is stuck, and
        // every request waiting out the full wait would stall the edge for as long. Unless the
        // event loop itself stalled (a long GC, a long synchronous task): then the answer may be
        // in the socket, unread, so let I/O in once (setImmediate runs after the loop's poll
        // phase) before admitting uncounted, as FailOpenWaits.sweep does for its deadlines.
        if (lease.stuck(this.clock(), this.failOpenMs)) {
          await new Promise<void>((resolve) => setImmediate(resolve));
          const now = this.clock();
          if (lease.takeOne(now)) return;
          if (lease.exhausted(limit, now)) throw refusal();
          if (lease.stuck(now, this.failOpenMs)) return;
          continue; // answered with no unit left for this request: ask again
        }
        let pending = lease.pending;
        if (!pending) {
          pending = this.reserve(lease, limit).finally(() => (lease.pending = undefined));
          lease.asked(pending, this.clock());
        }
        const answered = await this.waits.bound(
          pending.then(() => true),
          false,
        );
        if (!answered) return; // the counter is slow: admit uncounted (fail open)
        const now = this.clock();
        if (lease.takeOne(now)) return;
        if (lease.exhausted(limit, now)) throw refusal();
      }
    } finally {
      lease.waiters -= 1;
    }
  }

  private async reserve(lease: Lease, limit: number): Promise<void> {
    const now = this.clock();
    const want = lease.nextWant(limit, this.maxBlock, now);
    const period = lease.period;
    const answer =
      lease.meter === null
        ? await this.counter.reserveRate(lease.subject, period, limit, want)
        : await this.counter.reserve(
            lease.subject,
            lease.meter,
            period,
            limit,
            want,
            secondsUntilPeriodEnd(new Date(now)) + MONTH_COUNT_GRACE_SECONDS,
          );
    const granted = lease.received(period, answer, limit, this.clock(), this.exhaustedRecheckMs);
    if (granted && lease.meter !== null) {
      this.releaser ??= setInterval(() => void this.releaseIdle(false), Math.max(100, this.idleReleaseMs / 2)).unref();
    }
  }

  private leaseOf(meter: UsageMeter | null, subject: string, period: string): Lease {
    const index = this.leases[meter ?? 'rate'];
    let lease = index.get(subject);
    if (!lease) {
      if (this.leaseCount() >= MAX_LEASES) void this.releaseIdle(true, true);
      lease = new Lease(meter, subject);
      index.set(subject, lease);
    }
    if (lease.period !== period) lease.turn(period);
    return lease;
  }

  private leaseCount(): number {
    return this.leases.rate.size + this.leases.events.size + this.leases.logs.size;
  }

  private *allLeases(): Iterable<Lease> {
    yield* this.leases.rate.values();
    yield* this.leases.events.values();
    yield* this.leases.logs.values();
  }

  /** Gives back the monthly units idle leases hold (all of them with `all`); `forget` drops the leases. */
  private releaseIdle(all: boolean, forget = false): Promise<void> {
    const cutoff = this.clock() - this.idleReleaseMs;
    const returns: Promise<void>[] = [];
    for (const lease of this.allLeases()) {
      if (lease.pending) continue;
      if (lease.meter !== null && lease.idle(all, cutoff)) {
        returns.push(
          // Best effort: at worst those units stay counted this month.
          this.counter.release(lease.subject, lease.meter, lease.period, lease.surrender()).catch(() => undefined),
        );
      }
      if (forget) this.leases[lease.meter ?? 'rate'].delete(lease.subject);
    }
    return Promise.all(returns).then(() => undefined);
  }

  async close(): Promise<void> {
    if (this.releaser) clearInterval(this.releaser);
    this.releaser = undefined;
    this.waits.close();
    await Promise.all([...this.allLeases()].map((l) => l.pending?.catch(() => undefined)));
    await this.releaseIdle(true, true);
    await this.counter.close();
  }
}
