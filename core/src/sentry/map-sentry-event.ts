import { DEFAULT_FINGERPRINT_ENTRY } from '../grouping/fingerprint';
import { debugImagesOf } from './debug-meta';
import { isInAppFilename } from '../stacktrace';
import type { StackFrame } from '../stacktrace/stack-frame';
import {
  isObject,
  isoTimestampOf,
  objectOf,
  stringify,
  tagsOf,
  textOf,
  uuidOfEventId,
  type JsonObject,
} from './sentry-values';

/** Sentry's levels onto ours (`fatal`, `error`, `warning`, `info`). */
const LEVELS: Record<string, 'fatal' | 'error' | 'warning' | 'info'> = {
  fatal: 'fatal',
  critical: 'fatal',
  error: 'error',
  warning: 'warning',
  warn: 'warning',
  info: 'info',
  log: 'info',
  debug: 'info',
};

/** Frames read from one stack; the schema keeps the innermost 250. */
const MAX_FRAMES_READ = 1_000;
/** Causes read from one chain (the schema keeps the same number). */
const MAX_CAUSES = 10;

/**
 * A Sentry event (the payload of an `event` envelope item, or a `/store/` body) as the body of
 * our `/ingest/error` plus structured `frames`: the input of `queuedErrorEventSchema`, which
 * then cuts and checks it exactly as for our own SDKs. Never throws for a field it can coerce;
 * a field it cannot make sense of is left out (docs/sentry-compatibility.md).
 *
 * `headerEventId` is the envelope header's `event_id`, used when the payload has none.
 */
export function mapSentryEvent(event: JsonObject, headerEventId?: unknown): JsonObject {
  const exceptions = exceptionValues(event.exception);
  // Oldest first: the last one is what was thrown, the ones before it its causes.
  const primary = exceptions.at(-1);
  const message = messageOf(event);
  // Without a type: a message (`captureMessage`, with `attachStacktrace` an exception holding
  // only a stack), else an error that named no class.
  const type = textOf(primary?.type) ?? (primary && message === undefined ? 'Error' : 'Message');
  const value = textOf(primary?.value) ?? message;
  // Grouping reads the thrown exception's frames, as before causes were stored (decision 040).
  const frames = framesOf(
    objectOf(primary?.stacktrace) ?? objectOf(event.stacktrace) ?? threadStacktrace(event.threads),
  );
  const mechanism = objectOf(primary?.mechanism);
  const request = objectOf(event.request);
  const user = userOf(event.user);
  const sdk = objectOf(event.sdk);
  const out: JsonObject = {
    type,
    message: value ?? message ?? '',
    environment: textOf(event.environment) ?? 'production',
  };
  // An exception logged with a message of its own (`logging.exception("charging %s failed",
  // order)`): the exception stays the title, the log message is kept beside it.
  if (message !== undefined && textOf(primary?.value) !== undefined && message !== out.message) {
    out.logMessage = message;
  }
  const eventId = uuidOfEventId(event.event_id) ?? uuidOfEventId(headerEventId);
  if (eventId) out.eventId = eventId;
  const level = typeof event.level === 'string' ? LEVELS[event.level.toLowerCase()] : undefined;
  if (level) out.level = level;
  const release = textOf(event.release);
  if (release) out.release = release;
  if (frames.length > 0) {
    out.frames = frames;
    // For display, and for a worker of the previous version during a rolling deploy (it reads
    // `stack` and ignores `frames`); this version's worker takes the frames above as they are.
    out.stack = stackTextOf(type, String(out.message), frames);
  }
  const fingerprint = fingerprintOf(event.fingerprint);
  if (fingerprint) out.fingerprint = fingerprint;
  const tags = tagsOf(event.tags);
  if (tags) out.tags = tags;
  const context = contextOf(event);
  if (context) out.context = context;
  const causes = causesOf(exceptions);
  if (causes.length > 0) out.causes = causes;
  // Debug IDs of the bundles (decision 044): the worker finds maps by them before the release.
  const debugImages = debugImagesOf(event.debug_meta);
  if (debugImages.length > 0) out.debugImages = debugImages;
  const breadcrumbs = breadcrumbsOf(event.breadcrumbs);
  if (breadcrumbs.length > 0) out.breadcrumbs = breadcrumbs;
  const mappedRequest = requestOf(request);
  if (mappedRequest) out.request = mappedRequest;
  if (user) out.user = user;
  const url = textOf(request?.url);
  if (url) out.url = url;
  const timestamp = isoTimestampOf(event.timestamp);
  if (timestamp) out.timestamp = timestamp;
  if (typeof mechanism?.handled === 'boolean') out.handled = mechanism.handled;
  if (sdk && (textOf(sdk.name) || textOf(sdk.version))) {
    out.sdk = { name: textOf(sdk.name) ?? 'unknown', version: textOf(sdk.version) ?? 'unknown' };
  }
  return out;
}

/**
 * `exception.values`, or (very old SDKs) `exception` as the list itself, or as one exception
 * (raven-go's `CaptureError` sends `{type, value, stacktrace}`).
 */
function exceptionValues(v: unknown): JsonObject[] {
  const single = objectOf(v);
  if (single && !('values' in single) && ('type' in single || 'value' in single)) return [single];
  const list = Array.isArray(v) ? v : Array.isArray(single?.values) ? (single.values as unknown[]) : [];
  return list.filter(isObject);
}

/** `logentry` (`formatted`, or `message` with `params` interpolated), else `message`. */
function messageOf(event: JsonObject): string | undefined {
  const entry = objectOf(event.logentry) ?? objectOf(event.message);
  if (entry) {
    const formatted = textOf(entry.formatted);
    if (formatted) return formatted;
    const template = textOf(entry.message);
    if (template) return interpolate(template, entry.params);
  }
  return textOf(event.message);
}

/** `%s`-style (Python, JS) or `{0}`/`{name}`-style placeholders filled from `params`. */
function interpolate(template: string, params: unknown): string {
  if (Array.isArray(params)) {
    let i = 0;
    const printf = template.replace(/%[sdifoOj%]/g, (m) =>
      m === '%%' ? '%' : i < params.length ? stringify(params[i++]) : m,
    );
    return printf.replace(/\{(\d+)\}/g, (m, n: string) =>
      Number(n) < params.length ? stringify(params[Number(n)]) : m,
    );
  }
  if (isObject(params)) {
    return template.replace(/%\((\w+)\)s|\{(\w+)\}/g, (m, a?: string, b?: string) => {
      const name = a ?? b!;
      return name in params ? stringify(params[name]) : m;
    });
  }
  return template;
}

/** The stack of the crashed thread, else the current one, else the first with a stack. */
function threadStacktrace(v: unknown): JsonObject | undefined {
  const threads = exceptionValues(v);
  const pick =
    threads.find((t) => t.crashed === true && objectOf(t.stacktrace)) ??
    threads.find((t) => t.current === true && objectOf(t.stacktrace)) ??
    threads.find((t) => objectOf(t.stacktrace));
  return objectOf(pick?.stacktrace);
}

/**
 * Sentry frames (outermost first) as ours (innermost first). `filename`, else `abs_path`, else
 * `module` names the file; `?` is the JavaScript SDKs' "no function name".
 */
function framesOf(stacktrace: JsonObject | undefined): StackFrame[] {
  const raw = Array.isArray(stacktrace?.frames) ? (stacktrace.frames as unknown[]) : [];
  const frames: StackFrame[] = [];
  for (let i = raw.length - 1; i >= 0 && frames.length < MAX_FRAMES_READ; i--) {
    const f = raw[i];
    if (!isObject(f)) continue;
    const filename = textOf(f.filename) ?? textOf(f.abs_path) ?? textOf(f.module) ?? '<unknown>';
    const fn = textOf(f.function);
    const frame: StackFrame = {
      filename,
      function: fn === undefined || fn === '?' ? null : fn,
      lineno: position(f.lineno),
      colno: position(f.colno),
      inApp: typeof f.in_app === 'boolean' ? f.in_app : isInAppFilename(filename),
    };
    // Cut and bounded by the queued schema (evidence/frames.ts), like every other field.
    if (typeof f.context_line === 'string')
      frame.context = { pre: lines(f.pre_context), line: f.context_line, post: lines(f.post_context) };
    if (isObject(f.vars) && Object.keys(f.vars).length > 0) frame.vars = f.vars as Record<string, string>;
    frames.push(frame);
  }
  return frames;
}

function lines(v: unknown): string[] {
  return Array.isArray(v) ? v.map((l) => (typeof l === 'string' ? l : stringify(l))) : [];
}

/**
 * The exceptions below the thrown one, nearest first (Sentry lists the chain oldest first: the
 * last value is what was thrown, the one before it its cause), each with its own frames.
 */
function causesOf(exceptions: JsonObject[]): JsonObject[] {
  const out: JsonObject[] = [];
  for (let i = exceptions.length - 2; i >= 0 && out.length < MAX_CAUSES; i--) {
    const e = exceptions[i];
    const cause: JsonObject = { type: textOf(e.type) ?? 'Error', message: textOf(e.value) ?? '' };
    const frames = framesOf(objectOf(e.stacktrace));
    if (frames.length > 0) cause.frames = frames;
    out.push(cause);
  }
  return out;
}

const BREADCRUMB_LEVELS: Record<string, string> = {
  debug: 'debug',
  info: 'info',
  log: 'info',
  warning: 'warning',
  warn: 'warning',
  error: 'error',
  fatal: 'fatal',
  critical: 'fatal',
};

/**
 * `breadcrumbs` (a list, or `{values: [...]}`) in our shape; the queued schema keeps the newest
 * 100 and counts the rest. The category falls back to Sentry's `type` (`http`, `navigation`).
 */
function breadcrumbsOf(v: unknown): JsonObject[] {
  const list = Array.isArray(v) ? v : Array.isArray(objectOf(v)?.values) ? (objectOf(v)!.values as unknown[]) : [];
  const out: JsonObject[] = [];
  for (const b of list) {
    if (!isObject(b)) continue;
    const crumb: JsonObject = {
      timestamp: isoTimestampOf(b.timestamp) ?? null,
      category: textOf(b.category) ?? textOf(b.type) ?? 'default',
    };
    const message = textOf(b.message);
    if (message) crumb.message = message;
    const level = typeof b.level === 'string' ? BREADCRUMB_LEVELS[b.level.toLowerCase()] : undefined;
    if (level) crumb.level = level;
    if (isObject(b.data)) crumb.data = b.data;
    out.push(crumb);
  }
  return out;
}

/** Sentry's `request` in our shape; `cookies` and `env` are left out (credentials, server addresses). */
function requestOf(r: JsonObject | undefined): JsonObject | undefined {
  if (!r) return undefined;
  const out: JsonObject = {};
  const method = textOf(r.method);
  if (method) out.method = method.toUpperCase();
  const url = textOf(r.url);
  if (url) out.url = url;
  const query = queryStringOf(r.query_string);
  if (query) out.queryString = query;
  const headers = pairsOf(r.headers);
  if (headers) out.headers = headers;
  if (r.data !== undefined && r.data !== null) out.data = r.data;
  return Object.keys(out).length > 0 ? out : undefined;
}

/** A query string as text: Sentry sends text, an object, or `[name, value]` pairs. */
function queryStringOf(v: unknown): string | undefined {
  if (typeof v === 'string') return v.length > 0 ? v.replace(/^\?/, '') : undefined;
  const pairs = pairsOf(v);
  if (!pairs) return undefined;
  return Object.entries(pairs)
    .map(([k, value]) => `${encodeURIComponent(k)}=${encodeURIComponent(value)}`)
    .join('&');
}

/** An object, or a list of `[name, value]` pairs, as names to texts. */
function pairsOf(v: unknown): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  if (Array.isArray(v)) {
    for (const pair of v) {
      if (Array.isArray(pair) && pair.length === 2 && typeof pair[0] === 'string') out[pair[0]] = stringify(pair[1]);
    }
  } else if (isObject(v)) {
    for (const [k, value] of Object.entries(v)) if (value !== null && value !== undefined) out[k] = stringify(value);
  } else {
    return undefined;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function position(v: unknown): number | null {
  const n = typeof v === 'string' ? Number(v) : v;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : null;
}

/** A V8-style text of the frames: what the dashboard shows as the raw stack. */
function stackTextOf(type: string, message: string, frames: StackFrame[]): string {
  const lines = [`${type}: ${message.split('\n', 1)[0]}`];
  for (const f of frames) {
    const at = f.lineno === null ? f.filename : `${f.filename}:${f.lineno}${f.colno === null ? '' : `:${f.colno}`}`;
    lines.push(f.function === null ? `    at ${at}` : `    at ${f.function} (${at})`);
  }
  return lines.join('\n');
}

const DEFAULT_ENTRY = /^\{\{\s*default\s*\}\}$/i;

/** Entries as text (numbers and objects too); `{{default}}` spelled any way is ours. */
function fingerprintOf(v: unknown): string[] | undefined {
  if (!Array.isArray(v) || v.length === 0) return undefined;
  return v.map((e) => {
    const s = stringify(e);
    return DEFAULT_ENTRY.test(s.trim()) ? DEFAULT_FINGERPRINT_ENTRY : s;
  });
}

/** `id` as text (SDKs send numbers too), `email`, `username`, and whatever else was sent. */
function userOf(v: unknown): JsonObject | undefined {
  const user = objectOf(v);
  if (!user) return undefined;
  const out: JsonObject = {};
  for (const [k, value] of Object.entries(user)) {
    if (value === null || value === undefined) continue;
    if (k === 'id' || k === 'email') {
      const text = textOf(value);
      if (text) out[k] = text;
    } else {
      out[k] = value;
    }
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * Our free-form context: Sentry's `contexts` (os, browser, runtime, trace, react, …) at the top,
 * with `extra` and the few event fields that have no column of ours. The request and the causes
 * of a chained exception have their own fields since issue 29.
 */
function contextOf(event: JsonObject): JsonObject | undefined {
  const out: JsonObject = { ...objectOf(event.contexts) };
  // Sentry's `contexts` and `extra` are objects; any other value (an array, a text) is kept under
  // its own name rather than dropped without a word (issue 28): the edge's normalization then
  // treats it like any context (cut at depth 10, refused past 1,000 levels, as on /ingest/error).
  if (isUnmappable(event.contexts)) out.contexts = event.contexts;
  const extra = objectOf(event.extra);
  if (extra && Object.keys(extra).length > 0) out.extra = extra;
  else if (isUnmappable(event.extra)) out.extra = event.extra;
  for (const field of ['transaction', 'logger', 'platform', 'server_name', 'dist']) {
    const v = textOf(event[field]);
    if (v) out[field] = v;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** A value sent where an object belongs: not an object, and not nothing. */
function isUnmappable(v: unknown): boolean {
  return v !== undefined && v !== null && !isObject(v);
}
