import { createHash } from 'node:crypto';
import type { VitalName } from '../events/vitals.schema';
import { isObject, objectOf, tagsOf, textOf, type JsonObject } from './sentry-values';

/**
 * The Web Vitals one tracing item carries, for one page load (decision 046). Sentry's browser SDKs
 * send a page load's vitals in pieces: @sentry/browser 8–10 put LCP, FCP, TTFB (and CLS) in the
 * `pageload` transaction's `measurements` and send INP later as a `span` item of the same trace;
 * 11 streams spans (`span` items, `application/vnd.sentry.items.span.v2+json`): the `pageload`
 * segment span carries FCP and TTFB as `browser.web_vital.*.value` attributes, and LCP, CLS and
 * INP follow at `pagehide` as spans of their own. Every piece of a page load gets the same
 * report id, derived from its trace id (a page load starts a trace), so the worker merges them
 * into one report.
 */
export interface SentryVitals {
  id: string;
  /** The page load itself (a `pageload` transaction or segment span): it names the page. */
  pageLoad: boolean;
  /** The page address as sent; the schema cuts it at `?` and `#`. */
  url?: string;
  metrics: Partial<Record<VitalName, number>>;
  environment?: string;
  release?: string;
  tags?: Record<string, unknown>;
}

/**
 * Beyond these a metric is no measurement of a page (an hour for a time; a CLS of 100 is a page
 * shifting its whole height a hundred times): the metric is dropped, the rest of the report kept.
 */
export const MAX_VITAL_MS = 3_600_000;
export const MAX_CLS = 100;

const NAMES: Record<string, VitalName> = { lcp: 'LCP', fcp: 'FCP', cls: 'CLS', ttfb: 'TTFB', inp: 'INP' };

/**
 * The vitals of a `transaction` or `span` item's payload, one entry per page load it touches;
 * empty when it holds none (any other transaction or span: dropped by the caller, and counted).
 */
export function mapSentryVitals(type: 'transaction' | 'span', payload: unknown): SentryVitals[] {
  if (!isObject(payload)) return [];
  if (type === 'transaction') {
    const one = vitalsOfTransaction(payload);
    return one ? [one] : [];
  }
  const spans = Array.isArray(payload.items) ? payload.items : [payload];
  const byId = new Map<string, SentryVitals>();
  for (const span of spans) {
    const found = isObject(span) ? vitalsOfSpan(span) : undefined;
    if (!found) continue;
    const seen = byId.get(found.id);
    byId.set(found.id, seen ? mergeVitals(seen, found) : found);
  }
  return [...byId.values()];
}

/** Two pieces of one page load: what the first has wins, the second fills the gaps. */
export function mergeVitals(a: SentryVitals, b: SentryVitals): SentryVitals {
  return {
    id: a.id,
    pageLoad: a.pageLoad || b.pageLoad,
    url: a.url ?? b.url,
    metrics: { ...b.metrics, ...a.metrics },
    environment: a.environment ?? b.environment,
    release: a.release ?? b.release,
    tags: a.tags ?? b.tags,
  };
}

function vitalsOfTransaction(t: JsonObject): SentryVitals | undefined {
  const trace = objectOf(objectOf(t.contexts)?.trace);
  const data = objectOf(trace?.data) ?? {};
  const op = textOf(trace?.op) ?? textOf(data['sentry.op']);
  const traceId = textOf(trace?.trace_id);
  if (op !== 'pageload' || traceId === undefined) return undefined;
  const metrics: SentryVitals['metrics'] = {};
  const measurements = objectOf(t.measurements) ?? {};
  for (const [key, name] of Object.entries(NAMES)) {
    const m = objectOf(measurements[key]);
    if (m) addMetric(metrics, name, m.value, textOf(m.unit));
  }
  if (Object.keys(metrics).length === 0) return undefined;
  const request = objectOf(t.request);
  return {
    id: reportIdOf(traceId),
    pageLoad: true,
    url: textOf(request?.url) ?? textOf(data['url.full']) ?? pathOf(textOf(t.transaction)),
    metrics,
    environment: textOf(t.environment),
    release: textOf(t.release),
    tags: tagsOf(t.tags),
  };
}

function vitalsOfSpan(span: JsonObject): SentryVitals | undefined {
  const traceId = textOf(span.trace_id);
  if (traceId === undefined) return undefined;
  // v2 (streamed, 11): `attributes: {key: {value, type}}`; v1 (8–10): `data` and `measurements`.
  const attributes = objectOf(span.attributes);
  const data = attributes ? attributeValues(attributes) : (objectOf(span.data) ?? {});
  const op = textOf(data['sentry.op']) ?? textOf(span.op);
  const metrics: SentryVitals['metrics'] = {};
  for (const [key, name] of Object.entries(NAMES)) {
    if (key in (objectOf(span.measurements) ?? {})) {
      const m = objectOf(objectOf(span.measurements)?.[key]);
      addMetric(metrics, name, m?.value, textOf(m?.unit));
    } else if (`browser.web_vital.${key}.value` in data) {
      addMetric(metrics, name, data[`browser.web_vital.${key}.value`], undefined);
    }
  }
  if (Object.keys(metrics).length === 0) return undefined;
  const pageLoad = op === 'pageload';
  return {
    id: reportIdOf(traceId),
    pageLoad,
    url: pageLoad ? (textOf(data['url.full']) ?? textOf(data['url.path'])) : undefined,
    metrics,
    environment: textOf(data['sentry.environment']) ?? textOf(data.environment),
    release: textOf(data['sentry.release']) ?? textOf(data.release),
  };
}

function attributeValues(attributes: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [key, a] of Object.entries(attributes)) out[key] = isObject(a) ? a.value : a;
  return out;
}

/** A finite number (a numeric text too), ms (seconds converted), within bounds; else left out. */
function addMetric(metrics: SentryVitals['metrics'], name: VitalName, value: unknown, unit: string | undefined): void {
  let n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  if (unit === 'second') n *= 1000;
  const max = name === 'CLS' ? MAX_CLS : MAX_VITAL_MS;
  if (Number.isFinite(n) && n >= 0 && n <= max) metrics[name] = n;
}

function pathOf(name: string | undefined): string | undefined {
  return name?.startsWith('/') ? name : undefined;
}

/**
 * The report id of a page load: a UUID (version 8, RFC 9562) of its trace id, so that every
 * piece sent for it lands on one row. Scoped by project in the table's key.
 */
export function reportIdOf(traceId: string): string {
  const h = createHash('sha256').update(`vitals:${traceId.toLowerCase()}`).digest('hex');
  const variant = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
