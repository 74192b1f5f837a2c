/**
 * The time-partitioned tables (decision 029): each is partitioned by LIST (retention_days), the
 * retention of the organization's plan when the row was received, and each of those by RANGE
 * (received_at) in weeks starting Monday 00:00 UTC. A week of one retention is dropped whole once
 * all of it is older than that retention.
 */
export const PARTITIONED_TABLES = ['events', 'logs', 'vitals_reports'] as const;
export type PartitionedTable = (typeof PARTITIONED_TABLES)[number];

export const WEEK_MS = 7 * 86_400_000;
const DAY_MS = 86_400_000;

/** Monday 00:00 UTC of the week holding `at`. */
export function weekStart(at: Date): Date {
  const day = Math.floor(at.getTime() / DAY_MS);
  // 1970-01-01 was a Thursday: day 0 is 3 days after a Monday.
  const monday = day - ((((day + 3) % 7) + 7) % 7);
  return new Date(monday * DAY_MS);
}

/** `events_r30`: the rows of one retention, itself partitioned by week. */
export function retentionPartitionName(table: PartitionedTable, retentionDays: number): string {
  return `${table}_r${retentionDays}`;
}

/** `events_r30_20261123`: one week (from that Monday) of one retention. */
export function weekPartitionName(table: PartitionedTable, retentionDays: number, week: Date): string {
  return `${retentionPartitionName(table, retentionDays)}_${week.toISOString().slice(0, 10).replaceAll('-', '')}`;
}

/** The retention and week a week partition's name encodes, or null for another name. */
export function parseWeekPartitionName(
  table: PartitionedTable,
  name: string,
): { retentionDays: number; week: Date } | null {
  const m = new RegExp(`^${table}_r(\\d+)_(\\d{4})(\\d{2})(\\d{2})$`).exec(name);
  if (!m) return null;
  return { retentionDays: Number(m[1]), week: new Date(`${m[2]}-${m[3]}-${m[4]}T00:00:00Z`) };
}

/**
 * Whether all of the week starting `week` is older than `retentionDays` at `now`: the newest row
 * it can hold was received just before the next Monday. A row therefore lives between its
 * retention and its retention plus a week (the overshoot docs/quotas.md states).
 */
export function isWeekExpired(week: Date, retentionDays: number, now: Date): boolean {
  return week.getTime() + WEEK_MS + retentionDays * DAY_MS <= now.getTime();
}
