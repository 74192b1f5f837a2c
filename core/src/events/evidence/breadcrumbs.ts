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
  const unchanged =
    timestamp === v.timestamp &&
    category === v.category &&
    message === v.message &&
    out.level === v.level &&
    data === v.data &&
    fields === Object.keys(out).length;
  return unchanged ? (v as unknown as Breadcrumb) : out;
}

/** ISO 8601 text as sent, or epoch seconds (a number) as ISO; undefined for anything else. */
export function timestampOf(v: unknown): string | undefined {
  if (typeof v === 'string') return DATETIME.test(v) && !Number.isNaN(Date.parse(v)) ? v : undefined;
  if (typeof v === 'number' && Number.isFinite(v)) {
    const date = new Date(v * 1000);
    return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
  }
  return undefined;
}
