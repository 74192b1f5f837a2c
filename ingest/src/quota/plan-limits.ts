import { findOrganizationLimits, type Clock } from '@tracker/core';
import type { DataSource } from 'typeorm';

export type Limits = { events: number; logs: number };

/**
 * Organizations' monthly limits, trusted for `ttlMs` of the clock. An expired entry is still
 * served while its refresh runs: no request waits on the database in the steady state, and the
 * refresh lands well within the 10 s promise of a plan change.
 */
export class PlanLimits {
  private readonly cache = new Map<string, { limits: Limits | null; expires: number }>();
  private readonly inflight = new Map<string, Promise<Limits | null>>();

  constructor(
    private readonly ds: DataSource,
    private readonly clock: Clock,
    private readonly ttlMs: number,
    private readonly overrides: { events?: number; logs?: number },
  ) {}

  /** The organization's limits (`null`: it is gone), synchronously when cached. */
  of(organizationId: string): Limits | null | Promise<Limits | null> {
    const hit = this.cache.get(organizationId);
    if (hit && hit.expires > this.clock()) return hit.limits;
    const pending = this.refresh(organizationId);
    return hit ? hit.limits : pending;
  }

  private refresh(organizationId: string): Promise<Limits | null> {
    let pending = this.inflight.get(organizationId);
    if (!pending) {
      pending = findOrganizationLimits(this.ds, organizationId)
        .then((found) => {
          const limits = found && {
            events: this.overrides.events ?? found.events,
            logs: this.overrides.logs ?? found.logs,
          };
          if (this.cache.size >= 50_000) this.cache.clear();
          this.cache.set(organizationId, { limits, expires: this.clock() + this.ttlMs });
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
}
