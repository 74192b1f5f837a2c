import { cutText, DEPTH_MARKER } from '../normalize';

/** Members kept of an object or an array inside free-form evidence (breadcrumb data, request data). */
export const MAX_DATA_MEMBERS = 50;
/** Texts inside free-form evidence are cut to this many UTF-16 units. */
export const MAX_DATA_TEXT_CHARS = 1_024;
/** Levels of objects and arrays kept below the evidence field itself (`data.a.b.c` is 3). */
export const MAX_DATA_DEPTH = 3;

/**
 * A JSON value bounded for storage: texts cut, the first MAX_DATA_MEMBERS members of each
 * object and array kept, nesting past `levels` replaced by `"[depth limit]"`. The value itself
 * when nothing needed changing, so a bounded value is recognised by identity (`bounded(v) === v`):
 * what the worker's and the edge's canonical checks rely on.
 */
export function bounded(value: unknown, levels = MAX_DATA_DEPTH, maxText = MAX_DATA_TEXT_CHARS): unknown {
  if (typeof value === 'string') return cutText(value, maxText);
  if (value === null || typeof value !== 'object') return value;
  if (levels <= 0) return DEPTH_MARKER;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined = value.length > MAX_DATA_MEMBERS ? value.slice(0, MAX_DATA_MEMBERS) : undefined;
    const n = Math.min(value.length, MAX_DATA_MEMBERS);
    for (let i = 0; i < n; i++) {
      const v = bounded(value[i], levels - 1, maxText);
      if (v !== value[i]) (out ??= value.slice(0, n))[i] = v;
    }
    return out ?? value;
  }
  const source = value as Record<string, unknown>;
  const keys = Object.keys(source);
  const n = Math.min(keys.length, MAX_DATA_MEMBERS);
  // The copy is made only once something changes: most data is already bounded, and this runs
  // for every breadcrumb on the edge's fast path.
  let out: Record<string, unknown> | undefined = keys.length > MAX_DATA_MEMBERS ? {} : undefined;
  for (let i = 0; i < n; i++) {
    const key = keys[i];
    const k = cutText(key, MAX_DATA_TEXT_CHARS);
    const v = bounded(source[key], levels - 1, maxText);
    if (out === undefined && (k !== key || v !== source[key])) {
      out = {};
      for (let j = 0; j < i; j++) out[keys[j]] = source[keys[j]];
    }
    if (out !== undefined) out[k] = v;
  }
  return out ?? value;
}

/** A plain JSON object (not an array, not null). */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A text cut to `max`, from a string or any other JSON value serialized; undefined for null/undefined. */
export function textOfValue(v: unknown, max: number): string | undefined {
  if (v === null || v === undefined) return undefined;
  if (typeof v === 'string') return cutText(v, max);
  let s: string | undefined;
  try {
    s = JSON.stringify(v);
  } catch {
    s = undefined;
  }
  return cutText(s ?? String(v), max);
}
