import type { DataSource } from 'typeorm';
import { queryRows } from '../db/query-rows';

/** Tags are counted over at most this many of an issue's newest events: a bounded read. */
export const TAG_SAMPLE_EVENTS = 10_000;
export const TOP_TAG_VALUES = 10;

export interface TagBreakdown {
  key: string;
  /** Events (of those read) that carry the key. */
  count: number;
  /** Most frequent first; at most TOP_TAG_VALUES. */
  values: Array<{ value: string; count: number }>;
}

/**
 * Per tag key, its most frequent values with their counts, over the issue's newest
 * TAG_SAMPLE_EVENTS events (all of them for nearly every issue; `sampled` says how many).
 */
export async function findTagBreakdown(
  ds: DataSource,
  issueId: string,
): Promise<{ sampled: number; tags: TagBreakdown[] }> {
  const rows = await queryRows<{ key: string; value: string; n: string; key_total: string; sampled: string }>(
    ds,
    `WITH recent AS (
       SELECT tags FROM events WHERE issue_id = $1 ORDER BY timestamp DESC, id DESC LIMIT $2
     ), pairs AS (
       SELECT t.key, t.value, count(*) AS n FROM recent, jsonb_each_text(recent.tags) AS t(key, value) GROUP BY 1, 2
     ), ranked AS (
       SELECT key, value, n, sum(n) OVER (PARTITION BY key) AS key_total,
              row_number() OVER (PARTITION BY key ORDER BY n DESC, value) AS rank
         FROM pairs
     )
     SELECT key, value, n, key_total, (SELECT count(*) FROM recent) AS sampled
       FROM ranked WHERE rank <= $3
      ORDER BY key_total DESC, key, n DESC, value`,
    [issueId, TAG_SAMPLE_EVENTS, TOP_TAG_VALUES],
  );
  const tags: TagBreakdown[] = [];
  for (const r of rows) {
    let tag = tags.at(-1);
    if (!tag || tag.key !== r.key) tags.push((tag = { key: r.key, count: Number(r.key_total), values: [] }));
    tag.values.push({ value: r.value, count: Number(r.n) });
  }
  let sampled = rows.length > 0 ? Number(rows[0].sampled) : 0;
  if (rows.length === 0) {
    const [c] = await queryRows<{ n: string }>(
      ds,
      'SELECT count(*) AS n FROM (SELECT 1 FROM events WHERE issue_id = $1 LIMIT $2) x',
      [issueId, TAG_SAMPLE_EVENTS],
    );
    sampled = Number(c.n);
  }
  return { sampled, tags };
}

/** A release an issue's events carried in one environment (a row of `issue_releases`). */
export interface IssueReleaseSeen {
  release: string;
  environment: string;
  firstSeen: Date;
  lastSeen: Date;
  eventCount: number;
}

/**
 * The releases each issue's events carried, per environment, most recently seen first: one
 * statement for a page of issues. Plain SQL rather than TypeORM's `find`: building and mapping
 * that statement was about half a millisecond of the API's CPU per 50-row page (profiled at
 * 10,000,000 events, docs/issue-queries.md).
 */
export async function findIssueReleases(
  ds: DataSource,
  issueIds: readonly string[],
): Promise<Map<string, IssueReleaseSeen[]>> {
  const out = new Map<string, IssueReleaseSeen[]>();
  for (const id of issueIds) out.set(id, []);
  if (issueIds.length === 0) return out;
  const rows = await queryRows<{
    issue_id: string;
    environment: string;
    release: string;
    first_seen: Date;
    last_seen: Date;
    event_count: string;
  }>(
    ds,
    `SELECT issue_id, environment, release, first_seen, last_seen, event_count FROM issue_releases
      WHERE issue_id = ANY($1::uuid[]) ORDER BY last_seen DESC`,
    [issueIds],
  );
  for (const r of rows) {
    out.get(r.issue_id)?.push({
      release: r.release,
      environment: r.environment,
      firstSeen: new Date(r.first_seen),
      lastSeen: new Date(r.last_seen),
      eventCount: Number(r.event_count),
    });
  }
  return out;
}

/** The environments each issue's events came from, most recently seen first. */
export async function findIssueEnvironments(
  ds: DataSource,
  issueIds: readonly string[],
): Promise<Map<string, Array<{ environment: string; firstSeen: Date; lastSeen: Date; eventCount: number }>>> {
  const out = new Map<string, Array<{ environment: string; firstSeen: Date; lastSeen: Date; eventCount: number }>>();
  for (const id of issueIds) out.set(id, []);
  if (issueIds.length === 0) return out;
  const rows = await queryRows<{
    issue_id: string;
    environment: string;
    first_seen: Date;
    last_seen: Date;
    event_count: string;
  }>(
    ds,
    `SELECT issue_id, environment, first_seen, last_seen, event_count FROM issue_environments
      WHERE issue_id = ANY($1::uuid[]) ORDER BY last_seen DESC, environment`,
    [issueIds],
  );
  for (const r of rows) {
    out.get(r.issue_id)?.push({
      environment: r.environment,
      firstSeen: new Date(r.first_seen),
      lastSeen: new Date(r.last_seen),
      eventCount: Number(r.event_count),
    });
  }
  return out;
}
