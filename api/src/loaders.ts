import DataLoader from 'dataloader';
import {
  findFeedbackForIssues,
  findLatestEvents,
  findPrimaryKeys,
  listProjects,
  IssueRelease,
  Membership,
  Organization,
  Release,
  type Event,
  type Feedback,
  type Project,
  type ProjectKey,
} from '@tracker/core';
import type { DataSource } from 'typeorm';
import { In } from 'typeorm';

/** Batch per request, so a list costs one query per relation, not one per row. */
export interface Loaders {
  latestEvent: DataLoader<string, Event | null>;
  feedbackByIssue: DataLoader<string, Feedback[]>;
  primaryKey: DataLoader<string, ProjectKey | null>;
  projectsByOrganization: DataLoader<string, Project[]>;
  organizationsByUser: DataLoader<string, Organization[]>;
  releaseById: DataLoader<string, Release | null>;
  /** An issue's releases, most recently seen first. */
  releasesByIssue: DataLoader<string, IssueRelease[]>;
}

export function createLoaders(ds: DataSource): Loaders {
  return {
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
    projectsByOrganization: new DataLoader(async (ids) => {
      const projects = await listProjects(ds, [...ids]);
      return ids.map((id) => projects.filter((p) => p.organizationId === id));
    }),
    releaseById: new DataLoader(async (ids) => {
      const rows = await ds.manager.findBy(Release, { id: In([...ids]) });
      const byId = new Map(rows.map((r) => [r.id, r]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
    releasesByIssue: new DataLoader(async (ids) => {
      const rows = await ds.manager.find(IssueRelease, { where: { issueId: In([...ids]) }, order: { lastSeen: 'DESC' } });
      return ids.map((id) => rows.filter((r) => r.issueId === id));
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
