import type { DataSource } from 'typeorm';
import { requireProjectAccess, type Caller } from '../access';
import { queryRows } from '../db/query-rows';
import { AppError } from '../errors';
import { LOG_LEVELS, type LogLevel } from '../events/log.schema';
import type { PreparedLog } from '../events/prepare-log';
import { parseClientTime } from '../time/parse-client-time';

export const MAX_LOGS_PAGE = 100;
const MAX_SEARCH_CHARS = 200;
const MAX_FILTER_CHARS = 200;

export interface SearchLogsInput {
  projectId: string;
  /** Any of these levels; empty or absent = all. */
  levels?: LogLevel[] | null;
  /** Case-insensitive substring of the message. */
  text?: string | null;
  environment?: string | null;
  release?: string | null;
  /** The `service` tag (OTLP's `service.name`, docs/opentelemetry.md). */
  service?: string | null;
  /**
   * Attributes the log's context must carry with these values, compared as text (an OTLP log's
   * attributes, or any top-level context field of our SDKs' logs); at most MAX_ATTRIBUTE_FILTERS.
   */
  attributes?: readonly LogAttributeFilter[] | null;
  /** ISO 8601, on the log's own timestamp: from ≤ t < to. */
  from?: string | null;
  to?: string | null;
  first?: number;
  after?: string | null;
}

export interface LogAttributeFilter {
  key: string;
  value: string;
}

export const MAX_ATTRIBUTE_FILTERS = 5;

/** A stored log entry as the search answers it: what the worker persisted, without its project. */
export type LogRecord = Omit<PreparedLog, 'projectId'>;

export interface LogPage {
  logs: LogRecord[];
  /** Cursor of each returned log, same order. */
  cursors: string[];
  hasNextPage: boolean;
}

interface Row {
  id: string;
  level: LogLevel;
  message: string;
  context: Record<string, unknown> | null;
  environment: string;
  release: string | null;
  tags: Record<string, string>;
  timestamp: Date;
  received_at: Date;
  /** The timestamp at full (microsecond) precision, for the cursor: a JS Date would round it. */
  ts_key: string;
}

/**
 * Newest first, keyset-paginated on (timestamp, id): stable while logs keep arriving, and as
 * fast deep in the list as on page one (indexes on project, [level,] timestamp DESC, id DESC).
 * Text search is an ILIKE over the message: it walks the project's logs newest first until a
 * page is full, so a rare string over a long range scans much of it (no trigram index: PGlite
 * would need pg_trgm loaded). NOT_FOUND unless the caller may read the project (access/).
 */
export async function searchLogs(ds: DataSource, caller: Caller, input: SearchLogsInput): Promise<LogPage> {
  await requireProjectAccess(ds, caller, input.projectId, 'read', 'see logs');
  const first = input.first ?? 50;
  if (!Number.isInteger(first) || first < 1 || first > MAX_LOGS_PAGE) {
    throw new AppError('BAD_USER_INPUT', `first: must be between 1 and ${MAX_LOGS_PAGE}`);
  }
  const params: unknown[] = [input.projectId];
  const where = ['l.project_id = $1'];
  const add = (clause: (n: number) => string, value: unknown) => {
    params.push(value);
    where.push(clause(params.length));
  };
  const levels = input.levels ?? [];
  for (const level of levels) {
    if (!LOG_LEVELS.includes(level)) throw new AppError('BAD_USER_INPUT', `levels: unknown level ${String(level)}`);
  }
  if (levels.length > 0 && levels.length < LOG_LEVELS.length)
    add((n) => `l.level = ANY($${n}::text[])`, [...new Set(levels)]);
  if (input.text != null) {
    const text = input.text.trim();
    if (text.length === 0 || text.length > MAX_SEARCH_CHARS) {
      throw new AppError('BAD_USER_INPUT', `text: must be 1 to ${MAX_SEARCH_CHARS} characters`);
    }
    // The client's % and _ are literal characters, not wildcards.
    add((n) => `l.message ILIKE $${n} ESCAPE '\\'`, `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  }
  for (const field of ['environment', 'release'] as const) {
    const value = input[field];
    if (value == null) continue;
    if (value.length === 0 || value.length > MAX_FILTER_CHARS) {
      throw new AppError('BAD_USER_INPUT', `${field}: must be 1 to ${MAX_FILTER_CHARS} characters`);
    }
    add((n) => `l.${field} = $${n}`, value);
  }
  if (input.service != null) {
    if (input.service.length === 0 || input.service.length > MAX_FILTER_CHARS) {
      throw new AppError('BAD_USER_INPUT', `service: must be 1 to ${MAX_FILTER_CHARS} characters`);
    }
    // jsonb containment, so an index on tags (jsonb_path_ops) would serve it.
    add((n) => `l.tags @> $${n}::jsonb`, JSON.stringify({ service: input.service }));
  }
  addAttributeFilters(input.attributes ?? [], add);
  const from = input.from ? parseClientTime('from', input.from) : null;
  const to = input.to ? parseClientTime('to', input.to) : null;
  if (from && to && from.getTime() >= to.getTime()) throw new AppError('BAD_USER_INPUT', 'from: must be before to');
  if (from) add((n) => `l.timestamp >= $${n}`, from.toISOString());
  if (to) add((n) => `l.timestamp < $${n}`, to.toISOString());
  if (input.after) {
    const [ts, id] = decodeCursor(input.after);
    params.push(ts, id);
    where.push(`(l.timestamp, l.id) < ($${params.length - 1}::timestamptz, $${params.length}::uuid)`);
  }
  params.push(first + 1);
  const rows = await queryRows<Row>(
    ds,
    `SELECT l.id, l.level, l.message, l.context, l.environment, l.release, l.tags, l.timestamp, l.received_at,
       to_char(l.timestamp AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS ts_key
     FROM logs l WHERE ${where.join(' AND ')}
     ORDER BY l.timestamp DESC, l.id DESC LIMIT $${params.length}`,
    params,
  );
  const page = rows.slice(0, first);
  return {
    logs: page.map((r) => ({
      id: r.id,
      level: r.level,
      message: r.message,
      context: r.context,
      environment: r.environment,
      release: r.release,
      tags: r.tags,
      timestamp: new Date(r.timestamp),
      receivedAt: new Date(r.received_at),
    })),
    cursors: page.map((r) => Buffer.from(JSON.stringify([r.ts_key, r.id])).toString('base64url')),
    hasNextPage: rows.length > first,
  };
}

/**
 * `context ->> key = value`: the text form of a number or boolean attribute (`200`, `true`)
 * matches as typed in the search box. Scans within the project's time-ordered logs like the
 * text search: no index on context.
 */
function addAttributeFilters(
  attributes: readonly LogAttributeFilter[],
  add: (clause: (n: number) => string, value: unknown) => void,
): void {
  if (attributes.length > MAX_ATTRIBUTE_FILTERS) {
    throw new AppError('BAD_USER_INPUT', `attributes: at most ${MAX_ATTRIBUTE_FILTERS} filters`);
  }
  for (const { key, value } of attributes) {
    if (typeof key !== 'string' || key.length === 0 || key.length > MAX_FILTER_CHARS) {
      throw new AppError('BAD_USER_INPUT', `attributes: a key must be 1 to ${MAX_FILTER_CHARS} characters`);
    }
    if (typeof value !== 'string' || value.length > MAX_FILTER_CHARS) {
      throw new AppError('BAD_USER_INPUT', `attributes: a value must be at most ${MAX_FILTER_CHARS} characters`);
    }
    // One parameter per filter, [key, value], as `add` binds one value per clause.
    add((n) => `l.context ->> ($${n}::jsonb ->> 0) = ($${n}::jsonb ->> 1)`, JSON.stringify([key, value]));
  }
}

function decodeCursor(cursor: string): [string, string] {
  try {
    const [ts, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      typeof ts === 'string' &&
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/.test(ts) &&
      !Number.isNaN(Date.parse(ts)) &&
      typeof id === 'string' &&
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)
    ) {
      return [ts, id];
    }
  } catch {
    // fall through
  }
  throw new AppError('BAD_USER_INPUT', 'after: not a cursor returned by this API');
}
