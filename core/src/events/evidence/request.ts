import { cutText } from '../normalize';
import { bounded, isPlainObject, textOfValue } from './bounded-value';

const MAX_METHOD_CHARS = 16;
const MAX_URL_CHARS = 2_048;
const MAX_QUERY_CHARS = 4_096;
const MAX_HEADERS = 100;
const MAX_HEADER_NAME_CHARS = 256;
const MAX_HEADER_VALUE_CHARS = 4_096;

/** The HTTP request an error happened in (server SDKs), scrubbed at the edge like `context`. */
// A type, not an interface: it must be assignable to the `Record<string, unknown>` it is parsed from.
export type EventRequest = {
  method?: string;
  url?: string;
  queryString?: string;
  headers?: Record<string, string>;
  /** The body as the SDK sent it, bounded (bounded-value.ts). */
  data?: unknown;
};

/**
 * The request to store: each field bounded, headers' values as text (the first 100 headers),
 * `data` bounded; undefined when nothing usable is left. `v` itself when already in this form.
 */
export function requestOf(v: unknown): EventRequest | undefined {
  if (!isPlainObject(v)) return undefined;
  const out: EventRequest = {};
  if (typeof v.method === 'string' && v.method.length > 0) out.method = cutText(v.method, MAX_METHOD_CHARS);
  if (typeof v.url === 'string' && v.url.length > 0) out.url = cutText(v.url, MAX_URL_CHARS);
  if (typeof v.queryString === 'string' && v.queryString.length > 0)
    out.queryString = cutText(v.queryString, MAX_QUERY_CHARS);
  const headers = headersOf(v.headers);
  if (headers !== undefined) out.headers = headers;
  if (v.data !== undefined && v.data !== null) out.data = bounded(v.data);
  if (Object.keys(out).length === 0) return undefined;
  let n = 0;
  for (const key in v) {
    n++;
    if ((out as Record<string, unknown>)[key] !== v[key]) return out;
  }
  return n === Object.keys(out).length ? (v as EventRequest) : out;
}

function headersOf(v: unknown): Record<string, string> | undefined {
  if (!isPlainObject(v)) return undefined;
  const keys = Object.keys(v);
  let changed = keys.length > MAX_HEADERS;
  const out: Record<string, string> = {};
  let n = 0;
  for (const key of keys) {
    if (n === MAX_HEADERS) break;
    const value = textOfValue(v[key], MAX_HEADER_VALUE_CHARS);
    if (value === undefined || key.length === 0) {
      changed = true;
      continue;
    }
    const k = cutText(key, MAX_HEADER_NAME_CHARS);
    if (k !== key || value !== v[key]) changed = true;
    out[k] = value;
    n++;
  }
  if (n === 0) return undefined;
  return changed ? out : (v as Record<string, string>);
}
