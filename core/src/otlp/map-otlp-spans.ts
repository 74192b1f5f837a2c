import { AppError } from '../errors';
import { isObject, type JsonObject } from '../sentry/sentry-values';
import { readOtlpResource, resourceFields } from './otlp-resource';
import { attributesOf, hexIdOf, isoOfUnixNano, numberOf, scalarText } from './otlp-values';

/**
 * What the spans of one OTLP trace request come to: an error event (the body of
 * `/ingest/error`) per `exception` span event; `dropped` spans that carry none (Tracker stores
 * no traces, issue 34); `problems` for spans that cannot be read (refused alone).
 */
export interface OtlpSpanCandidates {
  events: JsonObject[];
  spans: number;
  dropped: number;
  problems: string[];
}

const EXCEPTION_KEYS = ['exception.type', 'exception.message', 'exception.stacktrace', 'exception.escaped'];

/**
 * Spans with exception events (`span.recordException`, and the semantic conventions'
 * `exception.type`, `exception.message`, `exception.stacktrace`, `exception.escaped`) as error
 * events: type and message from the attributes, the stack text for the worker's parsers,
 * `exception.escaped: true` as unhandled; trace id, span id, span name, the span's and the
 * event's other attributes in the context; release, environment and the `service` tag from the
 * resource, as for logs. The event's time is the exception's (clamped by the worker).
 */
export function mapOtlpSpans(request: unknown): OtlpSpanCandidates {
  const out: OtlpSpanCandidates = { events: [], spans: 0, dropped: 0, problems: [] };
  if (!isObject(request)) throw new AppError('BAD_USER_INPUT', 'body: must be an ExportTraceServiceRequest object');
  for (const [i, rs] of listOf(request.resourceSpans, 'resourceSpans').entries()) {
    const where = `resourceSpans[${i}]`;
    if (!isObject(rs)) throw new AppError('BAD_USER_INPUT', `${where}: must be an object`);
    const resource = readOtlpResource(rs.resource);
    const shared = resourceFields(resource);
    for (const [j, ss] of listOf(rs.scopeSpans, `${where}.scopeSpans`).entries()) {
      const whereScope = `${where}.scopeSpans[${j}]`;
      if (!isObject(ss)) throw new AppError('BAD_USER_INPUT', `${whereScope}: must be an object`);
      const scope = isObject(ss.scope) ? scalarText(ss.scope.name) : undefined;
      for (const [k, span] of listOf(ss.spans, `${whereScope}.spans`).entries()) {
        out.spans += 1;
        const problem = problemOf(span);
        if (problem) {
          out.problems.push(`${whereScope}.spans[${k}]: ${problem}`);
          continue;
        }
        const s = span as JsonObject;
        const exceptions = (s.events as unknown[] | undefined)?.filter((e) => isObject(e) && e.name === 'exception') as
          JsonObject[] | undefined;
        if (!exceptions || exceptions.length === 0) {
          out.dropped += 1;
          continue;
        }
        for (const e of exceptions) out.events.push(errorBody(s, e, shared, resource.rest, scope));
      }
    }
  }
  return out;
}

function listOf(v: unknown, what: string): unknown[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new AppError('BAD_USER_INPUT', `${what}: must be a list`);
  return v;
}

function problemOf(s: unknown): string | undefined {
  if (!isObject(s)) return 'must be an object';
  if (s.events !== undefined && s.events !== null && !Array.isArray(s.events)) return 'events: must be a list';
  if (s.attributes !== undefined && s.attributes !== null && !Array.isArray(s.attributes))
    return 'attributes: must be a list of {key, value}';
  if (s.name !== undefined && s.name !== null && typeof s.name !== 'string') return 'name: must be a string';
  for (const e of (s.events as unknown[] | undefined) ?? []) {
    if (!isObject(e)) return 'events: each must be an object';
    if (e.timeUnixNano !== undefined && e.timeUnixNano !== null && numberOf(e.timeUnixNano) === undefined)
      return 'events[].timeUnixNano: must be an integer (nanoseconds, as a string or number)';
    if (e.attributes !== undefined && e.attributes !== null && !Array.isArray(e.attributes))
      return 'events[].attributes: must be a list of {key, value}';
  }
  return undefined;
}

function errorBody(
  span: JsonObject,
  event: JsonObject,
  shared: JsonObject,
  resourceRest: JsonObject,
  scope: string | undefined,
): JsonObject {
  const attributes = attributesOf(event.attributes);
  const context: JsonObject = {};
  const meta: JsonObject = {};
  for (const [field, name, bytes] of [
    ['traceId', 'trace_id', 16],
    ['spanId', 'span_id', 8],
  ] as const) {
    const id = hexIdOf(span[field], bytes);
    if (id) context[name] = id;
    else if (id === null) meta[name] = { dropped: 1, reason: `not ${bytes} bytes (${bytes * 2} hex digits)` };
  }
  if (typeof span.name === 'string' && span.name !== '') context['span.name'] = span.name;
  const spanAttributes = attributesOf(span.attributes);
  if (Object.keys(spanAttributes).length > 0) context.span = spanAttributes;
  for (const [k, v] of Object.entries(attributes)) if (!EXCEPTION_KEYS.includes(k)) context[k] = v;
  if (scope) context['otel.scope'] = scope;
  if (Object.keys(resourceRest).length > 0) context.resource = resourceRest;
  if (Object.keys(meta).length > 0) context._meta = meta;
  const body: JsonObject = {
    type: scalarText(attributes['exception.type']) ?? 'Error',
    message: typeof attributes['exception.message'] === 'string' ? attributes['exception.message'] : '',
    environment: 'production',
    level: 'error',
    ...shared,
    context,
  };
  if (typeof attributes['exception.stacktrace'] === 'string') body.stack = attributes['exception.stacktrace'];
  if (typeof attributes['exception.escaped'] === 'boolean') body.handled = !attributes['exception.escaped'];
  const timestamp = isoOfUnixNano(event.timeUnixNano) ?? isoOfUnixNano(span.endTimeUnixNano);
  if (timestamp) body.timestamp = timestamp;
  return body;
}
