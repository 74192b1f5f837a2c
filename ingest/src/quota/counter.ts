import type { UsageMeter } from '@tracker/core';

/** Where the counts live: Redis (shared by every ingest process) or the database (embedded). */
export interface Counter {
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
  ): Promise<Reservation>;
  /** Takes back reserved units this process will not use. */
  release(organizationId: string, meter: UsageMeter, period: string, units: number): Promise<void>;
  /** As `reserve`, for a key's count in one second (`second`: epoch seconds). */
  reserveRate(keyId: string, second: string, limit: number, want: number): Promise<Reservation>;
  close(): Promise<void>;
}

/** What a count added (`granted`) and the shared count after it (`used`). */
export interface Reservation {
  granted: number;
  used: number;
}
