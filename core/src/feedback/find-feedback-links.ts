import type { DataSource } from 'typeorm';
import { In } from 'typeorm';
import { Event, Issue } from '../entities';

/** A project-scoped key: ids chosen by clients are unique per project only. */
export const projectKeyOf = (projectId: string, id: string) => `${projectId}:${id}`;

/**
 * The stored events that feedback names, by (project, SDK event id), in one query for a page.
 * Keyed by `projectKeyOf(projectId, eventId)`; feedback whose event has not arrived (or was
 * purged) has no entry.
 */
export async function findEventsByEventId(
  ds: DataSource,
  keys: ReadonlyArray<{ projectId: string; eventId: string }>,
): Promise<Map<string, Event>> {
  if (keys.length === 0) return new Map();
  // An OR of (project_id, event_id) pairs: each one probes the unique index on that pair.
  const events = await ds.manager.find(Event, {
    where: keys.map((k) => ({ projectId: k.projectId, eventId: k.eventId })),
  });
  return new Map(events.map((e) => [projectKeyOf(e.projectId, e.eventId), e]));
}

/** Issues by id within their projects, keyed by `projectKeyOf(projectId, issueId)`. */
export async function findIssuesInProjects(
  ds: DataSource,
  keys: ReadonlyArray<{ projectId: string; issueId: string }>,
): Promise<Map<string, Issue>> {
  if (keys.length === 0) return new Map();
  const issues = await ds.manager.findBy(Issue, { id: In(keys.map((k) => k.issueId)) });
  const wanted = new Set(keys.map((k) => projectKeyOf(k.projectId, k.issueId)));
  return new Map(
    issues.filter((i) => wanted.has(projectKeyOf(i.projectId, i.id))).map((i) => [projectKeyOf(i.projectId, i.id), i]),
  );
}
