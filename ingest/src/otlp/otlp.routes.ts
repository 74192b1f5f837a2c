import { AppError, httpStatusFor, mapOtlpLogs, type AppErrorCode, type Clock } from '@tracker/core';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { describeLimit, registerContentDecoding } from '../http/content-encoding';
import { refusalCode, type IngestCounters } from '../http/ingest-counters';
import type { KeyCache } from '../http/key-cache';
import { ingestFailureLog } from '../http/log-throttle';
import { receivedAtNow } from '../http/received-at';
import type { RecentIds } from '../http/recent-ids';
import { retryAfterSeconds, UNAVAILABLE_RETRY_AFTER_S, wireErrorOf } from '../http/wire-errors';
import type { IngestGate } from '../quota';
import type { Queue, QueuePayload } from '../queue';
import { authenticateOtlp } from './otlp-auth';
import {
  CONTENT_TYPES,
  decodeOtlpRequest,
  encodeOtlpResponse,
  encodeOtlpStatus,
  type OtlpEncoding,
  type Signal,
} from './otlp-codec';
import { takeOtlpLogs, type TakenRecords } from './take-otlp-logs';
import { takeOtlpSpans } from './take-otlp-spans';

export interface OtlpDeps {
  queue: Queue;
  keys: KeyCache;
  gate?: IngestGate;
  recent?: RecentIds;
  counters?: IngestCounters;
  clock?: Clock;
  /** The path of `TRACKER_PUBLIC_URL` (`/tracker`), or '' : the routes answer under it too. */
  pathPrefix?: string;
}

/**
 * Largest OTLP body, once decoded (Content-Encoding): an OTel SDK sends at most 512 records a
 * batch (a few hundred KB); a Collector's batches can be larger. Past it, 413.
 */
export const MAX_OTLP_BODY_BYTES = 8 * 1024 * 1024;
/** Most records (log records, or spans) one request may carry; past it 413, before any quota is spent. */
export const MAX_OTLP_RECORDS = 10_000;
/** Jobs per enqueue call, so a large request is queued in bounded batches. */
const ENQUEUE_BATCH = 1_000;

const ALLOWED_HEADERS = 'Authorization, Content-Type, Content-Encoding, X-Tracker-Key, X-Sentry-Auth';

/**
 * OpenTelemetry's OTLP/HTTP in (issue 34): `POST /v1/logs` and `/v1/traces`, and Sentry's
 * `/api/<number>/integration/otlp/v1/…`, with and without the public URL's path prefix.
 * Bodies in `application/x-protobuf` or `application/json`, compressed or not as on the other
 * doors; answers as OTLP/HTTP wants them (an `Export…ServiceResponse`, or a `google.rpc.Status`
 * on errors, in the request's encoding). docs/opentelemetry.md.
 */
export async function registerOtlpRoutes(app: FastifyInstance, deps: OtlpDeps): Promise<void> {
  await app.register(async (scope) => {
    scope.setErrorHandler(otlpErrorHandler);
    scope.removeAllContentTypeParsers();
    for (const type of ['application/x-protobuf', 'application/json']) {
      scope.addContentTypeParser(type, { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    }
    registerContentDecoding(scope);
    const counters = deps.counters;
    if (counters) {
      scope.addHook('onSend', async (_request, reply, payload) => {
        if (reply.statusCode >= 400)
          counters.refuse(refusalCode(reply.statusCode, `"code":"${reply.getHeader('x-tracker-error') ?? ''}"`));
        return payload;
      });
    }
    scope.addHook('onRequest', (_request, reply, done) => {
      reply.header('access-control-allow-origin', '*');
      reply.header('access-control-expose-headers', 'Retry-After');
      done();
    });
    const prefixes = [''];
    const prefix = (deps.pathPrefix ?? '').replace(/\/+$/, '');
    if (prefix !== '') prefixes.push(prefix.startsWith('/') ? prefix : `/${prefix}`);
    for (const p of prefixes) {
      for (const signal of ['logs', 'traces'] as const) {
        for (const path of [`${p}/v1/${signal}`, `${p}/api/:project/integration/otlp/v1/${signal}`]) {
          scope.post(path, { bodyLimit: MAX_OTLP_BODY_BYTES }, (request, reply) =>
            exportRoute(signal, request, reply, deps),
          );
          scope.options(path, preflight);
        }
      }
    }
  });
}

function encodingOf(request: FastifyRequest): OtlpEncoding {
  return /^\s*application\/json/i.test(request.headers['content-type'] ?? '') ? 'json' : 'protobuf';
}

async function exportRoute(
  signal: Signal,
  request: FastifyRequest,
  reply: FastifyReply,
  deps: OtlpDeps,
): Promise<FastifyReply> {
  const encoding = encodingOf(request);
  const project = (request.params as { project?: string }).project;
  const key = await authenticateOtlp(request, deps.keys, project);
  const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
  const decoded = decodeOtlpRequest(signal, encoding, body);
  const receivedAt = receivedAtNow(deps.clock);
  let taken: TakenRecords;
  if (signal === 'logs') {
    const candidates = mapOtlpLogs(decoded);
    tooMany(candidates.length, 'log records');
    deps.queue.checkBacklog?.(Math.max(1, candidates.length));
    taken = await takeOtlpLogs(key, candidates, receivedAt, deps);
  } else {
    deps.queue.checkBacklog?.();
    taken = await takeOtlpSpans(key, decoded, receivedAt, deps, tooMany);
  }
  if (taken.payloads.length > 0) {
    deps.queue.checkBacklog?.(taken.payloads.length);
    await enqueueInBatches(deps.queue, taken.payloads);
  }
  if (taken.payloads.length === 0 && taken.refusal) throw taken.refusal;
  if (taken.payloads.length === 0 && taken.problem && taken.rejected > 0) throw taken.problem;
  const message =
    taken.rejected > 0
      ? `${taken.rejected} refused; first: ${(taken.refusal ?? taken.problem)?.message ?? 'refused'}`
      : undefined;
  return reply
    .code(200)
    .type(CONTENT_TYPES[encoding])
    .send(encodeOtlpResponse(signal, encoding, taken.rejected, message));
}

function tooMany(count: number, what: string): void {
  if (count > MAX_OTLP_RECORDS) {
    throw new AppError(
      'PAYLOAD_TOO_LARGE',
      `more than ${MAX_OTLP_RECORDS} ${what} in one request (${count}); send smaller batches (an OTel SDK's BatchProcessor sends 512, a Collector's batch processor: send_batch_max_size)`,
    );
  }
}

async function enqueueInBatches(queue: Queue, payloads: QueuePayload[]): Promise<void> {
  for (let i = 0; i < payloads.length; i += ENQUEUE_BATCH) await queue.enqueue(payloads.slice(i, i + ENQUEUE_BATCH));
}

function preflight(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const asked = request.headers['access-control-request-headers'];
  const headers =
    typeof asked === 'string' && /^[\w-]+(?:\s*,\s*[\w-]+)*$/.test(asked.trim()) ? asked : ALLOWED_HEADERS;
  return reply
    .header('access-control-allow-methods', 'POST, OPTIONS')
    .header('access-control-allow-headers', headers)
    .header('access-control-max-age', '86400')
    .code(204)
    .send();
}

/** google.rpc.Code for our error codes (OTLP clients log it; the HTTP status decides retries). */
const RPC_CODES: Partial<Record<AppErrorCode, number>> = {
  BAD_USER_INPUT: 3, // INVALID_ARGUMENT
  UNAUTHENTICATED: 16,
  FORBIDDEN: 7, // PERMISSION_DENIED
  RATE_LIMITED: 8, // RESOURCE_EXHAUSTED
  PAYLOAD_TOO_LARGE: 8,
  UNSUPPORTED_MEDIA_TYPE: 3,
  UNAVAILABLE: 14,
};

const FASTIFY_MESSAGES: Record<string, [AppErrorCode, string]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [
    'UNSUPPORTED_MEDIA_TYPE',
    'Content-Type must be application/x-protobuf or application/json (OTLP/HTTP)',
  ],
  FST_ERR_CTP_BODY_TOO_LARGE: ['PAYLOAD_TOO_LARGE', `body exceeds the limit of ${describeLimit(MAX_OTLP_BODY_BYTES)}`],
};

/**
 * Errors as OTLP/HTTP wants them: the status (400, 401, 403, 413, 415, 429 and 503 with
 * Retry-After, which OTel exporters honour) and a `Status` body in the request's encoding. The
 * wire code goes in `X-Tracker-Error` (for /metrics and people reading responses).
 */
function otlpErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const encoding = encodingOf(request);
  const known = error.code ? FASTIFY_MESSAGES[error.code] : undefined;
  const wire = known ? { code: known[0], message: known[1], retryAfter: undefined } : wireErrorOf(error);
  if (!wire) {
    const held = ingestFailureLog.take();
    if (held !== undefined) request.log.error({ err: error, heldBack: held }, 'otlp ingest request failed');
    return reply
      .code(503)
      .header('retry-after', String(UNAVAILABLE_RETRY_AFTER_S))
      .header('x-tracker-error', 'UNAVAILABLE')
      .type(CONTENT_TYPES[encoding])
      .send(encodeOtlpStatus(encoding, 14, 'could not accept the export; retry later'));
  }
  if (wire.retryAfter !== undefined) reply.header('retry-after', String(retryAfterSeconds(wire.retryAfter)));
  return reply
    .code(httpStatusFor(wire.code))
    .header('x-tracker-error', wire.code)
    .type(CONTENT_TYPES[encoding])
    .send(encodeOtlpStatus(encoding, RPC_CODES[wire.code] ?? 2, wire.message));
}
