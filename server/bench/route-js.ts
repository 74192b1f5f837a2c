import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** What Remix's Vite build records about one route's client module (`build.assets.routes[id]`). */
interface ManifestRoute {
  id: string;
  parentId?: string;
  module: string;
  imports?: string[];
}

interface ServerBuild {
  assets: { url: string; entry: { module: string; imports: string[] }; routes: Record<string, ManifestRoute> };
  routes: Record<string, { module: Record<string, unknown> }>;
  future: { v3_lazyRouteDiscovery?: boolean };
}

export interface RouteJs {
  routeId: string;
  /** The route renders something (it has a default export); resource routes do not. */
  hasComponent: boolean;
  /** Every script the page's HTML loads or module-preloads, in the order Remix writes them. */
  files: string[];
  gzipBytes: number;
  rawBytes: number;
}

/**
 * JavaScript shipped per page, from the web build's manifest, as Remix's `<Scripts>` lists it for
 * a document request: the entry client and its imports, then for every route matched (the route
 * and its parents up to `root`) the route module and its imports; plus the full route manifest
 * only when lazy route discovery is off (with it on, a partial manifest is inlined in the HTML).
 * Each file gzipped on its own (zlib default level, as a server or CDN would), then summed.
 */
export async function measureRouteJs(): Promise<{ routes: RouteJs[]; buildDir: string }> {
  const webRoot = dirname(require.resolve('@tracker/web/package.json'));
  const build = (await import(join(webRoot, 'build/server/index.js'))) as ServerBuild;
  const clientDir = join(webRoot, 'build/client');
  const sizes = new Map<string, { raw: number; gzip: number }>();
  const sizeOf = (path: string) => {
    let s = sizes.get(path);
    if (!s) {
      const bytes = readFileSync(join(clientDir, path));
      s = { raw: bytes.length, gzip: gzipSync(bytes).length };
      sizes.set(path, s);
    }
    return s;
  };
  const manifest = build.assets;
  const routes = Object.values(manifest.routes).map((route): RouteJs => {
    const chain: ManifestRoute[] = [];
    for (let r: ManifestRoute | undefined = route; r; r = r.parentId ? manifest.routes[r.parentId] : undefined)
      chain.unshift(r);
    const files = new Set<string>();
    if (!build.future.v3_lazyRouteDiscovery) files.add(manifest.url);
    files.add(manifest.entry.module);
    for (const f of manifest.entry.imports) files.add(f);
    for (const r of chain) for (const f of [...(r.imports ?? []), r.module]) files.add(f);
    const list = [...files];
    return {
      routeId: route.id,
      hasComponent: typeof build.routes[route.id]?.module.default === 'function',
      files: list,
      gzipBytes: list.reduce((n, f) => n + sizeOf(f).gzip, 0),
      rawBytes: list.reduce((n, f) => n + sizeOf(f).raw, 0),
    };
  });
  routes.sort((a, b) => b.gzipBytes - a.gzipBytes);
  return { routes, buildDir: clientDir };
}

/** The scripts a served HTML document references (`<link rel="modulepreload">`, `<script src>`), for a cross-check. */
export function scriptsInHtml(html: string): string[] {
  const found = new Set<string>();
  for (const m of html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)) found.add(m[1]);
  for (const m of html.matchAll(/<script[^>]*src="([^"]+)"/g)) found.add(m[1]);
  // The inline module script: `import * as route0 from "…"` per matched route, `import("…")` of the entry.
  for (const m of html.matchAll(/(?:from\s*|import\()"(\/assets\/[^"]+\.js)"/g)) found.add(m[1]);
  return [...found].filter((f) => f.endsWith('.js'));
}
