import type { DataSource } from 'typeorm';
import { requireProjectAccess, type Caller } from '../access';

/** A release string events carried that the project never registered (issue 31: "seen, not registered"). */
export interface UnregisteredRelease {
  version: string;
  /** Environments its events came from, by name. */
  environments: string[];
  firstSeen: Date;
  lastSeen: Date;
  /** Error events that carried it (issue_releases' counters). */
  eventCount: number;
}

/**
 * Versions seen on error events but not registered in any environment, most recently seen first
 * (at most `first`, 1 to 200). Read from `issue_releases`, the per-issue release counters the worker
 * keeps, through the project's issues (index on issues.project_id): its cost grows with the
 * project's issues × releases, never with its events, so a page view does not scan 10M events.
 */
export async function listUnregisteredReleases(
  ds: DataSource,
  caller: Caller,
  projectId: string,
  options: { first?: number } = {},
): Promise<UnregisteredRelease[]> {
  const { project } = await requireProjectAccess(ds, caller, projectId, 'read', 'see releases');
  const first = Math.min(Math.max(Math.trunc(options.first ?? 50), 1), 200);
  const rows: Array<{
    version: string;
    environments: string[];
    first_seen: Date;
    last_seen: Date;
    event_count: string;
  }> = await ds.query(
    `SELECT ir.release AS version, array_agg(DISTINCT ir.environment ORDER BY ir.environment) AS environments,
              min(ir.first_seen) AS first_seen, max(ir.last_seen) AS last_seen, sum(ir.event_count)::text AS event_count
         FROM issues i JOIN issue_releases ir ON ir.issue_id = i.id
        WHERE i.project_id = $1
          AND NOT EXISTS (SELECT 1 FROM releases r WHERE r.project_id = $1 AND r.version = ir.release)
        GROUP BY ir.release
        ORDER BY max(ir.last_seen) DESC, ir.release
        LIMIT $2`,
    [project.id, first],
  );
  return rows.map((r) => ({
    version: r.version,
    environments: r.environments,
    firstSeen: new Date(r.first_seen),
    lastSeen: new Date(r.last_seen),
    eventCount: Number(r.event_count),
  }));
}
