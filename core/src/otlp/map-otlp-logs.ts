import { AppError } from '../errors';
import { storableText } from '../events/normalize';
import { isObject, type JsonObject } from '../sentry/sentry-values';
import { readOtlpResource, resourceFields } from './otlp-resource';
import { attributesOf, hexIdOf, isoOfUnixNano, numberOf, scalarText, valueOf } from './otlp-values';

type Level = 'debug' | 'info' | 'warn' | 'error';

/** One log record of an OTLP request, as the body of `/ingest/log`, or why it was refused. */
export type OtlpLogCandidate = { body: JsonObject; problem?: undefined } | { body?: undefined; problem: string };

const TEXT_LEVELS: Record<string, Level> = {
  trace: 'debug',
  debug: 'debug',
  info: 'info',
  information: 'info',
  notice: 'info',
  warn: 'warn',
  warning: 'warn',
  error: 'error',
  err: 'error',
  fatal: 'error',
  critical: 'error',
  crit: 'error',
  emergency: 'error',
  alert: 'error',
};

/**
 * OTel severity numbers: 1–4 TRACE, 5–8 DEBUG, 9–12 INFO, 13–16 WARN, 17–20 ERROR, 21–24 FATAL.
 * Tracker has four levels: TRACE reads as debug and FATAL as error.
 */
export function levelOfSeverity(n: number): Level | undefined {
  if (!Number.isInteger(n) || n < 1 || n > 24) return undefined;
  if (n <= 8) return 'debug';
  if (n <= 12) return 'info';
  if (n <= 16) return 'warn';
  return 'error';
}

/** The enum as a number (OTLP/JSON), or its name (`SEVERITY_NUMBER_WARN`, proto3 JSON allows both). */
function severityNumberOf(v: unknown): number | null | undefined {
  if (v === undefined || v === null || v === 0) return undefined;
  if (typeof v === 'number') return v;
  if (typeof v === 'string') {
    const named = /^SEVERITY_NUMBER_([A-Z]+)(\d?)$/.exec(v);
    if (!named) return null;
    const base = { TRACE: 1, DEBUG: 5, INFO: 9, WARN: 13, ERROR: 17, FATAL: 21 }[named[1]];
    return base === undefined
      ? named[1] === 'UNSPECIFIED'
        ? undefined
        : null
      : base + Math.max(0, Number(named[2] || 1) - 1);
  }
  return null;
}

/**
 * The log records of an `ExportLogsServiceRequest` (decoded from protobuf, or OTLP/JSON) as
 * bodies of `/ingest/log`, in order. A request whose structure is wrong (`resourceLogs` not a
 * list…) is a 400; a record that cannot be read is refused alone (`problem`), and counted in
 * the answer's `partial_success` by the caller.
 *
 * - level: `severity_number`, else `severity_text`, else info;
 * - message: a string body as is, any other body as its JSON;
 * - timestamp: `time_unix_nano`, else `observed_time_unix_nano` (clamped by the worker);
 * - context: the record's attributes, `trace_id`, `span_id`, `otel.scope`, and `resource`
 *   (resource attributes other than the service, version and environment);
 * - tag `service` = `service.name`; release = `service.version`; environment =
 *   `deployment.environment.name` or `deployment.environment`.
 */
export function mapOtlpLogs(request: unknown): OtlpLogCandidate[] {
  const out: OtlpLogCandidate[] = [];
  if (!isObject(request)) throw new AppError('BAD_USER_INPUT', 'body: must be an ExportLogsServiceRequest object');
  for (const [i, rl] of listOf(request.resourceLogs, 'resourceLogs').entries()) {
    const where = `resourceLogs[${i}]`;
    if (!isObject(rl)) throw new AppError('BAD_USER_INPUT', `${where}: must be an object`);
    const resource = readOtlpResource(rl.resource);
    const shared = resourceFields(resource);
    const rest = Object.keys(resource.rest).length > 0 ? resource.rest : undefined;
    for (const [j, sl] of listOf(rl.scopeLogs, `${where}.scopeLogs`).entries()) {
      const whereScope = `${where}.scopeLogs[${j}]`;
      if (!isObject(sl)) throw new AppError('BAD_USER_INPUT', `${whereScope}: must be an object`);
      const scope = isObject(sl.scope) ? scalarText(sl.scope.name) : undefined;
      for (const [k, record] of listOf(sl.logRecords, `${whereScope}.logRecords`).entries()) {
        const problem = problemOf(record);
        if (problem) out.push({ problem: `${whereScope}.logRecords[${k}]: ${problem}` });
        else out.push({ body: logBody(record as JsonObject, shared, rest, scope) });
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

/** What makes a record unreadable (OTLP/JSON with a wrong type); protobuf's decoder checks types itself. */
function problemOf(r: unknown): string | undefined {
  if (!isObject(r)) return 'must be an object';
  for (const f of ['timeUnixNano', 'observedTimeUnixNano'] as const) {
    const v = r[f];
    if (v !== undefined && v !== null && numberOf(v) === undefined)
      return `${f}: must be an integer (nanoseconds, as a string or number)`;
  }
  if (severityNumberOf(r.severityNumber) === null) return 'severityNumber: must be a SeverityNumber (an integer 0–24)';
  if (r.severityText !== undefined && r.severityText !== null && typeof r.severityText !== 'string')
    return 'severityText: must be a string';
  if (r.attributes !== undefined && r.attributes !== null && !Array.isArray(r.attributes))
    return 'attributes: must be a list of {key, value}';
  if (r.body !== undefined && r.body !== null && !isObject(r.body))
    return 'body: must be an AnyValue object ({"stringValue": …})';
  return undefined;
}

const IDS = [
  ['traceId', 'trace_id', 16],
  ['spanId', 'span_id', 8],
] as const;

/**
 * One record's body, its keys in the order `logSchema` returns them (level, message, the
 * resource's fields, context, timestamp). Called per record (512 an SDK batch): no copies of
 * what is shared, no objects for what is absent.
 */
function logBody(
  r: JsonObject,
  shared: JsonObject,
  resourceRest: JsonObject | undefined,
  scope: string | undefined,
): JsonObject {
  const severity = severityNumberOf(r.severityNumber);
  const text = typeof r.severityText === 'string' ? TEXT_LEVELS[r.severityText.trim().toLowerCase()] : undefined;
  const level = (severity !== undefined && severity !== null ? levelOfSeverity(severity) : undefined) ?? text ?? 'info';
  const value = r.body === undefined || r.body === null ? '' : valueOf(r.body);
  const message = typeof value === 'string' ? value : value === null ? '' : storableText(JSON.stringify(value));
  const context: JsonObject = attributesOf(r.attributes);
  let meta: JsonObject | undefined;
  for (const [field, name, bytes] of IDS) {
    const id = hexIdOf(r[field], bytes);
    if (id) context[name] = id;
    else if (id === null) (meta ??= {})[name] = { dropped: 1, reason: `not ${bytes} bytes (${bytes * 2} hex digits)` };
  }
  if (scope) context['otel.scope'] = scope;
  if (resourceRest) context.resource = resourceRest;
  if (meta) context._meta = meta;
  const body: JsonObject = { level, message, ...shared };
  if (Object.keys(context).length > 0) body.context = context;
  const timestamp = isoOfUnixNano(r.timeUnixNano) ?? isoOfUnixNano(r.observedTimeUnixNano);
  if (timestamp) body.timestamp = timestamp;
  return body;
}
