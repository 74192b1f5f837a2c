import type { DataSource, EntityManager } from 'typeorm';
import { auditSourceOf, recordAudit } from '../audit/record-audit';
import { requireProjectAccess, type Caller } from '../access';
import { applyInboundFilterChanges } from './validate';
import {
  INBOUND_FILTERS,
  inboundFilterSettingsOf,
  type InboundFilterName,
  type InboundFilterSettings,
} from './settings';

/** The window of the counts shown in settings. */
export const INBOUND_FILTER_COUNT_DAYS = 30;

export interface ProjectInboundFilters {
  projectId: string;
  settings: InboundFilterSettings;
  /** Events each filter dropped in the last 30 days (UTC days, today included), every filter listed. */
  dropped: Array<{ filter: InboundFilterName; count: number }>;
}

/** Any member reads the filters and what they dropped. */
export async function findProjectInboundFilters(
  ds: DataSource,
  caller: Caller,
  projectId: string,
  now: Date = new Date(),
): Promise<ProjectInboundFilters> {
  const { project } = await requireProjectAccess(ds, caller, projectId, 'read', 'see inbound filters');
  return {
    projectId: project.id,
    settings: await readSettings(ds, project.id),
    dropped: await readCounts(ds, project.id, now),
  };
}

/**
 * Owners and admins change the filters (ADMIN scope for tokens: a filter loses events). Fields
 * left out keep their value; bad input throws BAD_USER_INPUT and saves nothing
 * (validate.ts). The answering server applies it at once; other edges within their key cache's TTL.
 */
export async function updateProjectInboundFilters(
  ds: DataSource,
  caller: Caller,
  projectId: string,
  changes: Partial<InboundFilterSettings>,
  options: { confirmDropAll?: boolean; now?: Date } = {},
): Promise<ProjectInboundFilters> {
  const { project } = await requireProjectAccess(ds, caller, projectId, 'admin', 'change inbound filters');
  const settings = await ds.transaction(async (em) => {
    // One writer at a time per project: two admins' partial changes both land.
    await em.query('SELECT id FROM projects WHERE id = $1 FOR UPDATE', [project.id]);
    const before = await readSettings(em, project.id);
    const next = applyInboundFilterChanges(before, changes, options.confirmDropAll === true);
    await em.query(
      `INSERT INTO project_inbound_filters (project_id, settings, updated_at) VALUES ($1, $2::jsonb, now())
       ON CONFLICT (project_id) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at`,
      [project.id, JSON.stringify(next)],
    );
    await recordAudit(em, {
      organizationId: project.organizationId,
      ...auditSourceOf(caller),
      action: 'project.inbound_filters_changed',
      target: { type: 'project', id: project.id, label: project.name },
      changes: { before: { ...before }, after: { ...next } },
    });
    return next;
  });
  return { projectId: project.id, settings, dropped: await readCounts(ds, project.id, options.now ?? new Date()) };
}

async function readSettings(on: DataSource | EntityManager, projectId: string): Promise<InboundFilterSettings> {
  const rows: Array<{ settings: unknown }> = await on.query(
    'SELECT settings FROM project_inbound_filters WHERE project_id = $1',
    [projectId],
  );
  return inboundFilterSettingsOf(rows[0]?.settings);
}

async function readCounts(
  ds: DataSource,
  projectId: string,
  now: Date,
): Promise<Array<{ filter: InboundFilterName; count: number }>> {
  const since = new Date(now.getTime() - (INBOUND_FILTER_COUNT_DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
  const rows: Array<{ filter: string; count: string }> = await ds.query(
    `SELECT filter, sum(count)::text AS count FROM inbound_filter_counts
      WHERE project_id = $1 AND day >= $2::date GROUP BY filter`,
    [projectId, since],
  );
  const by = new Map(rows.map((r) => [r.filter, Number(r.count)]));
  return INBOUND_FILTERS.map((filter) => ({ filter, count: by.get(filter) ?? 0 }));
}

/** What the worker adds from the edges' count jobs. */
export interface InboundFilterCount {
  projectId: string;
  filter: InboundFilterName;
  /** UTC day the drops happened, `YYYY-MM-DD`. */
  day: string;
  count: number;
}

/**
 * Adds a batch's counts in one statement (summed first: one row per key, as ON CONFLICT
 * needs). Counts of a project deleted meanwhile are skipped, never a failed batch.
 */
export async function addInboundFilterCounts(em: EntityManager, counts: readonly InboundFilterCount[]): Promise<void> {
  if (counts.length === 0) return;
  const sums = new Map<string, InboundFilterCount>();
  for (const c of counts) {
    const key = `${c.projectId} ${c.filter} ${c.day}`;
    const hit = sums.get(key);
    if (hit) hit.count += c.count;
    else sums.set(key, { ...c });
  }
  const rows = [...sums.values()];
  await em.query(
    `INSERT INTO inbound_filter_counts (project_id, filter, day, count)
     SELECT c.project_id, c.filter, c.day, c.count
       FROM unnest($1::uuid[], $2::text[], $3::date[], $4::bigint[]) AS c(project_id, filter, day, count)
       JOIN projects p ON p.id = c.project_id
     ON CONFLICT (project_id, filter, day) DO UPDATE SET count = inbound_filter_counts.count + excluded.count`,
    [rows.map((r) => r.projectId), rows.map((r) => r.filter), rows.map((r) => r.day), rows.map((r) => r.count)],
  );
}
