import type { DataSource } from 'typeorm';
import { AppError } from '../errors';
import { storeSourceMaps, type SourceMapFile } from '../releases/source-maps';
import { isPlainMapFilename, validateSourceMap } from '../symbolication';
import { MAX_BUNDLE_BYTES, MAX_CHUNKS_PER_BUNDLE } from './chunk-limits';
import { concatenateChunks, deleteChunks, findMissingChunks, isSha1Hex, sha1Hex } from './chunks';
import { storeDebugIdMaps, type DebugIdMap } from './debug-id-maps';
import { debugIdOfMap, normalizeDebugId } from './debug-ids';
import { BundleError, unpackArtifactBundle, type BundleFile } from './unpack-bundle';
import { queryRows } from '../db/query-rows';

/**
 * sentry-cli's states (`ChunkedFileState`): `not_found` with `missingChunks` asks it to upload
 * those chunks and ask again; `ok` and `error` end its polling. Assembly here is synchronous
 * (a 64 MB bundle at most), so `created` and `assembling` are never answered.
 */
export type AssembleState = 'ok' | 'not_found' | 'error';

export interface AssembleResult {
  state: AssembleState;
  missingChunks: string[];
  detail: string | null;
}

export interface AssembleInput {
  organizationId: string;
  projectId: string;
  /** sha1 of the whole bundle. */
  checksum: string;
  /** sha1 of each chunk, in order. */
  chunks: string[];
  /** The release the maps also belong to (`version`, else the bundle's `release` attribute). */
  release?: string | null;
  dist?: string | null;
}

const WANTED = new Set(['source_map', 'minified_source']);

/**
 * `POST …/artifactbundle/assemble/` (and the release-bound variant): joins the chunks the
 * organization uploaded, checks the whole checksum, unpacks the zip within its limits, and stores
 * every source map by its debug ID and, when a release is named, by release and file name, in one
 * transaction; then forgets the chunks. Asking again for an assembled bundle answers `ok`.
 * A refused bundle answers `error` with `detail` and stores nothing; its chunks wait out their 24 h.
 */
export async function assembleArtifactBundle(ds: DataSource, input: AssembleInput): Promise<AssembleResult> {
  const checksum = input.checksum.toLowerCase();
  if (!isSha1Hex(checksum)) throw new AppError('BAD_USER_INPUT', 'checksum: must be a sha1 (40 hex digits)');
  const chunks = input.chunks.map((c) => (typeof c === 'string' ? c.toLowerCase() : c));
  if (chunks.length === 0) throw new AppError('BAD_USER_INPUT', 'chunks: must name at least one chunk');
  if (chunks.length > MAX_CHUNKS_PER_BUNDLE) {
    throw new AppError('PAYLOAD_TOO_LARGE', `chunks: at most ${MAX_CHUNKS_PER_BUNDLE} per bundle`);
  }
  chunks.forEach((c, i) => {
    if (!isSha1Hex(c)) throw new AppError('BAD_USER_INPUT', `chunks[${i}]: must be a sha1 (40 hex digits)`);
  });
  const done = await queryRows(ds, 'SELECT 1 FROM artifact_bundles WHERE project_id = $1 AND checksum = $2', [
    input.projectId,
    checksum,
  ]);
  if (done.length > 0) return { state: 'ok', missingChunks: [], detail: null };

  const missing = await findMissingChunks(ds, input.organizationId, chunks);
  if (missing.length > 0) return { state: 'not_found', missingChunks: missing, detail: null };
  const bytes = await concatenateChunks(ds, input.organizationId, chunks);
  if (bytes === null)
    return {
      state: 'not_found',
      missingChunks: await findMissingChunks(ds, input.organizationId, chunks),
      detail: null,
    };
  if (bytes.length > MAX_BUNDLE_BYTES) return failed(`the bundle is larger than ${MAX_BUNDLE_BYTES / 1024 / 1024} MB`);
  const actual = sha1Hex(bytes);
  if (actual !== checksum) return failed(`the chunks join into a file with sha1 ${actual}, not ${checksum}`);

  let prepared: { release: string | null; dist: string | null; byDebugId: DebugIdMap[]; byName: SourceMapFile[] };
  try {
    const bundle = unpackArtifactBundle(bytes, WANTED);
    prepared = prepareMaps(bundle.files, input.release ?? bundle.attributes.release ?? null);
    prepared.dist = input.dist ?? bundle.attributes.dist ?? null;
  } catch (error) {
    if (error instanceof BundleError) return failed(error.message);
    if (error instanceof AppError && error.code === 'BAD_USER_INPUT') return failed(error.message);
    throw error;
  }
  await ds.transaction(async (em) => {
    await storeDebugIdMaps(em, input.projectId, prepared.byDebugId);
    if (prepared.release !== null) {
      await storeSourceMaps(em, { projectId: input.projectId, release: prepared.release, files: prepared.byName });
    }
    await em.query(
      `INSERT INTO artifact_bundles (project_id, checksum, release, dist, file_count) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (project_id, checksum) DO NOTHING`,
      [input.projectId, checksum, prepared.release, prepared.dist, prepared.byDebugId.length + prepared.byName.length],
    );
  });
  await deleteChunks(ds, input.organizationId, chunks);
  return { state: 'ok', missingChunks: [], detail: null };
}

function failed(detail: string): AssembleResult {
  return { state: 'error', missingChunks: [], detail };
}

/**
 * The bundle's maps, validated, each under its debug ID (the map's `debug-id` header, else the
 * minified file's that points at it, else the map's own `debug_id`) and, with a release, under
 * the basename of each minified file that names it in its `Sourcemap` header (else its own name).
 */
function prepareMaps(files: BundleFile[], release: string | null) {
  const maps = files.filter((f) => f.type === 'source_map');
  const minified = files.filter((f) => f.type === 'minified_source');
  const byDebugId = new Map<string, DebugIdMap>();
  const byName = new Map<string, SourceMapFile>();
  for (const map of maps) {
    const parsed = validateSourceMap(map.url || map.path, map.content);
    const mapBase = basename(map.url || map.path);
    const sources = minified.filter(
      (m) => m.headers.sourcemap !== undefined && basename(m.headers.sourcemap) === mapBase,
    );
    const debugId =
      normalizeDebugId(map.headers['debug-id']) ??
      sources.map((m) => normalizeDebugId(m.headers['debug-id'])).find((d) => d !== null) ??
      debugIdOfMap(parsed);
    if (debugId !== null)
      byDebugId.set(debugId, { debugId, filename: (map.url || map.path).slice(0, 1024), map: map.content });
    if (release === null) continue;
    const names = sources.length > 0 ? sources.map((m) => basename(m.url || m.path)) : [mapBase];
    for (const name of names) if (isPlainMapFilename(name)) byName.set(name, { filename: name, map: map.content });
  }
  return { release, dist: null as string | null, byDebugId: [...byDebugId.values()], byName: [...byName.values()] };
}

/** `~/assets/app.js?v=1` → `app.js`. */
function basename(url: string): string {
  const path = url.replace(/[?#].*$/s, '');
  return path.slice(path.lastIndexOf('/') + 1);
}
