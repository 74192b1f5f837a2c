/**
 * File names of uploaded source maps and how stack frames find them.
 *
 * The rule: an upload's `filename` must be a bare basename (`isPlainMapFilename`: no `/`, `\`,
 * `..`), and a map is found by the **minified file it describes**. The symbolicator asks
 * `loadMap` for the basename of the frame's file (`frameBasename`:
 * `https://cdn.example.com/assets/app.js?v=3` → `app.js`), and the store answers with the map
 * uploaded as `app.js` or as `app.js.map` — both upload spellings are accepted. A store can get
 * there by saving `normalizeMapFilename(upload)` (drops one trailing `.map`, so the two spellings
 * replace each other), or by keeping the name as uploaded and looking up both names, preferring the
 * exact one (what `loadSourceMap` in core/src/releases/source-maps.ts does). Either way it is one
 * lookup per (release, file), cached by the symbolicator.
 *
 * Not handled here: maps whose name is unrelated to the chunk's (linked only by a
 * `sourceMappingURL` comment, as Next 16's Turbopack writes them); they must be uploaded under
 * the chunk's name, which `tracker-upload-sourcemaps` does by reading those comments.
 */

/** Longer names are refused at upload: no real bundle name comes near it. */
export const MAX_MAP_FILENAME_LENGTH = 255;

/**
 * True for a bare basename such as `main.abc123.js.map` or `app.js`: not empty, at most
 * `MAX_MAP_FILENAME_LENGTH` characters, no path (`/`, `\`, `..`), no control characters, and not
 * just `.` or `.map`.
 */
export function isPlainMapFilename(filename: unknown): filename is string {
  if (typeof filename !== 'string') return false;
  if (filename.length === 0 || filename.length > MAX_MAP_FILENAME_LENGTH) return false;
  if (filename.includes('/') || filename.includes('\\') || filename.includes('..')) return false;
  if (/[\u0000-\u001f\u007f]/.test(filename)) return false;
  if (filename.trim() !== filename) return false;
  return filename !== '.' && normalizeMapFilename(filename) !== '';
}

/**
 * The name an upload is stored (and looked up) under: the minified file's basename, i.e. the
 * upload's name without one trailing `.map`. `app.js.map` → `app.js`; `app.js` → `app.js`.
 */
export function normalizeMapFilename(filename: string): string {
  return filename.endsWith('.map') ? filename.slice(0, -4) : filename;
}

/**
 * The basename of a frame's file, as maps are stored (see the module comment), or null when the
 * frame cannot have a map: no line or column, an engine marker (`native`, `<anonymous>`), a Node
 * built-in (`node:…`), or a name that is not a plain basename after the query and hash are cut.
 */
export function frameBasename(filename: string): string | null {
  if (!filename || filename.startsWith('node:') || filename.startsWith('<') || filename.startsWith('[')) {
    return null;
  }
  let end = filename.length;
  const query = filename.indexOf('?');
  if (query !== -1) end = query;
  const hash = filename.indexOf('#');
  if (hash !== -1 && hash < end) end = hash;
  const slash = Math.max(filename.lastIndexOf('/', end - 1), filename.lastIndexOf('\\', end - 1));
  const base = filename.slice(slash + 1, end);
  return base && isPlainMapFilename(base) && base !== 'native' && base !== 'native code' ? base : null;
}
