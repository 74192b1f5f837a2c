import { open, readdir } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';

/** Folders never searched: installed packages ship their own maps, which are not build output. */
const SKIPPED_FOLDERS = new Set(['node_modules', '.git']);
/** Built JavaScript whose `sourceMappingURL` comment names its map. */
const SCRIPT_SUFFIXES = ['.js', '.mjs', '.cjs'];
/** The comment is the file's last line; a few KB from the end always hold it. */
const TAIL_BYTES = 4096;
const MAP_COMMENT = /\/\/[#@][ \t]*sourceMappingURL=([^\s'"]+)\s*$/;
/** What `sentry-cli sourcemaps inject` (and Sentry's bundler plugins) write above that comment. */
const DEBUG_ID_COMMENT =
  /^\/\/# debugId=([0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12})\s*$/m;

/** Every file under `dir` whose name ends with one of `suffixes`, recursively, sorted. Links are not followed. */
async function findFiles(dir: string, suffixes: string[]): Promise<string[]> {
  const found: string[] = [];
  const walk = async (folder: string): Promise<void> => {
    const entries = await readdir(folder, { withFileTypes: true });
    for (const entry of entries) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name)) await walk(path);
      } else if (entry.isFile() && suffixes.some((suffix) => entry.name.endsWith(suffix))) {
        found.push(path);
      }
    }
  };
  await walk(dir);
  return found.sort();
}

/**
 * Every `*.js.map` file under `dir`, recursively, as absolute paths in a stable (sorted) order.
 * Symbolic links are not followed (a linked folder could lead outside the build output).
 */
export function findSourceMaps(dir: string): Promise<string[]> {
  return findFiles(dir, ['.js.map']);
}

async function readTail(path: string): Promise<string> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    const length = Math.min(size, TAIL_BYTES);
    const buffer = Buffer.alloc(length);
    await file.read(buffer, 0, length, size - length);
    return buffer.toString('utf8');
  } finally {
    await file.close();
  }
}

/**
 * The names each map must be uploaded under. The server finds a map by the basename of the
 * minified file a stack frame names (`0cz1d0mv5g_q7.js` → `0cz1d0mv5g_q7.js.map`), but some
 * bundlers give maps unrelated names (Next 16's Turbopack: `0cz1d0mv5g_q7.js` ends with
 * `//# sourceMappingURL=1-3l1u1ko108j.js.map`). So each script under `dir` is read for that
 * comment, and a map a script points at is named after the script (once per script pointing at
 * it); a map no script points at keeps its own basename. Inline `data:` maps are ignored.
 * When `debugIds` is given, it receives each map's debug ID from the script pointing at it.
 */
export async function findUploadNames(
  dir: string,
  maps: string[],
  debugIds?: Map<string, string>,
): Promise<Map<string, string[]>> {
  const known = new Set(maps);
  const names = new Map<string, string[]>();
  for (const script of await findFiles(dir, SCRIPT_SUFFIXES)) {
    const tail = await readTail(script);
    const match = MAP_COMMENT.exec(tail);
    if (!match || match[1].startsWith('data:')) continue;
    let target: string;
    try {
      target = resolve(dirname(script), decodeURIComponent(match[1].split(/[?#]/, 1)[0]));
    } catch {
      continue; // a malformed %-escape: not a map we can match
    }
    if (!known.has(target)) continue;
    // The script's debug ID (`//# debugId=`) goes with its map: the server then finds the map
    // by the ID Sentry's SDKs send, whatever the release (decision 044).
    const debugId = DEBUG_ID_COMMENT.exec(tail);
    if (debugId && debugIds && !debugIds.has(target)) debugIds.set(target, debugId[1].toLowerCase());
    const list = names.get(target) ?? [];
    list.push(basename(script) + '.map');
    names.set(target, list);
  }
  for (const map of maps) if (!names.has(map)) names.set(map, [basename(map)]);
  return names;
}

/** A map's own debug ID (`debug_id`, or `debugId` as newer tools write it), when it has one. */
export function debugIdOfMap(map: { debug_id?: unknown; debugId?: unknown }): string | undefined {
  const id = typeof map.debug_id == 'string' ? map.debug_id : typeof map.debugId == 'string' ? map.debugId : '';
  return /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i.test(id) ? id.toLowerCase() : undefined;
}
