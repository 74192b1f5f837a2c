import { unzipSync, type UnzipFileInfo } from 'fflate';

/**
 * Limits on an artifact bundle's zip, checked on the central directory before anything is
 * inflated, so a zip bomb costs a directory read: entry count, total declared uncompressed size,
 * and the ratio of each large entry (real JavaScript and maps deflate 3–15×).
 */
export const MAX_BUNDLE_ENTRIES = 5_000;
export const MAX_BUNDLE_UNCOMPRESSED_BYTES = 256 * 1024 * 1024;
export const MAX_ENTRY_RATIO = 100;
/** Entries below this size are not ratio-checked: tiny files prove nothing either way. */
const RATIO_CHECKED_FROM_BYTES = 64 * 1024;
const MAX_MANIFEST_BYTES = 8 * 1024 * 1024;

/** One file of a bundle as its `manifest.json` describes it. */
export interface BundleFile {
  /** The path inside the zip (`files/_/_/app.js`). */
  path: string;
  /** `minified_source`, `source_map`, `source`, … as sentry-cli writes it. */
  type: string;
  /** The file's URL as the app loads it (`~/app.js`). */
  url: string;
  /** Header names lowercased: `debug-id`, `sourcemap`. */
  headers: Record<string, string>;
  content: string;
}

export interface UnpackedBundle {
  files: BundleFile[];
  /** The bundle's own attributes (`org`, `release`, `dist`, `debug_id`). */
  attributes: Record<string, string>;
}

/** A bundle that is refused: the message is what the assemble answer's `detail` says. */
export class BundleError extends Error {
  override name = 'BundleError';
}

/**
 * A name that could escape a folder if someone ever wrote it to disk: empty, absolute, a drive
 * letter, a backslash, a `..` segment, or a control character. Refused whole, never cleaned.
 */
export function isUnsafeBundlePath(name: string): boolean {
  if (name.length === 0 || name.length > 1024) return true;
  if (name.startsWith('/') || name.includes('\\') || /^[A-Za-z]:/.test(name)) return true;
  if (/[\u0000-\u001f]/.test(name)) return true;
  return name.split('/').some((segment) => segment === '..');
}

/**
 * Reads a sentry-cli artifact bundle (a zip, possibly behind symbolic's 8-byte `SYSB` header,
 * with `manifest.json`). Throws `BundleError` for anything it refuses: not a zip, no manifest,
 * too many entries, too large or too compressed (a zip bomb), unsafe names, a manifest naming
 * a file the zip lacks. Files whose type is not wanted are not inflated.
 */
export function unpackArtifactBundle(bytes: Uint8Array, wantedTypes: ReadonlySet<string>): UnpackedBundle {
  const entries = new Map<string, UnzipFileInfo>();
  let declared = 0;
  let problem: string | null = null;
  const check = (file: UnzipFileInfo): string | null => {
    if (entries.size > MAX_BUNDLE_ENTRIES) return `more than ${MAX_BUNDLE_ENTRIES} entries`;
    if (isUnsafeBundlePath(file.name)) return `unsafe entry name ${JSON.stringify(file.name.slice(0, 200))}`;
    declared += file.originalSize;
    if (declared > MAX_BUNDLE_UNCOMPRESSED_BYTES) {
      return `more than ${MAX_BUNDLE_UNCOMPRESSED_BYTES / 1024 / 1024} MB once uncompressed`;
    }
    if (file.originalSize >= RATIO_CHECKED_FROM_BYTES && file.originalSize > file.size * MAX_ENTRY_RATIO) {
      return `entry ${JSON.stringify(file.name.slice(0, 200))} expands ${Math.round(file.originalSize / Math.max(file.size, 1))}× (at most ${MAX_ENTRY_RATIO}×): a zip bomb?`;
    }
    return null;
  };
  // First pass: the central directory only (the filter says no to every entry).
  try {
    unzipSync(bytes, {
      filter: (file) => {
        entries.set(file.name, file);
        problem ??= check(file);
        return false;
      },
    });
  } catch (error) {
    throw new BundleError(`not a readable zip file (${(error as Error).message})`);
  }
  if (problem !== null) throw new BundleError(`bundle refused: ${problem}`);
  if (!entries.has('manifest.json')) throw new BundleError('bundle refused: no manifest.json');

  const manifest = parseManifest(inflate(bytes, new Set(['manifest.json'])).get('manifest.json')!);
  const wantedPaths = new Set<string>();
  for (const [path, info] of Object.entries(manifest.files)) {
    if (isUnsafeBundlePath(path))
      throw new BundleError(`bundle refused: unsafe file name ${JSON.stringify(path.slice(0, 200))} in manifest.json`);
    if (!entries.has(path))
      throw new BundleError(
        `bundle refused: manifest.json names ${JSON.stringify(path.slice(0, 200))}, which the zip lacks`,
      );
    if (wantedTypes.has(info.type)) wantedPaths.add(path);
  }
  const contents = inflate(bytes, wantedPaths);
  const files: BundleFile[] = [];
  for (const path of wantedPaths) {
    const info = manifest.files[path];
    files.push({ path, type: info.type, url: info.url, headers: info.headers, content: contents.get(path)! });
  }
  return { files, attributes: manifest.attributes };
}

/** Inflates the named entries. fflate sizes each output by the declared size, so a lying entry is cut, not grown. */
function inflate(bytes: Uint8Array, names: ReadonlySet<string>): Map<string, string> {
  let out: Record<string, Uint8Array>;
  try {
    out = unzipSync(bytes, { filter: (file) => names.has(file.name) });
  } catch (error) {
    throw new BundleError(`bundle refused: an entry could not be inflated (${(error as Error).message})`);
  }
  const decoder = new TextDecoder('utf-8', { fatal: false });
  return new Map(Object.entries(out).map(([name, data]) => [name, decoder.decode(data)]));
}

interface Manifest {
  files: Record<string, { type: string; url: string; headers: Record<string, string> }>;
  attributes: Record<string, string>;
}

function parseManifest(text: string): Manifest {
  if (text.length > MAX_MANIFEST_BYTES) throw new BundleError('bundle refused: manifest.json is larger than 8 MB');
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new BundleError('bundle refused: manifest.json is not JSON');
  }
  const files: Manifest['files'] = {};
  const rawFiles = isRecord(raw) && isRecord(raw.files) ? raw.files : null;
  if (rawFiles === null) throw new BundleError('bundle refused: manifest.json has no "files" object');
  for (const [path, entry] of Object.entries(rawFiles)) {
    if (!isRecord(entry))
      throw new BundleError(
        `bundle refused: manifest.json entry ${JSON.stringify(path.slice(0, 200))} is not an object`,
      );
    const headers: Record<string, string> = {};
    if (isRecord(entry.headers)) {
      for (const [k, v] of Object.entries(entry.headers)) if (typeof v === 'string') headers[k.toLowerCase()] = v;
    }
    files[path] = {
      type: typeof entry.type === 'string' ? entry.type : '',
      url: typeof entry.url === 'string' ? entry.url : '',
      headers,
    };
  }
  const attributes: Record<string, string> = {};
  if (isRecord(raw) && isRecord(raw.attributes)) {
    for (const [k, v] of Object.entries(raw.attributes)) if (typeof v === 'string') attributes[k] = v;
  }
  return { files, attributes };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
