import {
  AppError,
  findOrganizationLimits,
  quotaPeriod,
  releaseOrganizationUsage,
  reserveOrganizationUsage,
  secondsUntilPeriodEnd,
  usageRedisKey,
  type KeyInfo,
  type UsageMeter,
} from '@tracker/core';
import type { DataSource } from 'typeorm';
import { createRecycler, createRedisClient, recycleOnTimeout, type Recycler } from '../queue/redis-client';

/**
 * The ingest edge's admission check (DESIGN §6): the key's events-per-second limit, then the
 * organization's monthly quota of the request's meter (`events` for errors, messages and vitals;
 * `logs` for log entries; `null` for what is never counted, such as feedback). Throws
 * `RATE_LIMITED` (429 with `Retry-After`) and consumes nothing when it refuses. Answers
 * synchronously (no promise) whenever it can decide from what this process holds, which is
 * almost every request once traffic flows: see `Lease`.
 */
export interface IngestGate {
  admit(key: KeyInfo, meter: UsageMeter | null): void | Promise<void>;
  close(): Promise<void>;
}

/**
 * A refusal of the gate: which limit refused (the key's per-second rate, or the organization's
 * monthly quota of a meter), so that an edge speaking another protocol can name it (Sentry's
 * `X-Sentry-Rate-Limits`, ingest/src/sentry/rate-limits.ts). A RATE_LIMITED AppError like any other.
 */
export class AdmissionRefusal extends AppError {
  constructor(
    message: string,
    retryAfter: number,
    readonly limit: 'key' | UsageMeter,
  ) {
    super('RATE_LIMITED', message, retryAfter);
  }
}

/** Where the counts live: Redis (shared by every ingest process) or the database (embedded). */
interface Counter {
  /**
   * Adds up to `want` to the organization's count of `meter` in `period` without passing
   * `limit`; answers how much it added and the count after.
   */
  reserve(
    organizationId: string,
    meter: UsageMeter,
    period: string,
    limit: number,
    want: number,
    ttlSeconds: number,
  ): Promise<{ granted: number; used: number }>;
  /** Takes back reserved units this process will not use. */
  release(organizationId: string, meter: UsageMeter, period: string, units: number): Promise<void>;
  /** As `reserve`, for a key's count in one second (`second`: epoch seconds). */
  reserveRate(keyId: string, second: string, limit: number, want: number): Promise<{ granted: number; used: number }>;
  close(): Promise<void>;
}

export interface IngestGateOptions {
  /** How long an organization's limits are trusted (default 5 s, so a plan change applies within 10 s). */
  planTtlMs?: number;
  /** Tests: the event limit for every organization instead of its plan's. */
  eventLimitOverride?: number;
  /** Tests: the log limit for every organization instead of its plan's. */
  logLimitOverride?: number;
  /**
   * How long a count may take before the request is admitted uncounted (default 500 ms): a slow
   * counter degrades to "accept", never to a stalled edge. Once a count has been outstanding
   * this long, later requests do not wait for it at all. Errors still fail the request.
   */
  failOpenMs?: number;
  /** Largest block of quota one process reserves at a time (default 256). */
  maxBlock?: number;
  /** Unused reserved units go back to the shared count after this long without use (default 2 s). */
  idleReleaseMs?: number;
  /** After the count says "limit reached", refuse locally for this long before asking again (default 1 s). */
  exhaustedRecheckMs?: number;
  now?: () => Date;
}

type Limits = { events: number; logs: number };

/**
 * This process's share of one shared count: an organization's monthly count of one meter, or a
 * key's count for the current second. Asking the shared counter for every event costs a round
 * trip and a Lua call each (measured: a quarter of the edge's CPU per request), so the edge
 * reserves a block and hands it out locally:
 *
 * - The block starts at 1 and doubles while blocks are used up within a second, halving when
 *   they last longer, so a quiet organization holds little and a busy one asks rarely; it is at
 *   least the number of requests waiting for it, and at most `maxBlock`.
 * - It is never more than 1/32 of what is left under the limit, so near the limit blocks shrink
 *   to single units and units stranded in an idle process are few. Monthly units go back to the
 *   shared count after `idleReleaseMs` without use (and on close), where other processes can
 *   take them; a second's units simply lapse with the second.
 * - The shared count never passes the limit, so the processes together never admit more than
 *   the limit; they may admit a little less while another process still holds units.
 * - The next block is asked for while half of the current one is left (prefetch), so a steady
 *   flow almost never waits for Redis.
 * - "Limit reached" is remembered for `exhaustedRecheckMs` (or until the period turns), so
 *   refusals cost no round trip; a raised limit (plan change) asks again at once.
 */
class Lease {
  period = '';
  remaining = 0;
  block = 1;
  lastUse = 0;
  reservedAt = 0;
  /** The shared count after our last reservation: how much was left then. */
  usedAfterReserve = 0;
  exhaustedUntil = 0;
  exhaustedAtLimit = -1;
  /** Requests waiting for this lease's next block: the block is at least this big. */
  waiters = 0;
  pending: Promise<void> | undefined;
  /** When `pending` was asked for. */
  pendingSince = 0;

  constructor(
    /** `null` for a key's per-second rate window. */
    readonly meter: UsageMeter | null,
    /** The organization (quota) or the key (rate). */
    readonly subject: string,
  ) {}

  /** Starts a new period: whatever was held belonged to the last one, which is over. */
  turn(period: string): void {
    this.period = period;
    this.remaining = 0;
    this.usedAfterReserve = 0;
    this.exhaustedUntil = 0;
  }

  exhausted(limit: number): boolean {
    return this.exhaustedUntil > Date.now() && this.exhaustedAtLimit >= limit;
  }

  /** One unit from what this process holds, if it holds any. */
  takeOne(): boolean {
    if (this.remaining <= 0) return false;
    this.remaining -= 1;
    this.lastUse = Date.now();
    return true;
  }
}

class Gate implements IngestGate {
  private readonly limits = new Map<string, { limits: Limits | null; expires: number }>();
  private readonly inflight = new Map<string, Promise<Limits | null>>();
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
  /** The current second and month as period strings, rebuilt only when they turn. */
  private second = { value: -1, key: '' };
  private month = { from: 0, until: -1, key: '' };
  private readonly planTtlMs: number;
  private readonly now: () => Date;
  private readonly failOpenMs: number;
  private readonly maxBlock: number;
  private readonly idleReleaseMs: number;
  private readonly exhaustedRecheckMs: number;
  /** Counts in flight and when they give up; one sweeping timer for all of them, not one each. */
  private readonly waiting = new Map<object, { deadline: number; admit: () => void }>();
  private sweeper: NodeJS.Timeout | undefined;
  private releaser: NodeJS.Timeout | undefined;

  constructor(
    private readonly ds: DataSource,
    private readonly counter: Counter,
    private readonly options: IngestGateOptions,
  ) {
    this.planTtlMs = options.planTtlMs ?? 5_000;
    this.now = options.now ?? (() => new Date());
    this.failOpenMs = options.failOpenMs ?? 500;
    this.maxBlock = Math.max(1, options.maxBlock ?? 256);
    this.idleReleaseMs = options.idleReleaseMs ?? 2_000;
    this.exhaustedRecheckMs = options.exhaustedRecheckMs ?? 1_000;
  }

  admit(key: KeyInfo, meter: UsageMeter | null): void | Promise<void> {
    if (key.rateLimitPerSecond !== null) {
      const limit = key.rateLimitPerSecond;
      const rated = this.take(
        this.leaseOf(null, key.keyId, this.secondKey(this.now().getTime())),
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
    const limits = this.limitsOf(organizationId);
    if (limits instanceof Promise) return limits.then((l) => this.takeQuota(organizationId, meter, l));
    return this.takeQuota(organizationId, meter, limits);
  }

  private takeQuota(organizationId: string, meter: UsageMeter, limits: Limits | null): void | Promise<void> {
    if (limits === null) return; // the organization is gone; the worker drops what it cannot place
    const limit = limits[meter];
    const lease = this.leaseOf(meter, organizationId, this.monthKey(this.now()));
    return this.take(lease, limit, () => {
      const what =
        meter === 'logs' ? `monthly log quota of ${limit} entries` : `monthly event quota of ${limit} events`;
      return new AdmissionRefusal(
        `${what} reached; it resets at the start of next month (UTC)`,
        secondsUntilPeriodEnd(this.now()),
        meter,
      );
    });
  }

  private take(lease: Lease, limit: number, refusal: () => AppError): void | Promise<void> {
    if (lease.takeOne()) {
      // Ask for the next block while half of this one is left, so that requests do not queue
      // behind a round trip each time a block runs out (they did: p99 rose ~4×, measured).
      if (lease.remaining * 2 < lease.block && lease.pending === undefined && !lease.exhausted(limit)) {
        lease.pending = this.reserve(lease, limit).finally(() => (lease.pending = undefined));
        lease.pendingSince = Date.now();
        lease.pending.catch(() => undefined); // a failed prefetch is retried by the next request that needs it
      }
      return;
    }
    if (lease.exhausted(limit)) throw refusal();
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
        // every request waiting out the full wait would stall the edge for as long.
        if (lease.pending && Date.now() - lease.pendingSince >= this.failOpenMs) return;
        if (!lease.pending) {
          lease.pending = this.reserve(lease, limit).finally(() => (lease.pending = undefined));
          lease.pendingSince = Date.now();
        }
        const answered = await this.bounded(
          lease.pending.then(() => true),
          false,
        );
        if (!answered) return; // the counter is slow: admit uncounted (fail open)
        if (lease.takeOne()) return;
        if (lease.exhausted(limit)) throw refusal();
      }
    } finally {
      lease.waiters -= 1;
    }
  }

  private async reserve(lease: Lease, limit: number): Promise<void> {
    const now = Date.now();
    // Grow the block while blocks run out within a second; shrink it when they last longer.
    if (lease.reservedAt > 0)
      lease.block = now - lease.reservedAt < 1_000 ? lease.block * 2 : Math.ceil(lease.block / 2);
    lease.block = Math.min(Math.max(lease.block, lease.waiters), this.maxBlock);
    const left = Math.max(0, limit - lease.usedAfterReserve);
    const want = Math.max(1, Math.min(lease.block, Math.floor(left / 32)));
    const period = lease.period;
    const { granted, used } =
      lease.meter === null
        ? await this.counter.reserveRate(lease.subject, period, limit, want)
        : // The Redis count outlives its month by a day, for whoever looks at it after the reset.
          await this.counter.reserve(
            lease.subject,
            lease.meter,
            period,
            limit,
            want,
            secondsUntilPeriodEnd(this.now()) + 86_400,
          );
    if (lease.period !== period) return; // the period turned while we asked: these units are void
    lease.reservedAt = Date.now();
    lease.usedAfterReserve = used;
    lease.remaining += granted;
    if (granted === 0) {
      lease.exhaustedUntil = Date.now() + this.exhaustedRecheckMs;
      lease.exhaustedAtLimit = limit;
    } else {
      lease.exhaustedUntil = 0;
      if (lease.meter !== null) {
        this.releaser ??= setInterval(
          () => void this.releaseIdle(false),
          Math.max(100, this.idleReleaseMs / 2),
        ).unref();
      }
    }
  }

  private leaseOf(meter: UsageMeter | null, subject: string, period: string): Lease {
    const index = this.leases[meter ?? 'rate'];
    let lease = index.get(subject);
    if (!lease) {
      if (this.leaseCount() >= 100_000) void this.releaseIdle(true, true);
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

  /** Epoch seconds as a string, the rate limit's period. */
  private secondKey(ms: number): string {
    const value = Math.floor(ms / 1000);
    if (value !== this.second.value) this.second = { value, key: String(value) };
    return this.second.key;
  }

  /** The UTC month as `quotaPeriod` names it, the monthly quota's period. */
  private monthKey(now: Date): string {
    const ms = now.getTime();
    if (ms < this.month.from || ms >= this.month.until) {
      const from = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
      this.month = { from, until: Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1), key: quotaPeriod(now) };
    }
    return this.month.key;
  }

  /** Gives back the monthly units idle leases hold (all of them with `all`); `forget` drops the leases. */
  private releaseIdle(all: boolean, forget = false): Promise<void> {
    const cutoff = Date.now() - this.idleReleaseMs;
    const returns: Promise<void>[] = [];
    for (const lease of this.allLeases()) {
      if (lease.pending) continue;
      if (lease.meter !== null && lease.remaining > 0 && (all || lease.lastUse < cutoff)) {
        const units = lease.remaining;
        lease.remaining = 0;
        lease.block = 1;
        lease.reservedAt = 0;
        returns.push(
          // Best effort: at worst those units stay counted this month.
          this.counter.release(lease.subject, lease.meter, lease.period, units).catch(() => undefined),
        );
      }
      if (forget) {
        this.leases[lease.meter ?? 'rate'].delete(lease.subject);
      }
    }
    return Promise.all(returns).then(() => undefined);
  }

  /** The counter's answer, or `onTimeout` if it has not come within `failOpenMs`. */
  private bounded(answer: boolean | Promise<boolean>, onTimeout: boolean): boolean | Promise<boolean> {
    if (typeof answer === 'boolean') return answer;
    return new Promise<boolean>((resolve, reject) => {
      const token = {};
      this.waiting.set(token, { deadline: Date.now() + this.failOpenMs, admit: () => resolve(onTimeout) });
      answer.then(resolve, reject).finally(() => this.waiting.delete(token));
      this.sweeper ??= setInterval(() => this.sweep(), Math.max(10, Math.min(100, this.failOpenMs / 4))).unref();
    });
  }

  private sweep(): void {
    const now = Date.now();
    for (const [token, w] of this.waiting) {
      if (w.deadline <= now) {
        this.waiting.delete(token);
        w.admit();
      }
    }
    if (this.waiting.size === 0 && this.sweeper) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  }

  private limitsOf(organizationId: string): Limits | null | Promise<Limits | null> {
    const hit = this.limits.get(organizationId);
    if (hit && hit.expires > Date.now()) return hit.limits;
    const pending = this.refresh(organizationId);
    // An expired entry is still served while its refresh runs: no request waits on the
    // database in the steady state, and the refresh lands well within the 10 s promise.
    return hit ? hit.limits : pending;
  }

  private refresh(organizationId: string): Promise<Limits | null> {
    let pending = this.inflight.get(organizationId);
    if (!pending) {
      pending = findOrganizationLimits(this.ds, organizationId)
        .then((found) => {
          const limits = found && {
            events: this.options.eventLimitOverride ?? found.events,
            logs: this.options.logLimitOverride ?? found.logs,
          };
          if (this.limits.size >= 50_000) this.limits.clear();
          this.limits.set(organizationId, { limits, expires: Date.now() + this.planTtlMs });
          return limits;
        })
        .finally(() => this.inflight.delete(organizationId));
      this.inflight.set(organizationId, pending);
      // A background refresh that fails must not be an unhandled rejection; whoever awaits it
      // still sees the error, and the stale entry is retried on the next request.
      pending.catch(() => undefined);
    }
    return pending;
  }

  async close(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    if (this.releaser) clearInterval(this.releaser);
    this.sweeper = undefined;
    this.releaser = undefined;
    for (const w of this.waiting.values()) w.admit();
    this.waiting.clear();
    await Promise.all([...this.allLeases()].map((l) => l.pending?.catch(() => undefined)));
    await this.releaseIdle(true, true);
    await this.counter.close();
  }
}

/**
 * Adds min(ARGV[2], ARGV[1] - count) to KEYS[1] and answers {added, count}; the first addition
 * sets the expiry ARGV[3]. One round trip, atomic, so concurrent processes never overshoot.
 */
const RESERVE = `local c = tonumber(redis.call('GET', KEYS[1]) or '0')
local n = math.min(tonumber(ARGV[2]), tonumber(ARGV[1]) - c)
if n <= 0 then return {0, c} end
local after = redis.call('INCRBY', KEYS[1], n)
if after == n then redis.call('EXPIRE', KEYS[1], ARGV[3]) end
return {n, after}`;

/** Takes back ARGV[1] units, never below zero. */
const RELEASE = `local c = tonumber(redis.call('GET', KEYS[1]) or '0')
local n = math.min(tonumber(ARGV[1]), c)
if n > 0 then redis.call('DECRBY', KEYS[1], n) end
return n`;

/**
 * A count not answered in this time fails, and the connection is made again. Counts are asked
 * once per block of units, not per request, so a timer each costs nothing that matters.
 */
const COUNTER_TIMEOUT_MS = 2_000;

function createRedis(url: string) {
  return createRedisClient(url, COUNTER_TIMEOUT_MS);
}

class RedisCounter implements Counter {
  private readonly recycler: Recycler;

  constructor(
    private readonly client: ReturnType<typeof createRedis>,
    private readonly prefix: string,
  ) {
    this.recycler = createRecycler(client);
  }

  reserve(
    organizationId: string,
    meter: UsageMeter,
    period: string,
    limit: number,
    want: number,
    ttlSeconds: number,
  ): Promise<{ granted: number; used: number }> {
    return this.reserveAt(usageRedisKey(this.prefix, meter, organizationId, period), limit, want, ttlSeconds);
  }

  async release(organizationId: string, meter: UsageMeter, period: string, units: number): Promise<void> {
    await recycleOnTimeout(
      this.client.eval(RELEASE, {
        keys: [usageRedisKey(this.prefix, meter, organizationId, period)],
        arguments: [String(units)],
      }),
      this.recycler,
      COUNTER_TIMEOUT_MS,
    );
  }

  reserveRate(keyId: string, second: string, limit: number, want: number): Promise<{ granted: number; used: number }> {
    return this.reserveAt(`${this.prefix}:rate:${keyId}:${second}`, limit, want, 2);
  }

  private async reserveAt(key: string, limit: number, want: number, ttlSeconds: number) {
    const result = (await recycleOnTimeout(
      this.client.eval(RESERVE, { keys: [key], arguments: [String(limit), String(want), String(ttlSeconds)] }),
      this.recycler,
      COUNTER_TIMEOUT_MS,
    )) as unknown as [number, number];
    return { granted: Number(result[0]), used: Number(result[1]) };
  }

  async close(): Promise<void> {
    this.recycler.stop();
    // QUIT waits for Redis's answer, which a stuck Redis never gives.
    const quit = this.client.quit().then(
      () => true,
      () => true,
    );
    const answered = await Promise.race([quit, new Promise<false>((r) => setTimeout(r, 1_000, false).unref())]);
    if (!answered) this.client.destroy();
  }
}

/** Embedded mode: one process by design, so the per-second window lives in memory. */
class DatabaseCounter implements Counter {
  private readonly windows = new Map<string, { second: string; count: number }>();

  constructor(private readonly ds: DataSource) {}

  reserve(organizationId: string, meter: UsageMeter, period: string, limit: number, want: number) {
    return reserveOrganizationUsage(this.ds, organizationId, meter, period, limit, want);
  }

  release(organizationId: string, meter: UsageMeter, period: string, units: number): Promise<void> {
    return releaseOrganizationUsage(this.ds, organizationId, meter, period, units);
  }

  async reserveRate(
    keyId: string,
    second: string,
    limit: number,
    want: number,
  ): Promise<{ granted: number; used: number }> {
    let w = this.windows.get(keyId);
    if (!w || w.second !== second) {
      if (this.windows.size >= 50_000) this.windows.clear();
      w = { second, count: 0 };
      this.windows.set(keyId, w);
    }
    const granted = Math.max(0, Math.min(want, limit - w.count));
    w.count += granted;
    return { granted, used: w.count };
  }

  async close(): Promise<void> {}
}

/** Redis-backed gate (production): counts shared by every ingest process. */
export async function createRedisIngestGate(
  ds: DataSource,
  redis: { url: string; prefix: string },
  options: IngestGateOptions = {},
): Promise<IngestGate> {
  const client = createRedis(redis.url);
  client.on('error', () => undefined); // reconnects by itself; callers see failed commands
  await client.connect();
  return new Gate(ds, new RedisCounter(client, redis.prefix), options);
}

/** Database-backed gate (embedded): the quota in `org_usage`, the rate window in memory. */
export function createDatabaseIngestGate(ds: DataSource, options: IngestGateOptions = {}): IngestGate {
  return new Gate(ds, new DatabaseCounter(ds), options);
}
