import { Issue } from '../entities';

/** An `issues` row as raw SQL returns it. */
export interface IssueRow {
  id: string;
  project_id: string;
  fingerprint: string;
  title: string;
  type: string;
  culprit: string | null;
  level: Issue['level'];
  status: Issue['status'];
  is_regression: boolean;
  event_count: string | number;
  user_count: number;
  first_seen: Date | string;
  last_seen: Date | string;
  resolved_at: Date | string | null;
  resolved_in_release_id: string | null;
  snoozed_until: Date | string | null;
  snooze?: Issue['snooze'];
  discarded_at?: Date | string | null;
  assignee_id?: string | null;
  alerts_muted_until?: Date | string | null;
}

const date = (v: Date | string) => (v instanceof Date ? v : new Date(v));

/** The entity for a raw row: the queries that need one statement (page + count) are raw SQL. */
export function issueFromRow(r: IssueRow): Issue {
  return Object.assign(new Issue(), {
    id: r.id,
    projectId: r.project_id,
    fingerprint: r.fingerprint,
    title: r.title,
    type: r.type,
    culprit: r.culprit,
    level: r.level,
    status: r.status,
    isRegression: r.is_regression,
    eventCount: Number(r.event_count),
    userCount: Number(r.user_count),
    firstSeen: date(r.first_seen),
    lastSeen: date(r.last_seen),
    resolvedAt: r.resolved_at === null ? null : date(r.resolved_at),
    resolvedInReleaseId: r.resolved_in_release_id,
    snoozedUntil: r.snoozed_until === null ? null : date(r.snoozed_until),
    snooze: r.snooze ?? null,
    discardedAt: r.discarded_at == null ? null : date(r.discarded_at),
    assigneeId: r.assignee_id ?? null,
    alertsMutedUntil: r.alerts_muted_until == null ? null : date(r.alerts_muted_until),
  });
}
