import type { DataSource } from 'typeorm';
import { queryRows } from '../db/query-rows';
import { Event } from '../entities';
import { AppError } from '../errors';

export const MAX_EVENTS_PAGE = 100;

export interface EventPage {
  events: Event[];
  cursors: string[];
  hasNextPage: boolean;
  totalCount: number;
}

/**
 * One issue's events, newest first, keyset-paginated on (timestamp, id) over the
 * (issue_id, timestamp DESC, id DESC) index. `totalCount` is the issue's counter, kept by the
 * worker in the same transaction as the events, rather than a count of a possibly huge set.
 * The caller has already checked that the user may see the issue.
 */
export async function listIssueEvents(
  ds: DataSource,
  issue: { id: string; eventCount: number },
  input: { first?: number; after?: string | null },
): Promise<EventPage> {
  const first = input.first ?? 25;
  if (!Number.isInteger(first) || first < 1 || first > MAX_EVENTS_PAGE) {
    throw new AppError('BAD_USER_INPUT', `first: must be between 1 and ${MAX_EVENTS_PAGE}`);
  }
  const params: unknown[] = [issue.id, first + 1];
  let keyset = '';
  if (input.after) {
    const [timestamp, id] = decodeEventCursor(input.after);
    params.push(timestamp, id);
    keyset = ' AND (e.timestamp, e.id) < ($3::timestamptz, $4::bigint)';
  }
  const rows = await queryRows<EventRow & { sort_key: string }>(
    ds,
    `SELECT e.*, to_char(e.timestamp AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS sort_key
       FROM events e WHERE e.issue_id = $1${keyset}
      ORDER BY e.timestamp DESC, e.id DESC LIMIT $2`,
    params,
  );
  const page = rows.slice(0, first);
  const events = page.map(eventFromRow);
  return {
    events,
    cursors: page.map((r) => encodeEventCursor(r.sort_key, String(r.id))),
    hasNextPage: rows.length > first,
    totalCount: issue.eventCount,
  };
}

function encodeEventCursor(timestamp: string, id: string): string {
  return Buffer.from(JSON.stringify([timestamp, id])).toString('base64url');
}

function decodeEventCursor(cursor: string): [string, string] {
  try {
    const decoded: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(decoded) && decoded.length === 2) {
      const [t, id] = decoded as [unknown, unknown];
      if (
        typeof t === 'string' &&
        /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/.test(t) &&
        !Number.isNaN(Date.parse(`${t.slice(0, 23)}Z`)) &&
        typeof id === 'string' &&
        /^\d{1,18}$/.test(id)
      ) {
        return [t, id];
      }
    }
  } catch {
    // fall through
  }
  throw new AppError('BAD_USER_INPUT', 'after: not a cursor returned by this API');
}

export interface EventRow {
  id: string;
  project_id: string;
  issue_id: string;
  event_id: string;
  timestamp: Date;
  received_at: Date;
  level: Event['level'];
  type: string;
  message: string;
  environment: string;
  release: string | null;
  url: string | null;
  handled: boolean | null;
  stack: string | null;
  frames: Event['frames'];
  tags: Event['tags'];
  context: Event['context'];
  user: Event['user'];
  sdk: Event['sdk'];
  fingerprint: Event['fingerprint'];
  causes: Event['causes'];
  breadcrumbs: Event['breadcrumbs'];
  request: Event['request'];
  log_message?: string | null;
}

/** An `events` row as raw SQL returns it (`SELECT e.*`), as the entity. */
export function eventFromRow(r: EventRow): Event {
  return Object.assign(new Event(), {
    id: String(r.id),
    projectId: r.project_id,
    issueId: r.issue_id,
    eventId: r.event_id,
    timestamp: new Date(r.timestamp),
    receivedAt: new Date(r.received_at),
    level: r.level,
    type: r.type,
    message: r.message,
    environment: r.environment,
    release: r.release,
    url: r.url,
    handled: r.handled,
    stack: r.stack,
    frames: r.frames,
    tags: r.tags,
    context: r.context,
    user: r.user,
    sdk: r.sdk,
    fingerprint: r.fingerprint,
    causes: r.causes ?? null,
    breadcrumbs: r.breadcrumbs ?? null,
    request: r.request ?? null,
    logMessage: r.log_message ?? null,
  });
}

export const MAX_SERIES_HOURS = 24 * 30;

export interface SeriesPoint {
  /** Start of the hour (UTC). */
  ts: Date;
  count: number;
}

/**
 * Events per hour for each issue over the last `hours` whole hours up to and including the
 * current one, zero-filled, oldest first. One statement for any number of issues (a page of
 * sparklines), over the (issue_id, timestamp) index.
 */
export async function findHourlySeries(
  ds: DataSource,
  issueIds: readonly string[],
  hours: number,
  now: Date,
): Promise<Map<string, SeriesPoint[]>> {
  if (!Number.isInteger(hours) || hours < 1 || hours > MAX_SERIES_HOURS) {
    throw new AppError('BAD_USER_INPUT', `hours: must be between 1 and ${MAX_SERIES_HOURS}`);
  }
  return findBucketedSeries(ds, issueIds, { bucketMs: 3_600_000, buckets: hours }, now);
}

/**
 * The ranges the issue page's chart offers, each with a bucket size that gives it a readable
 * number of columns: 12 × 5 minutes, 24 × 1 hour, 28 × 6 hours, 30 × 1 day. Buckets are aligned
 * to the epoch (so days start at midnight UTC) and the current one is included.
 */
export const SERIES_RANGES = {
  '1h': { bucketMs: 5 * 60_000, buckets: 12 },
  '24h': { bucketMs: 3_600_000, buckets: 24 },
  '7d': { bucketMs: 6 * 3_600_000, buckets: 28 },
  '30d': { bucketMs: 24 * 3_600_000, buckets: 30 },
} as const;
export type SeriesRange = keyof typeof SERIES_RANGES;

/** Events per bucket of one of SERIES_RANGES for each issue, zero-filled, oldest first. */
export async function findEventSeries(
  ds: DataSource,
  issueIds: readonly string[],
  range: SeriesRange,
  now: Date,
): Promise<Map<string, SeriesPoint[]>> {
  const spec = SERIES_RANGES[range];
  if (!spec) throw new AppError('BAD_USER_INPUT', `range: must be one of ${Object.keys(SERIES_RANGES).join(', ')}`);
  return findBucketedSeries(ds, issueIds, spec, now);
}

async function findBucketedSeries(
  ds: DataSource,
  issueIds: readonly string[],
  { bucketMs, buckets }: { bucketMs: number; buckets: number },
  now: Date,
): Promise<Map<string, SeriesPoint[]>> {
  const end = new Date(Math.floor(now.getTime() / bucketMs) * bucketMs);
  const start = new Date(end.getTime() - (buckets - 1) * bucketMs);
  const out = new Map<string, SeriesPoint[]>();
  for (const id of issueIds) {
    out.set(
      id,
      Array.from({ length: buckets }, (_, i) => ({ ts: new Date(start.getTime() + i * bucketMs), count: 0 })),
    );
  }
  if (issueIds.length === 0) return out;
  const rows = await queryRows<{ issue_id: string; bucket: number; n: string }>(
    ds,
    `SELECT issue_id, floor(extract(epoch FROM timestamp) * 1000 / $4::numeric)::int8 AS bucket, count(*) AS n
       FROM events
      WHERE issue_id = ANY($1::uuid[]) AND timestamp >= $2 AND timestamp < $3
      GROUP BY 1, 2`,
    [issueIds, start.toISOString(), new Date(end.getTime() + bucketMs).toISOString(), bucketMs],
  );
  const startBucket = start.getTime() / bucketMs;
  for (const r of rows) {
    const points = out.get(r.issue_id);
    const index = Number(r.bucket) - startBucket;
    if (points && index >= 0 && index < buckets) points[index].count = Number(r.n);
  }
  return out;
}
