import { z } from 'zod';
import { cutText } from '../normalize';
import { bounded, isPlainObject } from './bounded-value';

/** Breadcrumbs kept per event: the newest ones (Sentry's SDKs keep 100 too). */
export const MAX_BREADCRUMBS = 100;
export const MAX_BREADCRUMB_CATEGORY_CHARS = 64;
export const MAX_BREADCRUMB_MESSAGE_CHARS = 1_024;
export const BREADCRUMB_LEVELS = ['debug', 'info', 'warning', 'error', 'fatal'] as const;
export type BreadcrumbLevel = (typeof BREADCRUMB_LEVELS)[number];

/** One step before the error, as stored: oldest first in the event's list. */
export interface Breadcrumb {
  /** ISO 8601, as sent, or converted from epoch seconds. */
  timestamp: string;
  category: string;
  message?: string;
  level?: BreadcrumbLevel;
  /** Free-form, bounded (bounded-value.ts) and scrubbed like `context`. */
  data?: Record<string, unknown>;
}

const DATETIME = z.regexes.datetime({ offset: true });
const LEVELS: ReadonlySet<string> = new Set(BREADCRUMB_LEVELS);
const FIELDS: ReadonlySet<string> = new Set(['timestamp', 'category', 'message', 'level', 'data']);

/** `breadcrumbs.dropped` in the event's `_meta`: why some were left out. */
export const DROPPED_BREADCRUMBS_REASON = `beyond the newest ${MAX_BREADCRUMBS}, or without a timestamp`;

/**
 * The breadcrumbs to store from what was sent: the newest MAX_BREADCRUMBS that have a usable
 * timestamp (ISO 8601 with an offset, or a number of epoch seconds as Sentry sends), oldest
 * first, each field bounded; `dropped` counts the others. Like tags, they are extras: one bad
 * breadcrumb is dropped, never the event. A missing category becomes `default`, an unknown level
 * and a `data` that is not an object are left out. Returns `raw` itself when it was already in
 * this form (the canonical checks test exactly that).
 */
export function limitBreadcrumbs(raw: readonly unknown[]): { breadcrumbs: Breadcrumb[]; dropped: number } {
  const kept: Breadcrumb[] = [];
  let same = raw.length <= MAX_BREADCRUMBS;
  for (let i = raw.length - 1; i >= 0 && kept.length < MAX_BREADCRUMBS; i--) {
    const crumb = breadcrumbOf(raw[i]);
    if (crumb === null) {
      same = false;
      continue;
    }
    if (crumb !== raw[i]) same = false;
    kept.push(crumb);
  }
  if (same) return { breadcrumbs: raw as Breadcrumb[], dropped: 0 };
  kept.reverse();
  return { breadcrumbs: kept, dropped: raw.length - kept.length };
}

function breadcrumbOf(v: unknown): Breadcrumb | null {
  if (!isPlainObject(v)) return null;
  if (isStored(v)) return v as unknown as Breadcrumb;
  const timestamp = timestampOf(v.timestamp);
  if (timestamp === undefined) return null;
  const category =
    typeof v.category === 'string' && v.category.length > 0
      ? cutText(v.category, MAX_BREADCRUMB_CATEGORY_CHARS)
      : 'default';
  const out: Breadcrumb = { timestamp, category };
  const message = typeof v.message === 'string' ? cutText(v.message, MAX_BREADCRUMB_MESSAGE_CHARS) : undefined;
  if (message !== undefined) out.message = message;
  if (typeof v.level === 'string' && LEVELS.has(v.level)) out.level = v.level as BreadcrumbLevel;
  const data = isPlainObject(v.data) ? (bounded(v.data) as Record<string, unknown>) : undefined;
  if (data !== undefined) out.data = data;
  let fields = 0;
  for (const key in v) {
    if (!FIELDS.has(key)) return out;
    fields++;
  }
  const kept = 2 + (message === undefined ? 0 : 1) + (out.level === undefined ? 0 : 1) + (data === undefined ? 0 : 1);
  const unchanged =
    timestamp === v.timestamp &&
    category === v.category &&
    message === v.message &&
    out.level === v.level &&
    data === v.data &&
    fields === kept;
  return unchanged ? (v as unknown as Breadcrumb) : out;
}

/**
 * Already exactly what `breadcrumbOf` would build: checked field by field without building
 * anything, because nearly every breadcrumb an SDK sends is, and this runs for each of them on
 * the edge's fast path (issue 29 bounds what 50 breadcrumbs may add to a request's CPU).
 */
function isStored(v: Record<string, unknown>): boolean {
  let fields = 0;
  for (const key in v) {
    const x = v[key];
    switch (key) {
      case 'timestamp':
        if (typeof x !== 'string' || !DATETIME.test(x)) return false;
        break;
      case 'category':
        if (typeof x !== 'string' || x.length === 0 || x.length > MAX_BREADCRUMB_CATEGORY_CHARS) return false;
        break;
      case 'message':
        if (typeof x !== 'string' || x.length > MAX_BREADCRUMB_MESSAGE_CHARS) return false;
        break;
      case 'level':
        if (typeof x !== 'string' || !LEVELS.has(x)) return false;
        break;
      case 'data':
        if (!isPlainObject(x) || bounded(x) !== x) return false;
        break;
      default:
        return false;
    }
    fields++;
  }
  // Both required: a missing category becomes `default`, a missing timestamp drops the crumb.
  return fields >= 2 && typeof v.timestamp === 'string' && typeof v.category === 'string';
}

/** ISO 8601 text as sent, or epoch seconds (a number) as ISO; undefined for anything else. */
export function timestampOf(v: unknown): string | undefined {
  // zod's pattern checks month lengths and leap days and allows 4-digit years only, so every
  // text it accepts is a date `Date.parse` reads too: no second parse (it cost 5x the pattern,
  // per breadcrumb, on the edge's fast path).
  if (typeof v === 'string') return DATETIME.test(v) ? v : undefined;
  if (typeof v === 'number' && Number.isFinite(v)) {
    const date = new Date(v * 1000);
    return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
  }
  return undefined;
}
