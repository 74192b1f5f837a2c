import {
  AppError,
  checkDurationMs,
  checkInIdOf,
  CHECK_IN_STATUSES,
  encodeJob,
  hasCronMonitor,
  monitorConfigSchema,
  SLUG_PATTERN,
  type CheckInBody,
  type Clock,
  type KeyInfo,
} from '@tracker/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DataSource } from 'typeorm';
import { DSN_HEADER } from '../http/authenticate-dsn';
import type { KeyCache } from '../http/key-cache';
import { receivedAtNow } from '../http/received-at';
import type { Queue } from '../queue';
import type { IngestGate } from '../quota';
import type { CheckInLimiter } from './check-in-limiter';
import { parseBody } from '../http/parse-body';

const BEARER = /^Bearer\s+(et_[0-9a-f]{32})\s*$/i;
const KEY = /^et_[0-9a-f]{32}$/i;
/** A known slug is trusted this long at the edge; an unknown one is asked again each time (it may just have been created). */
const KNOWN_SLUG_TTL_MS = 30_000;
const MAX_KNOWN_SLUGS = 10_000;

export interface MonitorRouteDeps {
  queue: Queue;
  keys: KeyCache;
  ds: DataSource;
  limiter: CheckInLimiter;
  gate?: IngestGate;
  clock?: Clock;
}

function bad(message: string): AppError {
  return new AppError('BAD_USER_INPUT', message);
}

/** The DSN key from `Authorization: DSN|Bearer et_…` or `?key=et_…` (a crontab line has no headers to spare). */
async function keyOf(
  request: FastifyRequest,
  keys: KeyCache,
  query: Record<string, string | undefined>,
): Promise<KeyInfo> {
  const header = request.headers.authorization;
  const fromHeader = header ? (DSN_HEADER.exec(header) ?? BEARER.exec(header))?.[1] : undefined;
  if (header && !fromHeader)
    throw new AppError('UNAUTHENTICATED', 'malformed Authorization header: expected "DSN et_<key>"');
  const publicKey = fromHeader ?? query.key;
  if (!publicKey)
    throw new AppError('UNAUTHENTICATED', 'missing key: send Authorization: DSN et_<key>, or ?key=et_<key>');
  if (!KEY.test(publicKey)) throw new AppError('UNAUTHENTICATED', 'malformed key: expected et_ and 32 hex digits');
  const info = await keys.get(publicKey.toLowerCase());
  if (!info) throw new AppError('UNAUTHENTICATED', 'unknown or disabled DSN key');
  return info;
}

/** The check-in a ping URL's query (or a small JSON body) describes; throws 400 naming the field. */
export function readPing(slug: string, q: Record<string, string | undefined>): CheckInBody {
  const status = q.status ?? 'ok';
  if (!(CHECK_IN_STATUSES as readonly string[]).includes(status)) throw bad('status: in_progress, ok or error');
  const body: CheckInBody = {
    id: checkInIdOf(q.checkInId ?? q.check_in_id),
    slug,
    status: status as CheckInBody['status'],
    environment: q.environment || 'production',
  };
  if (body.environment.length > 64) throw bad('environment: at most 64 characters');
  if (q.duration !== undefined) {
    if (!/^-?\d+(\.\d+)?$/.test(q.duration)) throw bad('duration: milliseconds, a number');
    body.durationMs = checkDurationMs(Number(q.duration), 'duration');
  }
  return body;
}

/**
 * `GET|POST /ingest/monitor/<slug>` (issue 33): the ping URL a crontab line calls with curl.
 * Authenticated by the project's DSN key; the monitor must exist (404 otherwise: a typo in a
 * crontab should say so, not vanish); rate-limited per monitor (429 + Retry-After). Enqueued
 * like every other kind; the worker stores it and applies the failure rules. Check-ins never
 * count toward the event quota; the key's own rate limit applies. Answers `202 {"id"}`: the
 * check-in id an `in_progress` hands to the `ok` or `error` that ends it.
 */
export function registerMonitorRoute(app: FastifyInstance, deps: MonitorRouteDeps): void {
  const known = new Map<string, number>();
  const exists = async (projectId: string, slug: string, now: number): Promise<boolean> => {
    const k = `${projectId}/${slug}`;
    const until = known.get(k);
    if (until !== undefined && until > now) return true;
    if (!(await hasCronMonitor(deps.ds, projectId, slug))) {
      known.delete(k);
      return false;
    }
    if (known.size >= MAX_KNOWN_SLUGS) known.clear();
    known.set(k, now + KNOWN_SLUG_TTL_MS);
    return true;
  };
  // A crontab's `curl -d ''` sends a form type: any body is accepted and ignored (the query says it all).
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 4096 }, (_req, _body, done) => done(null, undefined));
  const handler = async (request: FastifyRequest, reply: import('fastify').FastifyReply) => {
    const { slug } = request.params as { slug: string };
    const query = { ...(request.query as Record<string, string | undefined>) };
    for (const [k, v] of Object.entries(query)) if (Array.isArray(v)) query[k] = String(v[0]);
    const key = await keyOf(request, deps.keys, query);
    if (!SLUG_PATTERN.test(slug)) throw new AppError('NOT_FOUND', `no monitor "${slug.slice(0, 64)}" in this project`);
    deps.limiter.admit(key.projectId, slug);
    const checkIn = readPing(slug, query);
    // @tracker/node's withMonitor sends the schedule as JSON: an upsert, as Sentry's monitor_config.
    const sent = request.body as { monitorConfig?: unknown } | undefined;
    if (sent && typeof sent === 'object' && sent.monitorConfig !== undefined) {
      checkIn.config = parseBody(monitorConfigSchema, sent.monitorConfig);
    }
    const now = (deps.clock ?? Date.now)();
    if (!checkIn.config && !(await exists(key.projectId, slug, now))) {
      throw new AppError('NOT_FOUND', `no monitor "${slug}" in this project: create it on the Monitors page first`);
    }
    deps.queue.checkBacklog?.();
    const admitted = deps.gate?.admit(key, null);
    if (admitted) await admitted;
    await deps.queue.enqueue([
      encodeJob({ v: 1, kind: 'check_in', projectId: key.projectId, receivedAt: receivedAtNow(deps.clock), checkIn }),
    ]);
    return reply.code(202).send({ id: checkIn.id });
  };
  app.get('/monitor/:slug', handler);
  app.post('/monitor/:slug', handler);
}
