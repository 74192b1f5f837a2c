/**
 * Debug IDs as Sentry's JavaScript tooling writes them: a UUID that `sentry-cli sourcemaps
 * inject` (or a bundler plugin) puts in a bundle (`//# debugId=…`, and at run time in
 * `_sentryDebugIds`) and in its map (`debug_id` / `debugId`). The SDK sends it in the event's
 * `debug_meta.images` beside the bundle's URL, so the map is found without a release.
 */

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/** The canonical form (lowercase, dashed), or null when `value` is not a UUID. */
export function normalizeDebugId(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const v = value.trim();
  if (!UUID.test(v)) return null;
  const hex = v.replace(/-/g, '').toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The `//# debugId=…` comment of a bundle (the last one wins, as for `sourceMappingURL`). */
export function debugIdOfSource(source: string): string | null {
  const tail = source.length > 4096 ? source.slice(-4096) : source;
  const matches = [...tail.matchAll(/^\/\/# debugId=([0-9a-fA-F-]{32,36})\s*$/gm)];
  return normalizeDebugId(matches.at(-1)?.[1]);
}

/** The debug ID a source map carries itself (`debug_id`, or `debugId` as newer tools write it). */
export function debugIdOfMap(map: unknown): string | null {
  if (typeof map !== 'object' || map === null) return null;
  const m = map as Record<string, unknown>;
  return normalizeDebugId(m.debug_id) ?? normalizeDebugId(m.debugId);
}
