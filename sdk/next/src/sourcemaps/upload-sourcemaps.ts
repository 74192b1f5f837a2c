import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { basename, relative, resolve } from 'node:path';
import { SDK_VERSION } from '../version';
import { UploadSourceMapsError } from './errors';
import { debugIdOfMap, findSourceMaps, findUploadNames } from './find-source-maps';
import { bodyOverheadBytes, planBatches, type PlannedFile } from './plan-batches';
import { postBatch } from './post-batch';
import { dsnOrigin, resolveSettings, type Env } from './resolve-settings';

/** The wire contract's limits for `POST /ingest/sourcemaps` (docs/wire.md): per request. */
export const MAX_FILES_PER_REQUEST = 50;
/** 10 MB of JSON body, as the ingest edge counts it (MB = 1024 × 1024 bytes, as its 1 MB event limit). */
export const MAX_BYTES_PER_REQUEST = 10 * 1024 * 1024;

const DEFAULT_RETRY_DELAYS_MS = [1_000, 3_000];
const DEFAULT_TIMEOUT_MS = 120_000;

export interface UploadLogger {
  info(message: string): void;
  warn(message: string): void;
}

export interface UploadSourceMapsOptions {
  /**
   * The build output folder, searched recursively (`node_modules` and `.git` skipped; links not
   * followed). Default: `.next` in the current directory; without one, it fails with `NO_DIR`
   * rather than search the whole project.
   */
  dir?: string;
  /** Default: `TRACKER_RELEASE`, then `NEXT_PUBLIC_TRACKER_RELEASE`, then `VERCEL_GIT_COMMIT_SHA`. */
  release?: string;
  /** Default: `TRACKER_DSN`. Only its origin is used: the upload goes to `<origin>/ingest/sourcemaps`. */
  dsn?: string;
  /** An upload token, `etu_…`. Default: `TRACKER_AUTH_TOKEN`. */
  authToken?: string;
  /** Where the variables above are read. Default: `process.env`. */
  env?: Env;
  /** Progress and the summary. Default: the console, prefixed `tracker-upload-sourcemaps:`; `null` for silence. */
  logger?: UploadLogger | null;
  /** @internal Tests only: retry delays and the per-request timeout. */
  _internal?: { retryDelaysMs?: number[]; timeoutMs?: number };
}

export interface UploadSourceMapsResult {
  /** `uploaded`; `skipped` when the token, DSN or release is missing; `empty` when no map was found. */
  status: 'uploaded' | 'skipped' | 'empty';
  /** The folder searched (absolute). */
  dir: string;
  release?: string;
  /** For `skipped`: what was missing. */
  missing: string[];
  /** `.js.map` files found. */
  found: number;
  /** Upload entries sent: identical copies under one name count once; a map two scripts point at counts twice. */
  files: number;
  /** Requests sent. */
  batches: number;
  /** JSON body bytes sent, over all requests. */
  bytes: number;
  /** The sum of the server's `stored` answers. */
  stored: number;
  /** Maps set aside because alone they exceed the 10 MB body limit (paths relative to `dir`). */
  oversized: string[];
  /** Map files deleted from the build output. */
  deleted: number;
}

const PREFIX = 'tracker-upload-sourcemaps: ';
const CONSOLE_LOGGER: UploadLogger = {
  info: (message) => console.log(PREFIX + message),
  warn: (message) => console.error(PREFIX + message),
};
const SILENT: UploadLogger = { info() {}, warn() {} };

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

const plural = (n: number, word: string) => `${n} ${word}${n == 1 ? '' : 's'}`;

function resolveDir(dir: string | undefined): string {
  if (dir == null || dir == '') {
    const next = resolve('.next');
    if (isDirectory(next)) return next;
    throw new UploadSourceMapsError(
      'NO_DIR',
      'no folder given and there is no .next folder here: pass the build output folder, e.g. tracker-upload-sourcemaps dist',
    );
  }
  const absolute = resolve(dir);
  if (!isDirectory(absolute)) throw new UploadSourceMapsError('NO_DIR', `${dir} is not a folder`);
  return absolute;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

interface ReadMap extends PlannedFile {
  hash: string;
}

/**
 * Reads every map once (one at a time: only its size and hash are kept), checks it is a source
 * map, groups by upload name (`findUploadNames`: the basename of the script pointing at it, else
 * its own) and sets aside those too large for any request. Throws `CONFLICT` when one name has
 * different contents and `INVALID_MAP` for a file that is not a map, both before anything is sent.
 */
async function planFiles(paths: string[], dir: string, release: string, maxBytes: number) {
  const debugIds = new Map<string, string>();
  const uploadNames = await findUploadNames(dir, paths, debugIds);
  const byName = new Map<string, ReadMap[]>();
  const invalid: string[] = [];
  for (const path of paths) {
    const text = await readFile(path, 'utf8');
    let map: any;
    try {
      map = JSON.parse(text);
    } catch {
      map = null;
    }
    if (!map || typeof map != 'object' || (typeof map.mappings != 'string' && !Array.isArray(map.sections))) {
      invalid.push(relative(dir, path));
      continue;
    }
    const hash = createHash('sha256').update(text).digest('hex');
    const debugId = debugIds.get(path) ?? debugIdOfMap(map);
    for (const filename of uploadNames.get(path) ?? [basename(path)]) {
      const entryBytes = Buffer.byteLength(JSON.stringify({ filename, map: text, ...(debugId ? { debugId } : {}) }));
      const list = byName.get(filename) ?? [];
      list.push({ filename, path, entryBytes, hash, ...(debugId ? { debugId } : {}) });
      byName.set(filename, list);
    }
  }
  if (invalid.length > 0) {
    throw new UploadSourceMapsError(
      'INVALID_MAP',
      `not a source map (not JSON, or no "mappings"): ${invalid.join(', ')}; nothing was uploaded or deleted`,
    );
  }
  const conflicts: string[] = [];
  const unique: PlannedFile[] = [];
  for (const [filename, copies] of byName) {
    if (new Set(copies.map((copy) => copy.hash)).size > 1) {
      conflicts.push(`${filename} (${copies.map((copy) => relative(dir, copy.path)).join(', ')})`);
    } else {
      unique.push(copies[0]);
    }
  }
  if (conflicts.length > 0) {
    throw new UploadSourceMapsError(
      'CONFLICT',
      `different source maps share an upload name, and the server stores maps by name: ${conflicts.join('; ')}. ` +
        'Give them distinct names (content hashes in file names) or upload the folders separately; nothing was uploaded or deleted',
    );
  }
  const overhead = bodyOverheadBytes(release);
  const fitting = unique.filter((file) => overhead + file.entryBytes <= maxBytes);
  const oversized = unique.filter((file) => overhead + file.entryBytes > maxBytes);
  return { fitting, oversized, overhead };
}

async function deleteMaps(paths: string[], dir: string): Promise<number> {
  const failed: string[] = [];
  for (const path of paths) {
    try {
      await rm(path, { force: true });
    } catch (error) {
      failed.push(`${relative(dir, path)} (${error instanceof Error ? error.message : String(error)})`);
    }
  }
  if (failed.length > 0) {
    throw new UploadSourceMapsError(
      'DELETE_FAILED',
      `could not delete ${plural(failed.length, 'source map')} from the build output: ${failed.join(', ')}`,
    );
  }
  return paths.length;
}

/**
 * Uploads every `*.js.map` under the build output folder for one release
 * (`POST <DSN origin>/ingest/sourcemaps`, `Authorization: Bearer <token>`, bodies of at most
 * 50 files and 10 MB), then deletes the maps from the folder so they are not served. The
 * `.js` files are left untouched (their `//# sourceMappingURL=` comments too).
 *
 * Without a token, DSN or release it skips the upload, says what was missing, and still
 * deletes the maps. On any failure it throws `UploadSourceMapsError` and deletes nothing, so
 * a second run can upload the same maps.
 */
export async function uploadSourceMaps(options: UploadSourceMapsOptions = {}): Promise<UploadSourceMapsResult> {
  const logger = options.logger === null ? SILENT : (options.logger ?? CONSOLE_LOGGER);
  const dir = resolveDir(options.dir);
  const shown = relative(process.cwd(), dir) || '.';
  const settings = resolveSettings(options, options.env ?? process.env);
  const result: UploadSourceMapsResult = {
    status: 'uploaded',
    dir,
    release: settings.release,
    missing: settings.missing,
    found: 0,
    files: 0,
    batches: 0,
    bytes: 0,
    stored: 0,
    oversized: [],
    deleted: 0,
  };

  const paths = await findSourceMaps(dir);
  result.found = paths.length;
  if (paths.length == 0) {
    logger.info(`no .js.map files under ${shown}; nothing to upload`);
    return { ...result, status: 'empty' };
  }

  if (settings.missing.length > 0) {
    logger.warn(
      `skipped the upload of ${plural(paths.length, 'source map')}: ${settings.missing.join(', ')} ` +
        `${settings.missing.length == 1 ? 'is' : 'are'} not set`,
    );
    result.deleted = await deleteMaps(paths, dir);
    logger.info(`deleted ${plural(result.deleted, 'source map')} from ${shown}`);
    return { ...result, status: 'skipped' };
  }

  const release = settings.release!;
  const origin = dsnOrigin(settings.dsn!);
  const { fitting, oversized, overhead } = await planFiles(paths, dir, release, MAX_BYTES_PER_REQUEST);
  for (const file of oversized) {
    logger.warn(
      `${relative(dir, file.path)} is ${formatBytes(file.entryBytes)} as JSON, over the ${formatBytes(MAX_BYTES_PER_REQUEST)} ` +
        'request limit: not uploaded (it is deleted with the others; errors in its chunk will not be de-minified)',
    );
  }
  result.oversized = oversized.map((file) => relative(dir, file.path));

  const batches = planBatches(fitting, overhead, MAX_FILES_PER_REQUEST, MAX_BYTES_PER_REQUEST);
  const url = origin + '/ingest/sourcemaps';
  const internal = options._internal ?? {};
  logger.info(
    `uploading ${plural(fitting.length, 'source map')} for release ${release} (from ${settings.releaseSource}) to ${url} in ${plural(batches.length, 'request')}`,
  );
  for (const [index, batch] of batches.entries()) {
    const files: { filename: string; map: string; debugId?: string }[] = [];
    for (const file of batch) {
      const map = await readFile(file.path, 'utf8');
      files.push(
        file.debugId ? { filename: file.filename, map, debugId: file.debugId } : { filename: file.filename, map },
      );
    }
    const body = JSON.stringify({ release, files });
    const bytes = Buffer.byteLength(body);
    // Planned from the same contents; only a map rewritten meanwhile could break the limit.
    if (bytes > MAX_BYTES_PER_REQUEST) {
      throw new UploadSourceMapsError(
        'INVALID_MAP',
        'a source map changed while uploading; nothing was deleted, run the upload again',
      );
    }
    let answer: any;
    try {
      answer = await postBatch({
        url,
        authToken: settings.authToken!,
        body,
        userAgent: `tracker-upload-sourcemaps/${SDK_VERSION} node/${process.versions.node}`,
        retryDelaysMs: internal.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
        timeoutMs: internal.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        onRetry: (reason, delay, retry, retries) =>
          logger.warn(
            `request ${index + 1} of ${batches.length}: ${reason}; retry ${retry} of ${retries} in ${delay} ms`,
          ),
      });
    } catch (error) {
      if (error instanceof UploadSourceMapsError) {
        const sent =
          index == 0 ? '' : ` (${plural(index, 'earlier request')} succeeded; they are sent again on the next run)`;
        error.message = `request ${index + 1} of ${batches.length}: ${error.message}${sent}. No source map was deleted, so the upload can be retried`;
      }
      throw error;
    }
    const stored = answer && typeof answer.stored == 'number' ? answer.stored : batch.length;
    if (stored != batch.length)
      logger.warn(`request ${index + 1} of ${batches.length}: sent ${batch.length} maps, the server stored ${stored}`);
    result.batches++;
    result.files += batch.length;
    result.bytes += bytes;
    result.stored += stored;
  }
  logger.info(
    `uploaded ${plural(result.files, 'source map')} for release ${release}: ${plural(result.batches, 'request')}, ` +
      `${formatBytes(result.bytes)} (${result.bytes} bytes); the server stored ${result.stored}` +
      (oversized.length ? `; ${oversized.length} over the size limit not uploaded` : ''),
  );
  result.deleted = await deleteMaps(paths, dir);
  logger.info(`deleted ${plural(result.deleted, 'source map')} from ${shown}`);
  return result;
}
