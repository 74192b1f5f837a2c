import http from 'node:http';
import https from 'node:https';
import { classifyAddress, type Clock } from '@tracker/core';
import { DeliveryError } from './errors';
import { createGuardedLookup } from './guard';
import { clip } from './render';
import type { HostResolver } from './types';

/** How much of an answer's body is read and kept (the delivery log and the test button show it). */
export const MAX_RESPONSE_BYTES = 512;
/** …and how many characters of it, once cleaned. */
export const MAX_RESPONSE_CHARS = 300;

/** What a receiver answered: its status and the start of its body, cleaned (see `responseExcerpt`). */
export interface PostResult {
  status: number;
  response: string;
  /** The connection went to a non-public address (allowed by TRACKER_ALLOW_PRIVATE_TARGETS): its answer is not to be kept. */
  privateTarget: boolean;
}

/**
 * Whether the address a request actually connected to is not public: loopback, private,
 * link-local… (core's `classifyAddress`, the rule the guard applies). Unknown counts as private.
 */
export function isPrivatePeer(address: string | undefined): boolean {
  return address === undefined || !classifyAddress(address).public;
}

/**
 * What `lastError` may say of a redirect's `Location`: its origin only, for a public receiver
 * (the path and query may hold anything, tokens included); nothing for a private one, whose
 * redirects name hosts inside the network. Members read `lastError` (issue 28).
 */
export function redirectHint(location: string | undefined, base: URL, privateTarget: boolean): string {
  if (!location || privateTarget) return '';
  try {
    const target = new URL(location, base);
    if (target.protocol !== 'http:' && target.protocol !== 'https:') return '';
    return ` (it points to ${target.origin})`;
  } catch {
    return '';
  }
}

/**
 * The start of an answer as text safe to store and show: at most `MAX_RESPONSE_BYTES` read,
 * decoded as UTF-8 (bad bytes replaced), control characters flattened to spaces, cut to
 * `MAX_RESPONSE_CHARS`. The dashboard renders it as text; nothing here is ever interpreted.
 */
export function responseExcerpt(body: Buffer): string {
  return clip(body.subarray(0, MAX_RESPONSE_BYTES).toString('utf8'), MAX_RESPONSE_CHARS);
}

const STATUS_WORDS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  410: 'Gone',
  413: 'Payload Too Large',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export interface PostOptions {
  allowPrivateTargets: boolean;
  timeoutMs: number;
  userAgent: string;
  resolveHost?: HostResolver;
  /** What an HTTP-date `Retry-After` is measured from. */
  now: Clock;
}

/** Seconds or an HTTP date, as milliseconds from `now` (epoch ms); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

// The message is what every member of the project reads (`lastError`): it names the status, never
// the receiver's body, which goes to `response` (owners and admins only, and not kept at all
// for a private receiver: issue 28).
function errorForStatus(
  status: number,
  body: string,
  headers: http.IncomingHttpHeaders,
  what: string,
  now: number,
  target: URL,
  privateTarget: boolean,
): DeliveryError {
  if (status >= 300 && status < 400) {
    return new DeliveryError({
      code: 'HTTP_STATUS',
      status,
      retryable: false,
      response: body,
      privateTarget,
      message: `The ${what} address answered HTTP ${status}, a redirect, which Tracker does not follow: use the final address${redirectHint(headers.location, target, privateTarget)}.`,
    });
  }
  const retryable = status >= 500 || status === 408 || status === 429;
  const retryAfter = headers['retry-after'];
  const retryAfterMs = retryable
    ? parseRetryAfter(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter, now)
    : undefined;
  const words = STATUS_WORDS[status] ? ` ${STATUS_WORDS[status]}` : '';
  const advice = retryable ? 'Tracker will try again.' : 'Tracker will not retry: check the address and the receiver.';
  return new DeliveryError({
    code: 'HTTP_STATUS',
    status,
    retryable,
    retryAfterMs,
    response: body,
    privateTarget,
    message: `The ${what} receiver answered HTTP ${status}${words}. ${advice}`,
  });
}

/** Socket and TLS failures, in users' words (the errno code stays in `cause` for the logs). */
function networkWords(err: NodeJS.ErrnoException, host: string): string {
  switch (err.code) {
    case 'ECONNREFUSED':
      return `${host} refused the connection (nothing is listening there)`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `the host name ${host} could not be found`;
    case 'ECONNRESET':
    case 'EPIPE':
      return `${host} closed the connection before answering`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `${host} cannot be reached from this server`;
    case 'ETIMEDOUT':
      return `${host} did not accept the connection in time`;
    default:
      if (err.code && /CERT|SSL|TLS|SELF_SIGNED/i.test(err.code)) {
        return `the TLS certificate of ${host} was not accepted`;
      }
      return `the connection to ${host} failed`;
  }
}

function errorForNetwork(err: NodeJS.ErrnoException, what: string, host: string): DeliveryError {
  if (err instanceof DeliveryError) return err;
  // Unreachable, refused, reset, DNS and TLS failures may all clear up: retry.
  return new DeliveryError({
    code: 'CONNECTION',
    retryable: true,
    message: `Could not deliver to the ${what} address: ${networkWords(err, host)}. Tracker will try again.`,
    cause: err,
  });
}

/**
 * POSTs `body` to `url` (already checked by `targetUrlOrThrow`) and resolves with the status and
 * the start of the answer on 2xx. Never follows redirects. Connects through the guarded lookup, on a fresh socket (no
 * pooled connection can carry over from a request made under other rules), and bounds the
 * whole attempt by `timeoutMs`.
 */
export function postJson(
  url: URL,
  body: string,
  headers: Record<string, string>,
  options: PostOptions,
  what: string,
): Promise<PostResult> {
  const host = url.host;
  return new Promise<PostResult>((resolve, reject) => {
    let settled = false;
    const settle = (err: DeliveryError | null, result?: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) {
        req.destroy();
        reject(err);
      } else resolve(result!);
    };

    const transport = url.protocol === 'https:' ? https : http;
    const req = transport.request({
      method: 'POST',
      protocol: url.protocol,
      hostname: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port === '' ? undefined : Number(url.port),
      path: `${url.pathname}${url.search}`,
      headers: {
        ...headers,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'user-agent': options.userAgent,
        connection: 'close',
      },
      agent: false,
      lookup: createGuardedLookup(options.allowPrivateTargets, options.resolveHost),
    });

    const timer = setTimeout(() => {
      settle(
        new DeliveryError({
          code: 'TIMEOUT',
          retryable: true,
          message: `The ${what} receiver at ${host} did not answer within ${Math.round(options.timeoutMs / 100) / 10} s. Tracker will try again.`,
        }),
      );
    }, options.timeoutMs);

    req.on('error', (err) => settle(errorForNetwork(err, what, host)));
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      const ok = status >= 200 && status < 300;
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        // The rest is drained, not kept: an answer's size must not cost us memory.
        if (size < MAX_RESPONSE_BYTES) {
          chunks.push(chunk);
          size += chunk.length;
        }
      });
      res.on('error', (err) => settle(errorForNetwork(err, what, host)));
      // The address this request is connected to, after DNS and the guard: what decides whether
      // the answer may be kept.
      const privateTarget = isPrivatePeer(req.socket?.remoteAddress);
      res.on('end', () => {
        const response = responseExcerpt(Buffer.concat(chunks));
        if (ok) settle(null, { status, response, privateTarget });
        else settle(errorForStatus(status, response, res.headers, what, options.now(), url, privateTarget));
      });
    });
    req.end(body);
  });
}
