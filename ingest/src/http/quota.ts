import {
  AppError,
  consumeOrganizationUsage,
  findOrganizationEventLimit,
  quotaPeriod,
  secondsUntilPeriodEnd,
  type KeyInfo,
} from '@tracker/core';
import { createClient } from 'redis';
import type { DataSource } from 'typeorm';

/**
 * The ingest edge's admission check (DESIGN §6): the key's events-per-second limit, then, for
 * what counts (errors, messages, vitals), the organization's monthly event quota. Throws
 * `RATE_LIMITED` (429 with `Retry-After`) and consumes nothing when it refuses. Cheap when
 * nothing applies: a key without a rate limit and a kind that does not count return at once.
 */
export interface IngestGate {
  admit(key: KeyInfo, counts: boolean): void | Promise<void>;
  close(): Promise<void>;
}

/** Where the counts live: Redis (shared by every ingest process) or the database (embedded). */
interface Counter {
  /** Adds one to `name` unless it is already at `limit`; false when refused. */
  quota(organizationId: string, period: string, limit: number, ttlSeconds: number): Promise<boolean>;
  rate(keyId: string, second: number, limit: number): boolean | Promise<boolean>;
  close(): Promise<void>;
}

export interface IngestGateOptions {
  /** How long an organization's limit is trusted (default 5 s, so a plan change applies within 10 s). */
  planTtlMs?: number;
  /** Tests: the limit for every organization instead of its plan's. */
  eventLimitOverride?: number;
  /**
   * How long a count may take before the request is admitted uncounted (default 1 s): a slow
   * counter degrades to "accept", never to a stalled edge. Errors still fail the request.
   */
  failOpenMs?: number;
  now?: () => Date;
}

class Gate implements IngestGate {
  private readonly limits = new Map<string, { limit: number | null; expires: number }>();
  private readonly inflight = new Map<string, Promise<number | null>>();
  private readonly planTtlMs: number;
  private readonly now: () => Date;
  private readonly failOpenMs: number;
  /** Counts in flight and when they give up; one sweeping timer for all of them, not one each. */
  private readonly waiting = new Map<object, { deadline: number; admit: () => void }>();
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly ds: DataSource,
    private readonly counter: Counter,
    private readonly options: IngestGateOptions,
  ) {
    this.planTtlMs = options.planTtlMs ?? 5_000;
    this.now = options.now ?? (() => new Date());
    this.failOpenMs = options.failOpenMs ?? 1_000;
  }

  /** The counter's answer, or `true` (admit) if it has not come within `failOpenMs`. */
  private bounded(answer: boolean | Promise<boolean>): boolean | Promise<boolean> {
    if (typeof answer === 'boolean') return answer;
    return new Promise<boolean>((resolve, reject) => {
      const token = {};
      this.waiting.set(token, { deadline: Date.now() + this.failOpenMs, admit: () => resolve(true) });
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

  admit(key: KeyInfo, counts: boolean): void | Promise<void> {
    if (key.rateLimitPerSecond === null && !counts) return;
    return this.check(key, counts);
  }

  private async check(key: KeyInfo, counts: boolean): Promise<void> {
    if (key.rateLimitPerSecond !== null) {
      const second = Math.floor(this.now().getTime() / 1000);
      if (!(await this.bounded(this.counter.rate(key.keyId, second, key.rateLimitPerSecond)))) {
        throw new AppError('RATE_LIMITED', `rate limit of ${key.rateLimitPerSecond} events per second exceeded for this key`, 1);
      }
    }
    if (!counts) return;
    const limit = await this.limitOf(key.organizationId);
    if (limit === null) return; // the organization is gone; the worker drops what it cannot place
    const now = this.now();
    const retryAfter = secondsUntilPeriodEnd(now);
    // The Redis count outlives its month by a day, for whoever looks at it after the reset.
    if (!(await this.bounded(this.counter.quota(key.organizationId, quotaPeriod(now), limit, retryAfter + 86_400)))) {
      throw new AppError('RATE_LIMITED', `monthly event quota of ${limit} events reached; it resets at the start of next month (UTC)`, retryAfter);
    }
  }

  private limitOf(organizationId: string): number | null | Promise<number | null> {
    if (this.options.eventLimitOverride !== undefined) return this.options.eventLimitOverride;
    const hit = this.limits.get(organizationId);
    if (hit && hit.expires > Date.now()) return hit.limit;
    const pending = this.refresh(organizationId);
    // An expired entry is still served while its refresh runs: no request waits on the
    // database in the steady state, and the refresh lands well within the 10 s promise.
    return hit ? hit.limit : pending;
  }

  private refresh(organizationId: string): Promise<number | null> {
    let pending = this.inflight.get(organizationId);
    if (!pending) {
      pending = findOrganizationEventLimit(this.ds, organizationId)
        .then((limit) => {
          if (this.limits.size >= 50_000) this.limits.clear();
          this.limits.set(organizationId, { limit, expires: Date.now() + this.planTtlMs });
          return limit;
        })
        .finally(() => this.inflight.delete(organizationId));
      this.inflight.set(organizationId, pending);
      // A background refresh that fails must not be an unhandled rejection; whoever awaits it
      // still sees the error, and the stale entry is retried on the next request.
      pending.catch(() => undefined);
    }
    return pending;
  }

  close(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
    for (const w of this.waiting.values()) w.admit();
    this.waiting.clear();
    return this.counter.close();
  }
}

/**
 * Adds one to KEYS[1] unless it is at ARGV[1] (then answers -1 and changes nothing); the first
 * increment sets the expiry ARGV[2]. One round trip, atomic, so concurrent processes never
 * overshoot and refused requests consume nothing.
 */
const BOUNDED_INCR = `local c = tonumber(redis.call('GET', KEYS[1]) or '0')
if c >= tonumber(ARGV[1]) then return -1 end
c = redis.call('INCR', KEYS[1])
if c == 1 then redis.call('EXPIRE', KEYS[1], ARGV[2]) end
return c`;

function createRedis(url: string) {
  // As for the queue: no per-command timer on the ingest path.
  return createClient({ url, commandOptions: { timeout: 0 } });
}

class RedisCounter implements Counter {
  constructor(
    private readonly client: ReturnType<typeof createRedis>,
    private readonly prefix: string,
  ) {}

  private async incr(key: string, limit: number, ttlSeconds: number): Promise<boolean> {
    const result = await this.client.eval(BOUNDED_INCR, { keys: [key], arguments: [String(limit), String(ttlSeconds)] });
    return Number(result) > 0;
  }

  quota(organizationId: string, period: string, limit: number, ttlSeconds: number): Promise<boolean> {
    return this.incr(`${this.prefix}:quota:${organizationId}:${period}`, limit, ttlSeconds);
  }

  rate(keyId: string, second: number, limit: number): Promise<boolean> {
    return this.incr(`${this.prefix}:rate:${keyId}:${second}`, limit, 2);
  }

  async close(): Promise<void> {
    await this.client.quit().catch(() => undefined);
  }
}

/** Embedded mode: one process by design, so the per-second window lives in memory. */
class DatabaseCounter implements Counter {
  private readonly windows = new Map<string, { second: number; count: number }>();

  constructor(private readonly ds: DataSource) {}

  quota(organizationId: string, period: string, limit: number): Promise<boolean> {
    return consumeOrganizationUsage(this.ds, organizationId, period, limit);
  }

  rate(keyId: string, second: number, limit: number): boolean {
    let w = this.windows.get(keyId);
    if (!w || w.second !== second) {
      if (this.windows.size >= 50_000) this.windows.clear();
      w = { second, count: 0 };
      this.windows.set(keyId, w);
    }
    if (w.count >= limit) return false;
    w.count += 1;
    return true;
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
