import { releaseOrganizationUsage, reserveOrganizationUsage, type UsageMeter } from '@tracker/core';
import type { DataSource } from 'typeorm';
import type { Counter, Reservation } from './counter';

/**
 * Embedded mode: the monthly counts are `org_usage` rows; the per-second window lives in memory,
 * since embedded mode is one process by design. The window is named by the second the gate
 * passes in, so this counter never reads a clock.
 */
export class DatabaseCounter implements Counter {
  private readonly windows = new Map<string, { second: string; count: number }>();

  constructor(private readonly ds: DataSource) {}

  reserve(organizationId: string, meter: UsageMeter, period: string, limit: number, want: number) {
    return reserveOrganizationUsage(this.ds, organizationId, meter, period, limit, want);
  }

  release(organizationId: string, meter: UsageMeter, period: string, units: number): Promise<void> {
    return releaseOrganizationUsage(this.ds, organizationId, meter, period, units);
  }

  async reserveRate(keyId: string, second: string, limit: number, want: number): Promise<Reservation> {
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
