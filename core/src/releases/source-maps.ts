import type { DataSource, EntityManager } from 'typeorm';
import { queryRows } from '../db/query-rows';

export interface SourceMapFile {
  filename: string;
  /** The map's JSON text, already validated. */
  map: string;
}

/**
 * Stores a batch in one statement (so all or none); a file of the same name in the same release
 * is replaced. Takes a transaction's manager too: an artifact bundle stores these beside its
 * debug-ID maps and its own record, all in one transaction.
 */
export async function storeSourceMaps(
  on: DataSource | EntityManager,
  input: { projectId: string; release: string; files: SourceMapFile[] },
): Promise<number> {
  if (input.files.length === 0) return 0;
  await on.query(
    `INSERT INTO source_maps (project_id, release, filename, map, size_bytes, uploaded_at)
     SELECT $1, $2, f.filename, f.map, octet_length(f.map), now() FROM unnest($3::text[], $4::text[]) AS f(filename, map)
     ON CONFLICT (project_id, release, filename)
       DO UPDATE SET map = excluded.map, size_bytes = excluded.size_bytes, uploaded_at = excluded.uploaded_at`,
    [input.projectId, input.release, input.files.map((f) => f.filename), input.files.map((f) => f.map)],
  );
  return input.files.length;
}

/**
 * The map for a frame's file in a release: stored under the bundle's name (`app.js`) or the
 * map's own (`app.js.map`); the exact name wins when both exist.
 */
export async function loadSourceMap(
  ds: DataSource,
  key: { projectId: string; release: string; filename: string },
): Promise<string | null> {
  const rows = await queryRows<{ map: string }>(
    ds,
    `SELECT map FROM source_maps WHERE project_id = $1 AND release = $2 AND filename IN ($3, $3 || '.map')
     ORDER BY filename = $3 DESC LIMIT 1`,
    [key.projectId, key.release, key.filename],
  );
  return rows[0]?.map ?? null;
}
