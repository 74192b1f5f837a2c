import { findOrganizationLimits, type Clock } from '@tracker/core';
import type { DataSource } from 'typeorm';

export type Limits = { events: number; logs: number };

/** After a lookup of an organization's limits failed, it is not looked up again for this long. */
const RETRY_AFTER_FAILURE_MS = 1_000;

/**
 * Organizations' monthly limits, trusted for `ttlMs` of the clock. An expired entry is still
 * served while its refresh runs: no request waits on the database in the steady state, and the
 * refresh lands well within the 10 s promise of a plan change.
 *
 * While the database cannot be read (issue 28), the last limits read stay in use: a request
 * only gets here with a key the key cache still serves, which bounds how stale (1 h). Limits
 * never read in this process (the first request of an organization during an outage) cannot be
 * checked: the request is admitted uncounted, as when the counter does not answer (fail open),
 * rather than answered 503 for a known key. A failed lookup is not retried for a second.
 */
export class PlanLimits {
  private readonly cache = new Map<string, { limits: Limits | null; expires: number }>();
  private readonly inflight = new Map<string, Promise<Limits | null>>();
  private readonly failedUntil = new Map<string, number>();

  constructor(
    private readonly ds: DataSource,
    private readonly clock: Clock,
    private readonly ttlMs: number,
    private readonly overrides: { events?: number; logs?: number },
  ) {}

  /** The organization's limits (`null`: it is gone), synchronously when cached. */
  of(organizationId: string): Limits | null | Promise<Limits | null> {
    const hit = this.cache.get(organizationId);
    const now = this.clock();
    if (hit && hit.expires > now) return hit.limits;
    if ((this.failedUntil.get(organizationId) ?? 0) > now) return hit ? hit.limits : null;
    const pending = this.refresh(organizationId);
    return hit ? hit.limits : pending.catch(() => null);
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
          this.failedUntil.delete(organizationId);
          return limits;
        })
        .catch((err: unknown) => {
          if (this.failedUntil.size >= 50_000) this.failedUntil.clear();
          this.failedUntil.set(organizationId, this.clock() + RETRY_AFTER_FAILURE_MS);
          throw err;
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
