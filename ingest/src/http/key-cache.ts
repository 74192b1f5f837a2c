import { systemClock, type Clock, type KeyInfo } from '@tracker/core';

export interface KeyCacheOptions {
  /** How long a known key is trusted before it is read again (bounds how late a disable bites). */
  ttlMs?: number;
  /** Unknown keys are remembered too, so a flood of bad keys does not become a flood of queries. */
  negativeTtlMs?: number;
  maxEntries?: number;
  /** What the TTLs are measured by (default the wall clock). */
  clock?: Clock;
}

/**
 * DSN keys in memory: in the steady state an ingest request reads no database. Concurrent
 * misses for one key share one lookup. Eviction is oldest-first when full, which is enough
 * for a working set of live keys that fits easily (a few hundred bytes each).
 */
export class KeyCache {
  private readonly entries = new Map<string, { info: KeyInfo | null; expires: number }>();
  private readonly inflight = new Map<string, Promise<KeyInfo | null>>();
  private readonly ttlMs: number;
  private readonly negativeTtlMs: number;
  private readonly maxEntries: number;
  private readonly clock: Clock;

  constructor(
    private readonly load: (publicKey: string) => Promise<KeyInfo | null>,
    options: KeyCacheOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 60_000;
    this.negativeTtlMs = options.negativeTtlMs ?? 10_000;
    this.maxEntries = options.maxEntries ?? 50_000;
    this.clock = options.clock ?? systemClock;
  }

  /** The cached answer for a key still within its TTL (`null`: known to be unknown), else undefined. */
  peek(publicKey: string): KeyInfo | null | undefined {
    const hit = this.entries.get(publicKey);
    return hit !== undefined && hit.expires > this.clock() ? hit.info : undefined;
  }

  async get(publicKey: string): Promise<KeyInfo | null> {
    const cached = this.peek(publicKey);
    if (cached !== undefined) return cached;
    let pending = this.inflight.get(publicKey);
    if (!pending) {
      pending = this.load(publicKey).finally(() => this.inflight.delete(publicKey));
      this.inflight.set(publicKey, pending);
    }
    const info = await pending;
    this.set(publicKey, info);
    return info;
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
    this.entries.set(publicKey, { info, expires: this.clock() + (info ? this.ttlMs : this.negativeTtlMs) });
  }
}
