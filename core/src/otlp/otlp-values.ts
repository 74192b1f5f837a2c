import { DEPTH_MARKER, MAX_VALUE_DEPTH, storableText } from '../events/normalize';
import { isObject, type JsonObject } from '../sentry/sentry-values';

/**
 * Every string read is storable (`storableText`: NUL and lone surrogates mended), so a mapped
 * body needs no `normalizeJson` pass for its strings (ingest's canonical check relies on it).
 *
 * Readers for OTLP messages in either encoding, so that one mapper serves both: a message
 * decoded from protobuf (protobufjs: int64 as `Long`, bytes as `Uint8Array`, defaults on the
 * prototype) and the same message read from OTLP/JSON (int64 as decimal strings or numbers,
 * trace and span ids as hex strings, enums as numbers). Nothing here throws: what cannot be
 * read is `undefined`, and the mapper decides whether a record is refused.
 */

/** A protobufjs `Long` (only the parts read here). */
interface LongLike {
  low: number;
  high: number;
  unsigned?: boolean;
}

function isLong(v: unknown): v is LongLike {
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof (v as LongLike).low === 'number' &&
    typeof (v as LongLike).high === 'number'
  );
}

/** An int64/uint64/fixed64 value as a JS number (exact below 2^53; nanosecond times lose < 1 µs). */
export function numberOf(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string') {
    if (!/^-?\d{1,20}$/.test(v)) return undefined;
    return Number(v);
  }
  if (isLong(v)) {
    const high = v.unsigned ? v.high >>> 0 : v.high;
    return high * 4_294_967_296 + (v.low >>> 0);
  }
  return undefined;
}

/** An int64 as exact decimal text (attribute values: an id in an int64 must not be rounded). */
function int64Text(v: unknown): string | number | undefined {
  if (typeof v === 'number') return Number.isSafeInteger(v) ? v : undefined;
  if (typeof v === 'string') return /^-?\d{1,20}$/.test(v) ? v : undefined;
  if (isLong(v)) {
    const n = numberOf(v)!;
    if (Number.isSafeInteger(n)) return n;
    return BigInt.asIntN(64, (BigInt(v.high >>> 0) << 32n) | BigInt(v.low >>> 0)).toString();
  }
  return undefined;
}

/**
 * `time_unix_nano` as ISO 8601, or undefined for 0 (OTLP's "unset") and for what is no time.
 * How far off it may be is the worker's rule (`clampTimestamp`), as for every other door.
 */
export function isoOfUnixNano(v: unknown): string | undefined {
  const nanos = numberOf(v);
  if (nanos === undefined || nanos <= 0) return undefined;
  const ms = Math.floor(nanos / 1e6);
  // The records of one batch are mostly of the same few milliseconds: the last text is kept.
  if (ms === lastIso.ms) return lastIso.text;
  const date = new Date(ms);
  if (Number.isNaN(date.getTime())) return undefined;
  lastIso = { ms, text: date.toISOString() };
  return lastIso.text;
}

let lastIso = { ms: NaN, text: '' };

const HEX = /^[0-9a-f]*$/i;

/**
 * A trace id (16 bytes) or span id (8 bytes) as lower-case hex; `''` when absent (empty, or all
 * zero: OTLP's "invalid id"); `null` for an id of the wrong length or not hex, which the caller
 * notes instead of storing.
 */
export function hexIdOf(v: unknown, bytes: 16 | 8): string | null {
  let hex: string;
  if (v instanceof Uint8Array) return hexOfBytes(v, bytes);
  if (typeof v === 'string') hex = v.toLowerCase();
  else if (v === undefined || v === null) return '';
  else return null;
  if (hex === '' || /^0+$/.test(hex)) return hex.length === 0 || hex.length === bytes * 2 ? '' : null;
  return hex.length === bytes * 2 && HEX.test(hex) ? hex : null;
}

/** `hexIdOf` for protobuf's bytes, whose hex needs no check: only its length and zeros decide. */
function hexOfBytes(v: Uint8Array, bytes: 16 | 8): string | null {
  let zero = true;
  for (let i = 0; i < v.length && zero; i++) zero = v[i] === 0;
  if (zero) return v.length === 0 || v.length === bytes ? '' : null;
  return v.length === bytes ? Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex') : null;
}

/**
 * An `AnyValue` as plain JSON: strings, booleans, numbers (int64 beyond 2^53 as exact text),
 * bytes as base64, arrays and key-value lists as arrays and objects. Nested deeper than
 * MAX_VALUE_DEPTH, the rest is DEPTH_MARKER, as the JSON doors cut deep values (normalize.ts).
 */
export function valueOf(v: unknown, depth = 0): unknown {
  if (!isObject(v)) return null;
  // protobufjs puts the oneof's fields on the prototype as null: read the set one.
  if (typeof v.stringValue === 'string') return storableText(v.stringValue);
  if (typeof v.boolValue === 'boolean') return v.boolValue;
  if (v.intValue !== undefined && v.intValue !== null) return int64Text(v.intValue) ?? null;
  if (v.doubleValue !== undefined && v.doubleValue !== null) {
    const d = typeof v.doubleValue === 'string' ? Number(v.doubleValue) : v.doubleValue;
    return typeof d === 'number' && Number.isFinite(d) ? d : String(d);
  }
  if (v.bytesValue instanceof Uint8Array) return Buffer.from(v.bytesValue).toString('base64');
  if (typeof v.bytesValue === 'string') return storableText(v.bytesValue);
  if (isObject(v.arrayValue)) {
    if (depth >= MAX_VALUE_DEPTH) return DEPTH_MARKER;
    const values = Array.isArray(v.arrayValue.values) ? v.arrayValue.values : [];
    return values.map((item) => valueOf(item, depth + 1));
  }
  if (isObject(v.kvlistValue)) {
    if (depth >= MAX_VALUE_DEPTH) return DEPTH_MARKER;
    return attributesOf(v.kvlistValue.values, depth + 1);
  }
  return null;
}

/** `[{key, value: AnyValue}]` → `{key: value}`; entries without a string key are skipped. */
export function attributesOf(list: unknown, depth = 0): JsonObject {
  const out: JsonObject = {};
  if (!Array.isArray(list)) return out;
  for (const kv of list) {
    if (!isObject(kv) || typeof kv.key !== 'string' || kv.key === '') continue;
    const key = storableText(kv.key);
    // Assigned, `__proto__` would set the object's prototype instead of a key: dropped, as the
    // Sentry door drops it (decision 028's edge normalization).
    if (key === '__proto__') continue;
    out[key] = valueOf(kv.value, depth);
  }
  return out;
}

/** A value as the text of a tag, release or environment; undefined unless a non-empty scalar. */
export function scalarText(v: unknown): string | undefined {
  if (typeof v === 'string') return v.trim() === '' ? undefined : storableText(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}
