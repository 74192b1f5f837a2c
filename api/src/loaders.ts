import DataLoader from 'dataloader';
import {
  countIssueMerges,
  findFeedbackForIssues,
  findEventSeries,
  findHourlySeries,
  findIssueEnvironments,
  findIssueReleases,
  findReleaseHealth,
  findReleaseVersionDetails,
  findLatestEvents,
  findPrimaryKeys,
  findUserRefs,
  listProjects,
  Membership,
  Organization,
  Release,
  type Event,
  type Clock,
  type Feedback,
  type IssueReleaseSeen,
  type PlanId,
  Project,
  type ProjectKey,
  type ReleaseHealth,
  type ReleaseVersionDetails,
  type SeriesPoint,
  type SeriesRange,
} from '@tracker/core';
import type { DataSource } from 'typeorm';
import { In } from 'typeorm';

/** Batch per request, so a list costs one query per relation, not one per row. */
export interface Loaders {
  latestEvent: DataLoader<string, Event | null>;
  feedbackByIssue: DataLoader<string, Feedback[]>;
  primaryKey: DataLoader<string, ProjectKey | null>;
  /** A project's number (the last path segment of its DSN), by project id. */
  projectNumber: DataLoader<string, number | null>;
  projectsByOrganization: DataLoader<string, Project[]>;
  organizationsByUser: DataLoader<string, Organization[]>;
  releaseById: DataLoader<string, Release | null>;
  /** Keyed `releaseVersionKey(projectId, version)`: finalize time and commits from sentry-cli. */
  releaseVersionDetails: DataLoader<string, ReleaseVersionDetails>;
  /** An issue's releases, most recently seen first. */
  releasesByIssue: DataLoader<string, IssueReleaseSeen[]>;
  /** Key `${hours}:${issueId}`: a page of sparklines is one query per distinct `hours`. */
  seriesByIssue: DataLoader<string, Array<{ ts: string; count: number }>>;
  /** Keyed `<range>|<issue id>` (SERIES_RANGES): the issue page's chart. */
  rangeSeriesByIssue: DataLoader<string, Array<{ ts: string; count: number }>>;
  environmentsByIssue: DataLoader<
    string,
    Array<{ environment: string; firstSeen: Date; lastSeen: Date; eventCount: number }>
  >;
  /** The plan of the project's organization (release health is gated on it). */
  planByProject: DataLoader<string, PlanId | null>;
  releaseHealth: DataLoader<string, ReleaseHealth | null>;
  /** Id and email by user id (an issue's assignee). */
  userRef: DataLoader<string, { id: string; email: string } | null>;
  /** Recorded merges into an issue (what unmergeIssue can undo). */
  mergeCountByIssue: DataLoader<string, number>;
}

export function createLoaders(ds: DataSource, clock: Clock): Loaders {
  // The statement also computes the deploy before each release (for "against the previous
  // release"): primed, so asking for it next costs no second query.
  const releaseHealth: Loaders['releaseHealth'] = new DataLoader(async (ids) => {
    const found = await findReleaseHealth(ds, ids, new Date(clock()));
    for (const [id, health] of found) if (!ids.includes(id)) releaseHealth.prime(id, health);
    return ids.map((id) => found.get(id) ?? null);
  });
  return {
    mergeCountByIssue: new DataLoader(async (ids) => {
      const found = await countIssueMerges(ds, ids);
      return ids.map((id) => found.get(id) ?? 0);
    }),
    latestEvent: new DataLoader(async (ids) => {
      const found = await findLatestEvents(ds, ids);
      return ids.map((id) => found.get(id) ?? null);
    }),
    feedbackByIssue: new DataLoader(async (ids) => {
      const found = await findFeedbackForIssues(ds, ids);
      return ids.map((id) => found.get(id) ?? []);
    }),
    primaryKey: new DataLoader(async (ids) => {
      const found = await findPrimaryKeys(ds, [...ids]);
      return ids.map((id) => found.get(id) ?? null);
    }),
    projectNumber: new DataLoader(async (ids) => {
      const rows = await ds.manager.find(Project, { select: { id: true, number: true }, where: { id: In([...ids]) } });
      const byId = new Map(rows.map((r) => [r.id, Number(r.number)]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
    projectsByOrganization: new DataLoader(async (ids) => {
      const projects = await listProjects(ds, [...ids]);
      return ids.map((id) => projects.filter((p) => p.organizationId === id));
    }),
    releaseById: new DataLoader(async (ids) => {
      const rows = await ds.manager.findBy(Release, { id: In([...ids]) });
      const byId = new Map(rows.map((r) => [r.id, r]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
    releaseVersionDetails: new DataLoader(async (keys) => {
      const found = await findReleaseVersionDetails(ds, keys);
      return keys.map((k) => found.get(k) ?? { dateReleased: null, commits: [] });
    }),
    releasesByIssue: new DataLoader(async (ids) => {
      const byIssue = await findIssueReleases(ds, ids);
      return ids.map((id) => byIssue.get(id) ?? []);
    }),
    seriesByIssue: new DataLoader(async (keys) => {
      const now = new Date(clock());
      const byHours = new Map<number, string[]>();
      for (const key of keys) {
        const [hours, id] = key.split(':');
        byHours.set(Number(hours), [...(byHours.get(Number(hours)) ?? []), id]);
      }
      const found = new Map<string, Array<{ ts: string; count: number }>>();
      for (const [hours, ids] of byHours) {
        // Every issue of the batch has the same hours: format each once (a page is 50 × 24 points).
        let stamps: string[] | undefined;
        for (const [id, points] of await findHourlySeries(ds, ids, hours, now)) {
          stamps ??= points.map((p: SeriesPoint) => p.ts.toISOString());
          found.set(
            `${hours}:${id}`,
            points.map((p: SeriesPoint, i: number) => ({ ts: stamps![i], count: p.count })),
          );
        }
      }
      return keys.map((k) => found.get(k) ?? []);
    }),
    rangeSeriesByIssue: new DataLoader(async (keys) => {
      const now = new Date(clock());
      const byRange = new Map<SeriesRange, string[]>();
      for (const key of keys) {
        const [range, id] = key.split('|') as [SeriesRange, string];
        byRange.set(range, [...(byRange.get(range) ?? []), id]);
      }
      const found = new Map<string, Array<{ ts: string; count: number }>>();
      for (const [range, ids] of byRange) {
        for (const [id, points] of await findEventSeries(ds, ids, range, now)) {
          found.set(
            `${range}|${id}`,
            points.map((p: SeriesPoint) => ({ ts: p.ts.toISOString(), count: p.count })),
          );
        }
      }
      return keys.map((k) => found.get(k) ?? []);
    }),
    environmentsByIssue: new DataLoader(async (ids) => {
      const found = await findIssueEnvironments(ds, ids);
      return ids.map((id) => found.get(id) ?? []);
    }),
    planByProject: new DataLoader(async (ids) => {
      const rows: Array<{ id: string; plan: PlanId }> = await ds.query(
        'SELECT p.id, o.plan FROM projects p JOIN organizations o ON o.id = p.organization_id WHERE p.id = ANY($1::uuid[])',
        [[...ids]],
      );
      const byId = new Map(rows.map((r) => [r.id, r.plan]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
    releaseHealth,
    userRef: new DataLoader(async (ids) => {
      const found = await findUserRefs(ds, ids);
      return ids.map((id) => found.get(id) ?? null);
    }),
    organizationsByUser: new DataLoader(async (userIds) => {
      const memberships = await ds.manager.find(Membership, {
        where: { userId: In([...userIds]) },
        order: { createdAt: 'ASC' },
      });
      const orgs = await ds.manager.findBy(Organization, { id: In(memberships.map((m) => m.organizationId)) });
      const byId = new Map(orgs.map((o) => [o.id, o]));
      return userIds.map((u) =>
        memberships
          .filter((m) => m.userId === u)
          .map((m) => byId.get(m.organizationId)!)
          .filter(Boolean),
      );
    }),
  };
}
