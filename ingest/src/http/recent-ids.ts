import { systemClock, type Clock } from '@tracker/core';

/**
 * The client-chosen ids (error `eventId`, log `id`) this process admitted lately, so that an SDK
 * retrying a delivery (a timeout, a 503) is not counted against the quota a second time: the
 * worker stores the event once anyway (unique on project and id), and the quota should count
 * what is stored. Only ids the client sent are remembered (an id the edge makes up is new by
 * construction), and only after admission: a delivery refused with 429 is counted when its retry
 * is admitted.
 *
 * Per process, bounded (oldest forgotten first) and for an hour: a retry that reaches another
 * edge process is counted again there (exact across processes would cost a Redis round trip per
 * event, which the quota's block reservations exist to avoid; docs/quotas.md).
 */
export class RecentIds {
  private readonly seen = new Map<string, number>();
  private readonly max: number;
  private readonly ttlMs: number;
  private readonly clock: Clock;

  constructor(options: { max?: number; ttlMs?: number; clock?: Clock } = {}) {
    this.max = options.max ?? 50_000;
    this.ttlMs = options.ttlMs ?? 3_600_000;
    this.clock = options.clock ?? systemClock;
  }

  /** Whether `id` of `projectId` was admitted within the last hour. */
  has(projectId: string, id: string): boolean {
    const expires = this.seen.get(projectId + id);
    return expires !== undefined && expires > this.clock();
  }

  remember(projectId: string, id: string): void {
    const k = projectId + id;
    this.seen.delete(k); // re-inserted at the end: the Map's order is the eviction order
    this.seen.set(k, this.clock() + this.ttlMs);
    if (this.seen.size > this.max) this.seen.delete(this.seen.keys().next().value as string);
  }
}
