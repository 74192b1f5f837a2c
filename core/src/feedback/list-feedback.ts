import type { DataSource } from 'typeorm';
import { queryRows } from '../db/query-rows';
import { AppError } from '../errors';
import type { Feedback } from '../entities';
import { isUuid, requireProjectAccess, type Caller } from '../access';

export const MAX_FEEDBACK_PAGE = 100;

export interface ListFeedbackInput {
  projectId: string;
  /** Only feedback linked to this issue of the project. */
  issueId?: string | null;
  first?: number;
  after?: string | null;
}

export interface FeedbackPage {
  feedback: Feedback[];
  cursors: string[];
  hasNextPage: boolean;
  totalCount: number;
}

/**
 * The User feedback page: newest first, keyset-paginated on (received_at, id). An issue id of
 * another project (or tenant) matches nothing, like a missing one. NOT_FOUND unless the caller
 * may read the project (access/).
 */
export async function listFeedback(ds: DataSource, caller: Caller, input: ListFeedbackInput): Promise<FeedbackPage> {
  await requireProjectAccess(ds, caller, input.projectId, 'read', 'see feedback');
  const first = input.first ?? 25;
  if (!Number.isInteger(first) || first < 1 || first > MAX_FEEDBACK_PAGE) {
    throw new AppError('BAD_USER_INPUT', `first: must be between 1 and ${MAX_FEEDBACK_PAGE}`);
  }
  const params: unknown[] = [input.projectId];
  const where = ['f.project_id = $1'];
  if (input.issueId != null) {
    if (!isUuid(input.issueId)) throw new AppError('BAD_USER_INPUT', 'issueId: not an issue id');
    params.push(input.issueId);
    where.push(`f.issue_id = $${params.length}`);
  }
  const counted = [...where];
  const countParams = [...params];
  if (input.after) {
    const [at, id] = decodeCursor(input.after);
    params.push(at, id);
    where.push(`(f.received_at, f.id) < ($${params.length - 1}::timestamptz, $${params.length}::uuid)`);
  }
  params.push(first + 1);
  const [rows, total] = await Promise.all([
    queryRows<{
      project_id: string;
      id: string;
      message: string;
      email: string | null;
      name: string | null;
      url: string | null;
      event_id: string | null;
      issue_id: string | null;
      received_at: Date;
      at_key: string;
    }>(
      ds,
      `SELECT f.project_id, f.id, f.message, f.email, f.name, f.url, f.event_id, f.issue_id, f.received_at,
         to_char(f.received_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at_key
       FROM feedback f WHERE ${where.join(' AND ')}
       ORDER BY f.received_at DESC, f.id DESC LIMIT $${params.length}`,
      params,
    ),
    queryRows<{ n: number }>(
      ds,
      `SELECT count(*)::int AS n FROM feedback f WHERE ${counted.join(' AND ')}`,
      countParams,
    ),
  ]);
  const page = rows.slice(0, first);
  return {
    feedback: page.map((r) => ({
      projectId: r.project_id,
      id: r.id,
      message: r.message,
      email: r.email,
      name: r.name,
      url: r.url,
      eventId: r.event_id,
      issueId: r.issue_id,
      receivedAt: new Date(r.received_at),
    })),
    cursors: page.map((r) => Buffer.from(JSON.stringify([r.at_key, r.id])).toString('base64url')),
    hasNextPage: rows.length > first,
    totalCount: Number(total[0]?.n ?? 0),
  };
}

function decodeCursor(cursor: string): [string, string] {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      typeof at === 'string' &&
      /^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/.test(at) &&
      !Number.isNaN(Date.parse(at)) &&
      typeof id === 'string' &&
      isUuid(id)
    ) {
      return [at, id];
    }
  } catch {
    // fall through
  }
  throw new AppError('BAD_USER_INPUT', 'after: not a cursor returned by this API');
}
