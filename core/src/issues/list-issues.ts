import type { DataSource } from 'typeorm';
import { AppError } from '../errors';
import { Issue, type IssueStatus } from '../entities';

export const MAX_PAGE_SIZE = 100;

export interface ListIssuesInput {
  projectId: string;
  status?: IssueStatus;
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
 * Newest activity first, keyset-paginated on (last_seen, id): stable while new events move
 * issues around, and as fast on page 100 as on page 1 (no OFFSET).
 * The caller has already checked that the user may see the project.
 */
export async function listIssues(ds: DataSource, input: ListIssuesInput): Promise<IssuePage> {
  const first = input.first ?? 25;
  if (!Number.isInteger(first) || first < 1 || first > MAX_PAGE_SIZE) {
    throw new AppError('BAD_USER_INPUT', `first: must be between 1 and ${MAX_PAGE_SIZE}`);
  }
  const base = ds.manager.createQueryBuilder(Issue, 'i').where('i.project_id = :projectId', { projectId: input.projectId });
  if (input.status) base.andWhere('i.status = :status', { status: input.status });

  const page = base.clone();
  if (input.after) {
    const [lastSeen, id] = decodeCursor(input.after);
    page.andWhere('(i.last_seen, i.id) < (:lastSeen, :id)', { lastSeen, id });
  }
  const [rows, totalCount] = await Promise.all([
    page.orderBy('i.last_seen', 'DESC').addOrderBy('i.id', 'DESC').take(first + 1).getMany(),
    base.getCount(),
  ]);
  const issues = rows.slice(0, first);
  return {
    issues,
    cursors: issues.map(encodeCursor),
    hasNextPage: rows.length > first,
    totalCount,
  };
}

function encodeCursor(issue: Issue): string {
  return Buffer.from(JSON.stringify([issue.lastSeen.toISOString(), issue.id])).toString('base64url');
}

function decodeCursor(cursor: string): [string, string] {
  try {
    const [lastSeen, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (typeof lastSeen === 'string' && !Number.isNaN(Date.parse(lastSeen)) && typeof id === 'string' && /^[0-9a-f-]{36}$/i.test(id)) {
      return [lastSeen, id];
    }
  } catch {
    // fall through
  }
  throw new AppError('BAD_USER_INPUT', 'after: not a cursor returned by this API');
}
