import type { DataSource } from 'typeorm';
import { queryRows } from '../db/query-rows';

/** Files or bundles one list of the release detail page may return (`first` is clamped to it). */
export const MAX_RELEASE_FILES = 200;

/** A source map stored for the version (`/ingest/sourcemaps`, sentry-cli's release files or a bundle naming it). */
export interface ReleaseFile {
  filename: string;
  sizeBytes: number;
  uploadedAt: Date;
}

export interface ReleaseFileList {
  totalCount: number;
  /** Every file of the version, not only the page's. */
  totalBytes: number;
  /** Newest upload first, then by name; at most `first`. */
  nodes: ReleaseFile[];
}

/** An artifact bundle sentry-cli uploaded for the version (decision 044). */
export interface ReleaseArtifactBundle {
  /** The bundle's SHA-1, as sentry-cli names it. */
  checksum: string;
  dist: string | null;
  fileCount: number;
  assembledAt: Date;
}

const clamp = (first: number | undefined, fallback: number) =>
  Math.min(Math.max(Math.trunc(first ?? fallback), 1), MAX_RELEASE_FILES);

/**
 * The version's source maps: names, sizes and upload times, never the maps. One statement over
 * the `source_maps` primary key's (project, release) range. The caller may read the project.
 */
export async function readReleaseFiles(
  ds: DataSource,
  input: { projectId: string; version: string; first?: number },
): Promise<ReleaseFileList> {
  const rows = await queryRows<{
    filename: string | null;
    size_bytes: number | null;
    uploaded_at: Date | null;
    total: string;
    total_bytes: string;
  }>(
    ds,
    // The totals come from a subquery so they are there even when the page is empty.
    `SELECT f.filename, f.size_bytes, f.uploaded_at, t.total, t.total_bytes
       FROM (SELECT count(*) AS total, coalesce(sum(size_bytes), 0) AS total_bytes
               FROM source_maps WHERE project_id = $1 AND release = $2) t
       LEFT JOIN LATERAL (
         SELECT filename, size_bytes, uploaded_at FROM source_maps WHERE project_id = $1 AND release = $2
          ORDER BY uploaded_at DESC, filename LIMIT $3
       ) f ON true`,
    [input.projectId, input.version, clamp(input.first, 100)],
  );
  return {
    totalCount: Number(rows[0]?.total ?? 0),
    totalBytes: Number(rows[0]?.total_bytes ?? 0),
    nodes: rows
      .filter((r) => r.filename !== null)
      .map((r) => ({ filename: r.filename!, sizeBytes: r.size_bytes!, uploadedAt: new Date(r.uploaded_at!) })),
  };
}

/** The artifact bundles that named the version, newest first; at most `first`. The caller may read the project. */
export async function readReleaseArtifactBundles(
  ds: DataSource,
  input: { projectId: string; version: string; first?: number },
): Promise<ReleaseArtifactBundle[]> {
  const rows = await queryRows<{ checksum: string; dist: string | null; file_count: number; assembled_at: Date }>(
    ds,
    `SELECT checksum, dist, file_count, assembled_at FROM artifact_bundles WHERE project_id = $1 AND release = $2
      ORDER BY assembled_at DESC, checksum LIMIT $3`,
    [input.projectId, input.version, clamp(input.first, 25)],
  );
  return rows.map((r) => ({
    checksum: r.checksum,
    dist: r.dist,
    fileCount: r.file_count,
    assembledAt: new Date(r.assembled_at),
  }));
}
