/**
 * The path of an original source as its developer wrote it, from the `sources` entry of a map.
 *
 * Bundlers write sources in their own spellings of "a file of this project": webpack's
 * `webpack://<namespace>/./src/app/cart.ts` and `webpack:///./src/…`, `webpack-internal:///./src/…`
 * in development, Vite's and Rollup's `../../src/app/cart.ts` (relative to the map, in
 * `dist/assets/`), Vite's `/@fs/<absolute path>` for files outside the root, Turbopack's
 * `[project]/src/…` and `turbopack:///[project]/src/…`, esbuild's `../src/…` and `file://` URLs.
 * All of those read `src/app/cart.ts` here. What is not a spelling of the project's own tree is
 * left as a path, only tidied: absolute paths (`/home/ci/app/src/x.ts`, `C:/app/src/x.ts`; which
 * folder is the project's root the map does not say), http(s) URLs, and markers such as
 * `[turbopack]/…` or `webpack/bootstrap`.
 *
 * Pure and idempotent: a path it wrote reads the same when given again, so it can be applied to
 * frames stored before it existed.
 */
export function sourcePathFromMap(source: string): string {
  if (!source) return source;
  let path = source.replace(/\\/g, '/');
  let scheme = '';
  const bundler = /^(webpack|webpack-internal|turbopack|rollup|vite):\/\/[^/]*\//i.exec(path);
  if (bundler) {
    // `webpack://<namespace>/` (the namespace is the package name, or empty), and the others.
    path = path.slice(bundler[0].length);
    scheme = bundler[1].toLowerCase();
    // webpack adds `?<hash>` to sources of loaders (`App.vue?4a5b`): not part of the file name.
    const query = path.indexOf('?');
    if (query !== -1) path = path.slice(0, query);
  } else if (/^file:\/\//i.test(path)) {
    path = decodeFilePath(path.slice('file://'.length));
  } else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path)) {
    return source; // http(s) and other URLs: where the browser fetched it, shown as such.
  }
  if (path.startsWith('/@fs/')) path = path.slice('/@fs'.length);
  if (path.startsWith('[project]/')) path = path.slice('[project]/'.length);
  const absolute = path.startsWith('/');
  const drive = /^[a-z]:\//i.exec(path)?.[0] ?? '';
  const segments: string[] = [];
  for (const segment of path.slice(drive.length).split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      // A `..` past the start (`../../src/x.ts`, relative to where the map was) names nothing
      // the developer sees: dropped. Inside the path (`src/a/../b.ts`) it goes up one folder.
      if (segments.length > 0 && segments[segments.length - 1] !== '..') segments.pop();
      continue;
    }
    segments.push(segment);
  }
  if (segments.length === 0) return source;
  const joined = segments.join('/');
  if (drive) return drive + joined;
  // Absolute file paths stay absolute; a bundler's URL (`webpack:///src/x.ts`) was never one.
  return absolute && scheme === '' ? `/${joined}` : joined;
}

function decodeFilePath(rest: string): string {
  // `file:///home/x` → `/home/x`; `file:///C:/x` → `C:/x`; a host (`file://server/share`) is kept as a folder.
  let path = rest.startsWith('/') ? rest : `//${rest}`;
  if (/^\/[a-z]:\//i.test(path)) path = path.slice(1);
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
