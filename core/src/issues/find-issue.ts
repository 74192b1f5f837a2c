import type { DataSource } from 'typeorm';
import { Event, Issue } from '../entities';
import { isUuid } from '../projects';

/** The issue if the user belongs to its project's organization; null otherwise. */
export async function findIssueForUser(ds: DataSource, userId: string, issueId: string): Promise<Issue | null> {
  if (!isUuid(issueId)) return null;
  return ds.manager
    .createQueryBuilder(Issue, 'i')
    .innerJoin('projects', 'p', 'p.id = i.project_id')
    .innerJoin('memberships', 'm', 'm.organization_id = p.organization_id AND m.user_id = :userId', { userId })
    .where('i.id = :issueId', { issueId })
    .getOne();
}

/** Latest event of each issue, in one query (a page of issues must not cost one query per row). */
export async function findLatestEvents(ds: DataSource, issueIds: readonly string[]): Promise<Map<string, Event>> {
  if (issueIds.length === 0) return new Map();
  const events = await ds.manager
    .createQueryBuilder(Event, 'e')
    .distinctOn(['e.issue_id'])
    .where('e.issue_id IN (:...issueIds)', { issueIds })
    .orderBy('e.issue_id')
    .addOrderBy('e.timestamp', 'DESC')
    .addOrderBy('e.id', 'DESC')
    .getMany();
  return new Map(events.map((e) => [e.issueId, e]));
}
