import { AppError, errorMessage, systemClock, type Clock, type KeyInfo } from '@tracker/core';
import { LogThrottle } from './log-throttle';

/** A known key is served from the cache for this long past its last read while the database cannot be read. */
export const KEY_MAX_STALE_MS = 3_600_000;
/** After a lookup failed, the same key is not looked up again for this long (stale or 503 meanwhile). */
const KEY_RETRY_MS = 1_000;
/**
 * A known key whose refresh has not answered within this long is served from the cache while the
 * lookup goes on: a frozen database (connections open, nothing answered) holds a query for up to
 * its 65 s client timeout, and requests must not wait that out.
 */
const KEY_REFRESH_WAIT_MS = 1_000;
/** Seconds an SDK is told to wait when its key cannot be checked. */
const KEY_UNAVAILABLE_RETRY_AFTER_S = 5;

export interface KeyCacheOptions {
  /** How long a known key is trusted before it is read again (bounds how late a disable bites). */
  ttlMs?: number;
  /** Unknown keys are remembered too, so a flood of bad keys does not become a flood of queries. */
  negativeTtlMs?: number;
  /**
   * How long past its last successful read a known key is still served when the database cannot
   * be read (default 1 h): the edge keeps answering 202 through a PostgreSQL outage.
   */
  maxStaleMs?: number;
  maxEntries?: number;
  /** What the TTLs are measured by (default the wall clock). */
  clock?: Clock;
  /** Where lookups that fail (the database is down) are reported, at most one line per 10 s. */
  log?: (level: 'warn' | 'info', message: string, data: Record<string, unknown>) => void;
}

interface Entry {
  info: KeyInfo | null;
  expires: number;
  /** When the database last answered for this key: bounds how stale it may be served. */
  readAt: number;
}

/**
 * DSN keys in memory: in the steady state an ingest request reads no database. Concurrent
 * misses for one key share one lookup. Eviction is oldest-first when full, which is enough
 * for a working set of live keys that fits easily (a few hundred bytes each).
 *
 * When the database cannot be read (issue 28: a 15 s PostgreSQL stop gave 1,814 answers 503),
 * a known key past its TTL is still served, for up to `maxStaleMs` after it was last read, and
 * read again once the database answers; a key not known (or known to be unknown, past its
 * negative TTL) gets 503 + Retry-After, never 401: the edge cannot tell.
 */
export class KeyCache {
  private readonly entries = new Map<string, Entry>();
  private readonly inflight = new Map<string, { pending: Promise<KeyInfo | null>; startedAt: number }>();
  /** Keys whose last lookup failed, until when not to try again. */
  private readonly failedUntil = new Map<string, number>();
  private readonly ttlMs: number;
  private readonly negativeTtlMs: number;
  private readonly maxStaleMs: number;
  private readonly maxEntries: number;
  private readonly clock: Clock;
  private readonly log: KeyCacheOptions['log'];
  private readonly failureLog: LogThrottle;
  private failing = false;
  /** For `/metrics`: lookups that failed, and requests served with a key past its TTL. */
  readonly stats = { lookupsFailed: 0, staleServed: 0 };

  constructor(
    private readonly load: (publicKey: string) => Promise<KeyInfo | null>,
    options: KeyCacheOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 60_000;
    this.negativeTtlMs = options.negativeTtlMs ?? 10_000;
    this.maxStaleMs = options.maxStaleMs ?? KEY_MAX_STALE_MS;
    this.maxEntries = options.maxEntries ?? 50_000;
    this.clock = options.clock ?? systemClock;
    this.log = options.log;
    this.failureLog = new LogThrottle(undefined, this.clock);
  }

  /**
   * The cached answer for a key still within its TTL (`null`: known to be unknown), else
   * undefined. A known key past its TTL is answered too while its lookups fail (within the
   * stale limit), so the fast path keeps taking it during an outage.
   */
  peek(publicKey: string): KeyInfo | null | undefined {
    const hit = this.entries.get(publicKey);
    if (hit === undefined) return undefined;
    const now = this.clock();
    if (hit.expires > now) return hit.info;
    if (hit.info !== null && (this.failedUntil.get(publicKey) ?? 0) > now && now - hit.readAt <= this.maxStaleMs) {
      this.stats.staleServed += 1;
      return hit.info;
    }
    return undefined;
  }

  async get(publicKey: string): Promise<KeyInfo | null> {
    const cached = this.peek(publicKey);
    if (cached !== undefined) return cached;
    const now = this.clock();
    const hit = this.entries.get(publicKey);
    const stale = hit?.info && now - hit.readAt <= this.maxStaleMs ? hit.info : undefined;
    // The last lookup failed a moment ago (peek served the stale ones): do not ask again yet.
    if ((this.failedUntil.get(publicKey) ?? 0) > now) throw unavailable();
    let lookup = this.inflight.get(publicKey);
    if (!lookup) {
      lookup = { pending: this.lookup(publicKey), startedAt: now };
      this.inflight.set(publicKey, lookup);
    }
    const pending = lookup.pending;
    try {
      if (!stale) return await pending;
      // A lookup that has already waited its time (a frozen database): no request waits again.
      const waitMs = KEY_REFRESH_WAIT_MS - (now - lookup.startedAt);
      if (waitMs <= 0) {
        this.stats.staleServed += 1;
        return stale;
      }
      let timer: NodeJS.Timeout | undefined;
      const slow = new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), waitMs)));
      const info = await Promise.race([pending, slow]).finally(() => clearTimeout(timer));
      if (info !== undefined) return info;
      this.stats.staleServed += 1; // still waiting for the database: the lookup goes on
      return stale;
    } catch {
      if (!stale) throw unavailable();
      this.stats.staleServed += 1;
      return stale;
    }
  }

  /** One lookup of a key, stored when it answers; failures noted (and logged, throttled). */
  private lookup(publicKey: string): Promise<KeyInfo | null> {
    const pending = this.load(publicKey).then(
      (info) => {
        this.failedUntil.delete(publicKey);
        this.set(publicKey, info);
        if (this.failing) {
          this.failing = false;
          this.log?.('info', 'DSN key lookups work again', { lookupsFailed: this.stats.lookupsFailed });
        }
        return info;
      },
      (err: unknown) => {
        this.stats.lookupsFailed += 1;
        if (this.failedUntil.size >= this.maxEntries) this.failedUntil.clear();
        this.failedUntil.set(publicKey, this.clock() + KEY_RETRY_MS);
        this.failing = true;
        const held = this.failureLog.take();
        if (held !== undefined) {
          this.log?.(
            'warn',
            `DSN keys cannot be read from the database: known keys are served from the cache for up to ${Math.round(this.maxStaleMs / 60_000)} min, unknown keys get 503`,
            { error: errorMessage(err), heldBack: held, lookupsFailed: this.stats.lookupsFailed },
          );
        }
        throw err;
      },
    );
    void pending.finally(() => this.inflight.delete(publicKey)).catch(() => undefined);
    return pending;
  }

  /** Forget a key at once (rotation, disable) in this process. */
  invalidate(publicKey: string): void {
    this.entries.delete(publicKey);
  }

  /** Forget every key of a project in this process (its settings changed). */
  invalidateProject(projectId: string): void {
    // Rare (an admin changing a setting), so a scan of at most `maxEntries` is fine.
    for (const [publicKey, entry] of this.entries) {
      if (entry.info?.projectId === projectId) this.entries.delete(publicKey);
    }
  }

  private set(publicKey: string, info: KeyInfo | null): void {
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.delete(publicKey);
    const now = this.clock();
    this.entries.set(publicKey, { info, expires: now + (info ? this.ttlMs : this.negativeTtlMs), readAt: now });
  }
}

function unavailable(): AppError {
  return new AppError(
    'UNAVAILABLE',
    'the DSN key cannot be checked now (the database is unreachable); retry later',
    KEY_UNAVAILABLE_RETRY_AFTER_S,
  );
}
