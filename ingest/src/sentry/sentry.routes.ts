import { AppError, isObject, type Clock } from '@tracker/core';
import { receivedAtNow } from '../http/received-at';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { describeLimit, registerContentDecoding } from '../http/content-encoding';
import type { KeyCache } from '../http/key-cache';
import { MAX_EVENT_BYTES } from '../http/limits';
import { refusalCode, type IngestCounters } from '../http/ingest-counters';
import { AdmissionRefusal, type IngestGate } from '../quota';
import type { RecentIds } from '../http/recent-ids';
import { sendError, UNAVAILABLE, UNAVAILABLE_RETRY_AFTER_S, wireErrorOf } from '../http/wire-errors';
import { ingestFailureLog } from '../http/log-throttle';
import type { Queue } from '../queue';
import { MAX_ENVELOPE_BYTES, parseEnvelope, readSentryJson } from './parse-envelope';
import { sentryRateLimits } from './rate-limits';
import { decodeStoreBody } from './store-body';
import { authenticateSentryKey, sentryKeyOf } from './sentry-auth';
import { readSentryItems, takeEvent, takeSentryItems } from './take-items';
import type { CheckInLimiter } from '../monitors/check-in-limiter';

export interface SentryDeps {
  queue: Queue;
  keys: KeyCache;
  gate?: IngestGate;
  recent?: RecentIds;
  /** The path of `TRACKER_PUBLIC_URL` (`/tracker`), or '' : the routes answer under it too. */
  pathPrefix?: string;
  /** Refusals by code, for /metrics (counted with those of `/ingest/*`). */
  counters?: IngestCounters;
  /** The time stamped on what is received (default the wall clock). */
  clock?: Clock;
  /** Per-monitor check-in limit, shared with the ping URL (issue 33). */
  checkInLimiter?: CheckInLimiter;
}

const EXPOSED = 'X-Sentry-Error, X-Sentry-Rate-Limits, Retry-After';
const ALLOWED_HEADERS = 'Authorization, Content-Type, Content-Encoding, X-Sentry-Auth';

/**
 * Sentry's ingest endpoints (issue 17), a second door to the same pipeline as `/ingest/*`:
 * `POST /api/<number>/envelope/` and `/api/<number>/store/`, with and without the trailing
 * slash, and under the public URL's path prefix. Any `Content-Type` (browsers send
 * `text/plain`, Node none); `Content-Encoding` as on `/ingest/*` (plus `UTF-8`, which an old
 * SDK sends to mean none). docs/sentry-compatibility.md.
 */
export async function registerSentryRoutes(app: FastifyInstance, deps: SentryDeps): Promise<void> {
  await app.register(async (scope) => {
    scope.setErrorHandler(sentryErrorHandler);
    // The body is bytes whatever its type says: an envelope is not JSON, and SDKs label it freely.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    registerContentDecoding(scope, { identity: ['utf-8'] });
    const counters = deps.counters;
    if (counters) {
      scope.addHook('onSend', async (_request, reply, payload) => {
        if (reply.statusCode >= 400) counters.refuse(refusalCode(reply.statusCode, payload));
        return payload;
      });
    }
    // CORS on every answer, errors included: browser SDKs read these headers to back off.
    scope.addHook('onRequest', (_request, reply, done) => {
      reply.header('access-control-allow-origin', '*');
      reply.header('access-control-expose-headers', EXPOSED);
      done();
    });
    const prefixes = [''];
    const prefix = (deps.pathPrefix ?? '').replace(/\/+$/, '');
    if (prefix !== '') prefixes.push(prefix.startsWith('/') ? prefix : `/${prefix}`);
    for (const p of prefixes) {
      for (const slash of ['/', '']) {
        scope.post(`${p}/api/:project/envelope${slash}`, { bodyLimit: MAX_ENVELOPE_BYTES }, (request, reply) =>
          envelope(request, reply, deps),
        );
        scope.post(`${p}/api/:project/store${slash}`, { bodyLimit: MAX_EVENT_BYTES }, (request, reply) =>
          store(request, reply, deps),
        );
        scope.options(`${p}/api/:project/envelope${slash}`, preflight);
        scope.options(`${p}/api/:project/store${slash}`, preflight);
      }
    }
  });
}

type Params = { project: string };

async function envelope(request: FastifyRequest, reply: FastifyReply, deps: SentryDeps): Promise<FastifyReply> {
  const { header, items, broken } = parseEnvelope(bodyOf(request));
  const key = await authenticateSentryKey(
    sentryKeyOf(request, header.dsn),
    (request.params as Params).project,
    deps.keys,
  );
  const read = readSentryItems(items);
  for (const type of read.dropped) deps.counters?.dropSentryItem(type);
  // Every record counts against the backlog bound: an envelope that would pass it is refused
  // whole before the gate spends any quota, and checked again just before the enqueue (same
  // tick), since other requests may have been taken while this one waited on the gate.
  deps.queue.checkBacklog?.(Math.max(1, read.candidates.length));
  const taken = await takeSentryItems(key, read, header, { ...deps, userAgent: userAgentOf(request) });
  if (broken) taken.problems.push(broken);
  if (taken.payloads.length > 0) {
    deps.queue.checkBacklog?.(taken.payloads.length);
    await deps.queue.enqueue(taken.payloads);
  }
  if (taken.refusals.length > 0) {
    const limits = sentryRateLimits(taken.refusals);
    reply.header('x-sentry-rate-limits', limits.header);
    if (taken.payloads.length === 0) {
      // Nothing was taken and a limit is why: the SDK must back off (and counts what it dropped).
      throw new AppError('RATE_LIMITED', taken.refusals[0].message, limits.retryAfter);
    }
  }
  // Nothing taken, and something was wrong with what was sent: say what (the first problem).
  if (taken.payloads.length === 0 && taken.problems.length > 0) throw taken.problems[0];
  return reply.code(200).send(taken.eventId === undefined ? {} : { id: taken.eventId });
}

async function store(request: FastifyRequest, reply: FastifyReply, deps: SentryDeps): Promise<FastifyReply> {
  const text = decodeStoreBody(bodyOf(request), request.routeOptions.bodyLimit ?? MAX_EVENT_BYTES);
  const { value: raw, plain } = readSentryJson(text, 'body');
  if (!isObject(raw)) throw new AppError('BAD_USER_INPUT', 'body: must be a JSON object (an event)');
  const key = await authenticateSentryKey(
    sentryKeyOf(request, undefined),
    (request.params as Params).project,
    deps.keys,
  );
  deps.queue.checkBacklog?.();
  const { payload, eventId } = await takeEvent(key, { raw, plain }, undefined, receivedAtNow(deps.clock), {
    ...deps,
    userAgent: userAgentOf(request),
  }).catch((err) => {
    if (err instanceof AdmissionRefusal) reply.header('x-sentry-rate-limits', sentryRateLimits([err]).header);
    throw err;
  });
  if (payload) await deps.queue.enqueue([payload]);
  return reply.code(200).send({ id: eventId });
}

function userAgentOf(request: FastifyRequest): string | undefined {
  const ua = request.headers['user-agent'];
  return typeof ua === 'string' ? ua : undefined;
}

function bodyOf(request: FastifyRequest): Buffer {
  return Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
}

function preflight(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  // Echo what the browser asks for when it is a plain header list: SDKs add their own headers.
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

/**
 * Errors as on `/ingest/*` (`{"error": {"code", "message"}}`, the same statuses), plus the
 * message in `X-Sentry-Error`, which Sentry's SDKs log.
 */
function sentryErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const wire =
    error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
      ? {
          code: 'PAYLOAD_TOO_LARGE' as const,
          message: `body exceeds the limit of ${describeLimit(request.routeOptions.bodyLimit ?? MAX_ENVELOPE_BYTES)}`,
        }
      : wireErrorOf(error);
  if (!wire) {
    const held = ingestFailureLog.take();
    if (held !== undefined) request.log.error({ err: error, heldBack: held }, 'sentry ingest request failed');
    return reply
      .code(503)
      .header('retry-after', String(UNAVAILABLE_RETRY_AFTER_S))
      .header('x-sentry-error', UNAVAILABLE.error.message)
      .send(UNAVAILABLE);
  }
  // Header values must be one line of visible ASCII.
  reply.header('x-sentry-error', wire.message.replace(/[^\x20-\x7e]/g, '?').slice(0, 512));
  return sendError(reply, wire.code, wire.message, wire.retryAfter);
}
