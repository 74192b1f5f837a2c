import { z } from 'zod';

/**
 * Small readers for Sentry payloads: SDKs of every language and age send slightly different
 * shapes (numbers as strings, `null` for absent, lists where objects were meant), and the rule
 * is to coerce what can be understood rather than refuse the item (issue 17).
 */

export type JsonObject = Record<string, unknown>;

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function objectOf(v: unknown): JsonObject | undefined {
  return isObject(v) ? v : undefined;
}

/** A non-empty string, a number or a boolean as text; anything else undefined. */
export function textOf(v: unknown): string | undefined {
  if (typeof v === 'string') return v.length > 0 ? v : undefined;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v === 'boolean') return String(v);
  return undefined;
}

/** Any value as text: strings as they are, other JSON values serialized (`{"a":1}`). */
export function stringify(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === undefined) return '';
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

const HEX32 = /^[0-9a-f]{32}$/i;
// What our schemas' `.uuid()` accepts (RFC 9562 version and variant bits), so a mapped id is never refused.
const UUID = z.regexes.uuid();

/**
 * Sentry's 32-hex event id (or a dashed UUID) as our UUID, lower case; undefined for anything
 * else, and for 32 hex digits that are no RFC 9562 UUID (the SDKs send UUID v4s): the edge then
 * assigns an id rather than refuse the event.
 */
export function uuidOfEventId(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  const dashed = HEX32.test(v)
    ? `${v.slice(0, 8)}-${v.slice(8, 12)}-${v.slice(12, 16)}-${v.slice(16, 20)}-${v.slice(20)}`
    : v;
  return UUID.test(dashed) ? dashed.toLowerCase() : undefined;
}

/** Our UUID in Sentry's form (32 hex, no dashes). */
export function sentryIdOf(uuid: string): string {
  return uuid.replaceAll('-', '');
}

const HAS_ZONE = /(?:[zZ]|[+-]\d{2}(?::?\d{2})?)$/;

/**
 * A Sentry timestamp (epoch seconds, possibly fractional, or an RFC 3339 text, with or without
 * a zone: without one it is UTC, as Relay reads it) as ISO 8601; undefined when it is no date.
 * How far off it may be is the worker's rule (`clampTimestamp`), as for our own events.
 */
export function isoTimestampOf(v: unknown): string | undefined {
  let ms: number;
  if (typeof v === 'number') ms = v * 1000;
  else if (typeof v === 'string' && /^\d+(?:\.\d+)?$/.test(v)) ms = Number(v) * 1000;
  else if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(v)) ms = Date.parse(HAS_ZONE.test(v) ? v : `${v}Z`);
  else return undefined;
  if (!Number.isFinite(ms)) return undefined;
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** Sentry tags: an object, or a list of `[key, value]` pairs (older SDKs); values as text. */
export function tagsOf(v: unknown): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  if (Array.isArray(v)) {
    for (const pair of v) {
      if (Array.isArray(pair) && pair.length === 2 && typeof pair[0] === 'string') out[pair[0]] = tagValue(pair[1]);
    }
  } else if (isObject(v)) {
    for (const [k, value] of Object.entries(v)) if (value !== null && value !== undefined) out[k] = tagValue(value);
  } else {
    return undefined;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function tagValue(v: unknown): string {
  return stringify(v);
}
