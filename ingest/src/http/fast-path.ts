import type { IncomingMessage, ServerResponse } from 'node:http';
import { httpStatusFor, type Clock, type KeyInfo } from '@tracker/core';
import { receivedAtNow } from './received-at';
import type { Queue } from '../queue';
import { DSN_HEADER } from './authenticate-dsn';
import { admitOnce, DISCARDED_ISSUE, prepareErrorJob } from './error.route';
import { parseJsonText } from './json-body';
import type { KeyCache } from './key-cache';
import { MAX_EVENT_BYTES } from './limits';
import type { IngestCounters } from './ingest-counters';
import type { IngestGate } from '../quota';
import type { RecentIds } from './recent-ids';
import { ingestFailureLog } from './log-throttle';
import { retryAfterSeconds, UNAVAILABLE, UNAVAILABLE_RETRY_AFTER_S, wireErrorOf } from './wire-errors';

/** Answers a request itself (true) or leaves it to fastify (false, before reading anything). */
export interface IngestFastPath {
  (req: IncomingMessage, res: ServerResponse): boolean;
  /** Requests it took (for tests and diagnostics). */
  readonly taken: number;
}

export interface IngestFastPathDeps {
  queue: Queue;
  keys: KeyCache;
  gate?: IngestGate;
  /** Client event ids admitted lately (retries are not counted twice). */
  recent?: RecentIds;
  /** Refusals by code, for /metrics. */
  counters?: IngestCounters;
  /** Where unexpected failures go (fastify's logger), at most one per 10 s (`ingestFailureLog`). */
  logError(err: unknown): void;
  /** The time stamped on what is received (default the wall clock). */
  clock?: Clock;
}

const CORS_HEADERS = { 'access-control-allow-origin': '*', 'access-control-expose-headers': 'Retry-After' };

/**
 * `POST /ingest/error` without the framework, for the requests that are plainly well-formed:
 * exact path, `application/json`, a `Content-Length` within the limit, and a DSN key this
 * process already knows to be valid. Anything else — a preflight, chunked or compressed bodies,
 * an unknown key, any other route — goes to fastify untouched, so every unusual case keeps one
 * implementation (the route and its error handler).
 *
 * Why: on the 2-core reference machine fastify's per-request work (routing, hooks, the request
 * and reply objects, the body reader) cost about as much as the bare `node:http` server's whole
 * request, and the edge's target is half the bare server's rate (docs/benchmarks.md). What
 * the fast path does with the body is the route's own code (`prepareErrorJob`, the gate, the
 * queue) and its errors go through the same mapping (`wireErrorOf`), so both paths answer the
 * same; `server/test/ingest-fast-path.test.ts` checks that on a corpus of requests.
 */
export function createIngestFastPath(deps: IngestFastPathDeps): IngestFastPath {
  let taken = 0;
  const fastPath = (req: IncomingMessage, res: ServerResponse): boolean => {
    if (req.method !== 'POST' || req.url !== '/ingest/error') return false;
    const h = req.headers;
    const type = h['content-type'];
    if (type === undefined || !isJson(type)) return false;
    // Compressed bodies are decoded in one place, fastify's preParsing hook (content-encoding.ts).
    if (h['transfer-encoding'] !== undefined || h['content-encoding'] !== undefined) return false;
    const length = Number(h['content-length']);
    if (!(length > 0 && length <= MAX_EVENT_BYTES)) return false;
    const key = knownKey(h.authorization, deps.keys);
    if (key === undefined) return false;

    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('error', () => undefined); // the client went away: nothing to answer
    req.on('end', () => {
      const bytes = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
      accept(deps, key, bytes, h['user-agent'], res).catch((err) => fail(deps, res, err));
    });
    taken += 1;
    return true;
  };
  return Object.defineProperty(fastPath, 'taken', { get: () => taken }) as IngestFastPath;
}

async function accept(
  deps: IngestFastPathDeps,
  key: KeyInfo,
  bytes: Buffer,
  userAgent: string | undefined,
  res: ServerResponse,
): Promise<void> {
  // Over the backlog bound: 503 before any parsing or quota (docs/reliability.md, "Overload").
  deps.queue.checkBacklog?.();
  const text = bytes.toString('utf8');
  const { payload, eventId, clientId, discarded, filtered } = prepareErrorJob(
    key,
    parseJsonText(text),
    text,
    receivedAtNow(deps.clock),
    bytes,
    userAgent,
  );
  // Before the quota gate: a discarded issue's events use no quota (docs/quotas.md).
  // Inbound filters likewise (issue 31).
  if (filtered !== undefined) deps.counters?.filter(key.projectId, filtered);
  else if (discarded) deps.counters?.discard(DISCARDED_ISSUE);
  else {
    const admitted = admitOnce(deps, key, 'events', clientId ? eventId : undefined);
    if (admitted) await admitted;
    await deps.queue.enqueue([payload]);
  }
  const body = `{"id":"${eventId}"}`;
  if (body.length !== ACCEPTED_BODY_LENGTH || res.headersSent || res.destroyed) {
    send(res, 202, body);
    return;
  }
  // Every 202 has the same headers (an event id is a UUID, so the body's length is fixed): a
  // prebuilt list saves building and walking a header object per request.
  res.writeHead(202, ACCEPTED_HEADERS);
  res.end(body);
}

const ACCEPTED_BODY_LENGTH = `{"id":"${'0'.repeat(36)}"}`.length;
const ACCEPTED_HEADERS = Object.entries({
  ...CORS_HEADERS,
  'content-type': 'application/json; charset=utf-8',
  'content-length': String(ACCEPTED_BODY_LENGTH),
}).flat();

function fail(deps: IngestFastPathDeps, res: ServerResponse, err: Error): void {
  const wire = wireErrorOf(err);
  deps.counters?.refuse(wire?.code ?? 'UNAVAILABLE');
  if (!wire) {
    // One line per interval during an outage; every such answer is counted as `unavailable`.
    const held = ingestFailureLog.take();
    if (held !== undefined) deps.logError(held > 0 ? Object.assign(err, { heldBack: held }) : err);
    send(res, 503, JSON.stringify(UNAVAILABLE), UNAVAILABLE_RETRY_AFTER_S);
    return;
  }
  const body = JSON.stringify({ error: { code: wire.code, message: wire.message } });
  send(res, httpStatusFor(wire.code), body, wire.retryAfter);
}

function send(res: ServerResponse, status: number, body: string, retryAfter?: number): void {
  if (res.headersSent || res.destroyed) return;
  const headers: Record<string, string | number> = {
    ...CORS_HEADERS,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  };
  if (retryAfter !== undefined) headers['retry-after'] = String(retryAfterSeconds(retryAfter));
  res.writeHead(status, headers);
  res.end(body);
}

const JSON_UTF8 = /^application\/json;\s*charset=utf-8$/i;

/** What SDKs send; any other spelling (other parameters or charsets) is left to fastify's parser. */
function isJson(type: string): boolean {
  return type === 'application/json' || JSON_UTF8.test(type);
}

/** The key's info when this process already knows it is valid; otherwise fastify decides (401 or a lookup). */
function knownKey(authorization: string | undefined, keys: KeyCache): KeyInfo | undefined {
  if (authorization === undefined) return undefined;
  const match = DSN_HEADER.exec(authorization);
  if (!match) return undefined;
  return keys.peek(match[1].toLowerCase()) ?? undefined;
}
