import type { DataSource } from 'typeorm';
import { queryRows } from '../db/query-rows';
import { AppError } from '../errors';
import type { Issue, IssueStatus, Level } from '../entities';
import { isUuid, requireProjectAccess, type Caller } from '../access';
import { issueFromRow, type IssueRow } from './issue-row';
import { checkIssueQuery, compileIssueQuery, scansEveryIssue } from './query';

export const MAX_PAGE_SIZE = 100;
/** Longer search text is refused: it is a substring match, not a query language. */
export const MAX_SEARCH_CHARS = 200;

export type IssueSort = 'last_seen' | 'first_seen' | 'events' | 'users';

/** The column each sort order walks, descending, with `id` as the tie-breaker. */
const SORT_COLUMN: Record<IssueSort, string> = {
  last_seen: 'last_seen',
  first_seen: 'first_seen',
  events: 'event_count',
  users: 'user_count',
};

/**
 * Who an issue is assigned to: nobody, a user by id ("assigned to me" is the caller's id) or by
 * email (an address of no user matches nothing). Reused by the search language (`assigned:`).
 */
export type AssigneeFilter = { none: true } | { userId: string } | { email: string };

export interface ListIssuesInput {
  projectId: string;
  status?: IssueStatus;
  /** Issues with at least one event in this environment. */
  environment?: string | null;
  /** Issues with at least one event carrying this release (in `environment`, when given). */
  release?: string | null;
  level?: Level | null;
  firstSeenFrom?: Date | null;
  firstSeenTo?: Date | null;
  lastSeenFrom?: Date | null;
  lastSeenTo?: Date | null;
  assignee?: AssigneeFilter | null;
  /** Case-insensitive substring of the title or of any of the issue's event messages. */
  search?: string | null;
  /** The search language (docs/api.md, "Searching issues"), ANDed with the other filters. */
  query?: string | null;
  /** Epoch ms of the caller's clock: relative times of `query` count back from it (decision 021). */
  now?: number;
  sort?: IssueSort;
  /**
   * Discarded issues (their new events are dropped) only, when true; by default they are left
   * out, so the list shows what still arrives (docs/decisions/023-unmerge-snooze-discard.md).
   */
  discarded?: boolean | null;
  first?: number;
  after?: string | null;
}

export interface IssuePage {
  issues: Issue[];
  /** Cursor of each returned issue, same order. */
  cursors: string[];
  hasNextPage: boolean;
  totalCount: number;
}

/**
 * One project's issues, filtered, sorted descending and keyset-paginated on (sort key, id):
 * stable while new events move issues around, and as fast on page 100 as on page 1 (no OFFSET).
 *
 * The page and `totalCount` come from one statement, so they read one snapshot: two statements
 * (or two in parallel on two connections) could disagree when the worker commits in between.
 * NOT_FOUND unless the caller may read the project (access/).
 */
export async function listIssues(ds: DataSource, caller: Caller, input: ListIssuesInput): Promise<IssuePage> {
  await requireProjectAccess(ds, caller, input.projectId, 'read', 'see issues');
  const first = input.first ?? 25;
  if (!Number.isInteger(first) || first < 1 || first > MAX_PAGE_SIZE) {
    throw new AppError('BAD_USER_INPUT', `first: must be between 1 and ${MAX_PAGE_SIZE}`);
  }
  const sort = input.sort ?? 'last_seen';
  const column = SORT_COLUMN[sort];
  const params: unknown[] = [input.projectId];
  const p = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };

  const where = ['i.project_id = $1', input.discarded ? 'i.discarded_at IS NOT NULL' : 'i.discarded_at IS NULL'];
  if (input.status) where.push(`i.status = ${p(input.status)}`);
  if (input.level) where.push(`i.level = ${p(input.level)}`);
  let environmentParam: string | null = null;
  if (input.environment) {
    environmentParam = p(input.environment);
    where.push(
      `EXISTS (SELECT 1 FROM issue_environments ie WHERE ie.issue_id = i.id AND ie.environment = ${environmentParam})`,
    );
  }
  if (input.release) {
    const env = environmentParam ? ` AND ir.environment = ${environmentParam}` : '';
    where.push(
      `EXISTS (SELECT 1 FROM issue_releases ir WHERE ir.issue_id = i.id AND ir.release = ${p(input.release)}${env})`,
    );
  }
  if (input.assignee) where.push(assigneeSql(input.assignee, p));
  if (input.firstSeenFrom) where.push(`i.first_seen >= ${p(input.firstSeenFrom.toISOString())}`);
  if (input.firstSeenTo) where.push(`i.first_seen < ${p(input.firstSeenTo.toISOString())}`);
  if (input.lastSeenFrom) where.push(`i.last_seen >= ${p(input.lastSeenFrom.toISOString())}`);
  if (input.lastSeenTo) where.push(`i.last_seen < ${p(input.lastSeenTo.toISOString())}`);
  const search = input.search?.trim();
  if (search) {
    if (search.length > MAX_SEARCH_CHARS) {
      throw new AppError('BAD_USER_INPUT', `search: at most ${MAX_SEARCH_CHARS} characters`);
    }
    const pattern = p(`%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    // The title is checked first; an issue's messages only when it does not match.
    where.push(
      `(i.title ILIKE ${pattern} OR EXISTS (SELECT 1 FROM events e WHERE e.issue_id = i.id AND e.message ILIKE ${pattern}))`,
    );
  }
  let onePass = false;
  if (input.query?.trim()) {
    if (input.now === undefined) throw new Error("listIssues: a query needs the caller's clock (now)");
    const terms = await checkIssueQuery(ds, input.projectId, input.query);
    where.push(...compileIssueQuery(terms, { now: input.now, userId: caller.userId, param: p, projectParam: '$1' }));
    onePass = scansEveryIssue(terms);
  }
  const filters = where.join(' AND ');
  // Filtered by environment alone, the count is an index-only count of issue_environments
  // (it carries project_id), not a join of every issue with it: the page's dominant cost.
  // Discarded issues are few: subtracted through their partial index.
  const onlyEnvironment =
    environmentParam && where.length === 3 && !input.discarded
      ? `SELECT (SELECT count(*) FROM issue_environments ie WHERE ie.project_id = $1 AND ie.environment = ${environmentParam})
              - (SELECT count(*) FROM issues i WHERE i.project_id = $1 AND i.discarded_at IS NOT NULL
                  AND EXISTS (SELECT 1 FROM issue_environments ie WHERE ie.issue_id = i.id AND ie.environment = ${environmentParam}))
                AS total_count`
      : null;

  let keyset = '';
  if (input.after) {
    const [value, id] = decodeCursor(input.after, sort);
    const cast = sort === 'last_seen' || sort === 'first_seen' ? 'timestamptz' : 'bigint';
    keyset = ` AND (i.${column}, i.id) < (${p(value)}::${cast}, ${p(id)}::uuid)`;
  }
  const limit = p(first + 1);
  // A filter no index serves (free text) reads every issue of the project for the count anyway:
  // the matches are kept from that one pass and the page taken from them, instead of a second
  // pass for the page (at 10,000 issues, 3 ms instead of 6; docs/issue-queries.md).
  const sql = onePass
    ? `WITH matched AS MATERIALIZED (SELECT i.* FROM issues i WHERE ${filters})
       SELECT t.total_count, pg.*
         FROM (SELECT count(*) AS total_count FROM matched) t
         LEFT JOIN LATERAL (
           SELECT i.*, ${sortKeySql(sort)} AS sort_key FROM matched i WHERE true${keyset} ORDER BY i.${column} DESC, i.id DESC LIMIT ${limit}
         ) pg ON true
        ORDER BY pg.${column} DESC, pg.id DESC`
    : `SELECT t.total_count, pg.*
       FROM (${onlyEnvironment ?? `SELECT count(*) AS total_count FROM issues i WHERE ${filters}`}) t
       LEFT JOIN LATERAL (
         SELECT i.*, ${sortKeySql(sort)} AS sort_key FROM issues i WHERE ${filters}${keyset} ORDER BY i.${column} DESC, i.id DESC LIMIT ${limit}
       ) pg ON true
      ORDER BY pg.${column} DESC, pg.id DESC`;
  const rows = await queryRows<IssueRow & { total_count: string; sort_key: string }>(ds, sql, params);
  const totalCount = Number(rows[0]?.total_count ?? 0);
  const issues = rows
    .filter((r) => r.id !== null)
    .slice(0, first)
    .map((r) => Object.assign(issueFromRow(r), { sortKey: r.sort_key }));
  return {
    issues,
    cursors: issues.map((i) => encodeCursor(i, sort)),
    hasNextPage: rows.filter((r) => r.id !== null).length > first,
    totalCount,
  };
}

/** The WHERE term of an assignee filter (served by the partial index issues_project_assignee). */
export function assigneeSql(filter: AssigneeFilter, p: (value: unknown) => string): string {
  if ('none' in filter) return 'i.assignee_id IS NULL';
  if ('userId' in filter) {
    // Not a uuid: no user has it, and the cast must not fail.
    return isUuid(filter.userId) ? `i.assignee_id = ${p(filter.userId)}::uuid` : 'false';
  }
  return `i.assignee_id = (SELECT u.id FROM users u WHERE u.email = ${p(filter.email.trim().toLowerCase())})`;
}

/**
 * Opaque to clients: the sort order, the row's sort key as PostgreSQL has it (microseconds, not
 * the millisecond ISO string clients see: a rounded key would skip or repeat rows), and its id.
 */
function sortKeySql(sort: IssueSort): string {
  const column = `i.${SORT_COLUMN[sort]}`;
  return sort === 'last_seen' || sort === 'first_seen'
    ? `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`
    : `${column}::text`;
}

function encodeCursor(issue: Issue & { sortKey?: string }, sort: IssueSort): string {
  return Buffer.from(JSON.stringify([sort, issue.sortKey, issue.id])).toString('base64url');
}

const TIME_KEY = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const COUNT_KEY = /^\d{1,18}$/;

function decodeCursor(cursor: string, sort: IssueSort): [string, string] {
  try {
    const decoded: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(decoded) && decoded.length === 3) {
      const [cursorSort, value, id] = decoded as [unknown, unknown, unknown];
      const isTime = sort === 'last_seen' || sort === 'first_seen';
      const valueOk =
        typeof value === 'string' &&
        (isTime ? TIME_KEY.test(value) && !Number.isNaN(Date.parse(`${value.slice(0, 23)}Z`)) : COUNT_KEY.test(value));
      if (cursorSort === sort && valueOk && typeof id === 'string' && isUuid(id)) return [value, id];
    }
  } catch {
    // fall through
  }
  throw new AppError('BAD_USER_INPUT', 'after: not a cursor returned by this API for this sort order');
}
