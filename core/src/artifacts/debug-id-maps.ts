import type { DataSource, EntityManager } from 'typeorm';
import { queryRows } from '../db/query-rows';

/** A source map stored under the debug ID of the bundle it describes. */
export interface DebugIdMap {
  debugId: string;
  /** The map's name as uploaded (a URL such as `~/assets/app.js.map`), for display. */
  filename: string;
  /** The map's JSON text, already validated. */
  map: string;
}

/** Stores maps by debug ID; the same ID uploaded again replaces the map (a rebuild, or a retry). */
export async function storeDebugIdMaps(
  on: DataSource | EntityManager,
  projectId: string,
  maps: DebugIdMap[],
): Promise<number> {
  if (maps.length === 0) return 0;
  await on.query(
    `INSERT INTO debug_id_source_maps (project_id, debug_id, filename, map, size_bytes, uploaded_at)
     SELECT $1, m.debug_id, m.filename, m.map, octet_length(m.map), now()
       FROM unnest($2::uuid[], $3::text[], $4::text[]) AS m(debug_id, filename, map)
     ON CONFLICT (project_id, debug_id)
       DO UPDATE SET filename = excluded.filename, map = excluded.map, size_bytes = excluded.size_bytes,
                     uploaded_at = excluded.uploaded_at`,
    [projectId, maps.map((m) => m.debugId), maps.map((m) => m.filename), maps.map((m) => m.map)],
  );
  return maps.length;
}

export async function loadSourceMapByDebugId(
  ds: DataSource,
  projectId: string,
  debugId: string,
): Promise<string | null> {
  const rows = await queryRows<{ map: string }>(
    ds,
    'SELECT map FROM debug_id_source_maps WHERE project_id = $1 AND debug_id = $2',
    [projectId, debugId],
  );
  return rows[0]?.map ?? null;
}

/** Which of the given (project, debug ID) pairs have a map, with its upload time (no map bodies). */
export async function findDebugIdMapTimes(
  ds: DataSource,
  pairs: Array<{ projectId: string; debugId: string }>,
): Promise<Array<{ projectId: string; debugId: string; uploadedAt: number }>> {
  if (pairs.length === 0) return [];
  const rows = await queryRows<{ project_id: string; debug_id: string; uploaded_at: Date }>(
    ds,
    `SELECT m.project_id, m.debug_id, m.uploaded_at
       FROM debug_id_source_maps m JOIN unnest($1::uuid[], $2::uuid[]) AS k(project_id, debug_id)
         ON m.project_id = k.project_id AND m.debug_id = k.debug_id`,
    [pairs.map((p) => p.projectId), pairs.map((p) => p.debugId)],
  );
  return rows.map((r) => ({
    projectId: r.project_id,
    debugId: r.debug_id,
    uploadedAt: new Date(r.uploaded_at).getTime(),
  }));
}
