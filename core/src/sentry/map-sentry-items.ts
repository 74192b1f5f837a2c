import { isObject, isoTimestampOf, objectOf, textOf, uuidOfEventId, type JsonObject } from './sentry-values';

/** OpenTelemetry / Sentry log levels onto ours (`debug`, `info`, `warn`, `error`). */
const LOG_LEVELS: Record<string, 'debug' | 'info' | 'warn' | 'error'> = {
  trace: 'debug',
  debug: 'debug',
  info: 'info',
  log: 'info',
  warn: 'warn',
  warning: 'warn',
  error: 'error',
  fatal: 'error',
  critical: 'error',
};

/** OTel severity numbers: 1–4 trace, 5–8 debug, 9–12 info, 13–16 warn, 17–20 error, 21–24 fatal. */
function levelOfSeverity(n: unknown): 'debug' | 'info' | 'warn' | 'error' | undefined {
  if (typeof n !== 'number' || n < 1) return undefined;
  if (n <= 8) return 'debug';
  if (n <= 12) return 'info';
  if (n <= 16) return 'warn';
  return 'error';
}

/**
 * The log records of a `log` item (`{items: [...]}`, Sentry v9+; a single record is read too)
 * or an `otel_log` item (an OpenTelemetry record, SDKs before the `log` container) as bodies of
 * our `/ingest/log`. Each is checked by `logSchema` afterwards; a record that fails is dropped
 * alone.
 *
 * Attributes (`{key: {value, type}}`, or OTel's `[{key, value: {stringValue}}]`) become the
 * context; `sentry.environment` and `sentry.release` are lifted into their fields.
 */
export function mapSentryLogs(payload: unknown, itemType: 'log' | 'otel_log'): JsonObject[] {
  const container = objectOf(payload);
  const records = Array.isArray(container?.items) ? container.items : [payload];
  return records
    .filter(isObject)
    .map((r) => (itemType === 'otel_log' || 'severityText' in r ? otelRecord(r) : sentryRecord(r)));
}

function sentryRecord(r: JsonObject): JsonObject {
  const attributes = attributesOf(r.attributes);
  const level = typeof r.level === 'string' ? LOG_LEVELS[r.level.toLowerCase()] : undefined;
  return logBody({
    level: level ?? levelOfSeverity(r.severity_number) ?? 'info',
    message: textOf(r.body) ?? (typeof r.body === 'string' ? '' : JSON.stringify(r.body ?? '')),
    timestamp: r.timestamp,
    traceId: r.trace_id,
    attributes,
  });
}

function otelRecord(r: JsonObject): JsonObject {
  const attributes = attributesOf(r.attributes);
  const level = typeof r.severityText === 'string' ? LOG_LEVELS[r.severityText.toLowerCase()] : undefined;
  const body = objectOf(r.body);
  const nanos = typeof r.timeUnixNano === 'string' || typeof r.timeUnixNano === 'number' ? Number(r.timeUnixNano) : NaN;
  return logBody({
    level: level ?? levelOfSeverity(r.severityNumber) ?? 'info',
    message: textOf(body?.stringValue) ?? textOf(r.body) ?? '',
    timestamp: Number.isFinite(nanos) ? nanos / 1e9 : undefined,
    traceId: r.traceId,
    attributes,
  });
}

function logBody(r: {
  level: string;
  message: string;
  timestamp: unknown;
  traceId: unknown;
  attributes: JsonObject;
}): JsonObject {
  const { 'sentry.environment': environment, 'sentry.release': release, ...rest } = r.attributes;
  const context: JsonObject = { ...rest };
  const traceId = textOf(r.traceId);
  if (traceId) context.trace_id = traceId;
  const out: JsonObject = { level: r.level, message: r.message };
  if (Object.keys(context).length > 0) out.context = context;
  const env = textOf(environment);
  if (env) out.environment = env;
  const rel = textOf(release);
  if (rel) out.release = rel;
  const timestamp = isoTimestampOf(r.timestamp);
  if (timestamp) out.timestamp = timestamp;
  return out;
}

/** `{k: {value, type}}` (Sentry) or `[{key, value: {stringValue | intValue | …}}]` (OTel) → `{k: value}`. */
function attributesOf(v: unknown): JsonObject {
  const out: JsonObject = {};
  if (Array.isArray(v)) {
    for (const a of v) {
      if (!isObject(a) || typeof a.key !== 'string') continue;
      const value = objectOf(a.value);
      out[a.key] = value ? (Object.values(value)[0] ?? null) : (a.value ?? null);
    }
  } else if (isObject(v)) {
    for (const [k, a] of Object.entries(v)) out[k] = isObject(a) && 'value' in a ? a.value : a;
  }
  return out;
}

/**
 * A `feedback` item (the v8+ `captureFeedback` and the feedback widget: an event whose
 * `contexts.feedback` holds the message) or a `user_report` item (the older
 * `captureUserFeedback`: `{event_id, name, email, comments}`) as the body of our
 * `/ingest/feedback`, linked to the event it is about when it names one, with the writer's
 * name and (widget) the page it was written on.
 */
export function mapSentryFeedback(payload: JsonObject, itemType: 'feedback' | 'user_report'): JsonObject {
  if (itemType === 'user_report') {
    const out: JsonObject = { message: textOf(payload.comments) ?? '' };
    const email = textOf(payload.email);
    if (email) out.email = email;
    const name = textOf(payload.name);
    if (name) out.name = name;
    const eventId = uuidOfEventId(payload.event_id);
    if (eventId) out.eventId = eventId;
    return out;
  }
  const feedback = objectOf(objectOf(payload.contexts)?.feedback) ?? {};
  const out: JsonObject = { message: textOf(feedback.message) ?? '' };
  const user = objectOf(payload.user);
  const email = textOf(feedback.contact_email) ?? textOf(user?.email);
  if (email) out.email = email;
  const name = textOf(feedback.name) ?? textOf(user?.name) ?? textOf(user?.username);
  if (name) out.name = name;
  const url = textOf(feedback.url) ?? textOf(objectOf(payload.request)?.url);
  if (url) out.url = url;
  const eventId = uuidOfEventId(feedback.associated_event_id);
  if (eventId) out.eventId = eventId;
  // The feedback event's own id makes a retried envelope store it once.
  const id = uuidOfEventId(payload.event_id);
  if (id) out.id = id;
  return out;
}
