import http from 'node:http';
import https from 'node:https';
import type { Clock } from '@tracker/core';
import { DeliveryError } from './errors';
import { createGuardedLookup } from './guard';
import { clip } from './render';
import type { HostResolver } from './types';

/** How much of an error answer's body goes into the error message. */
const MAX_ERROR_BODY = 512;

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

function errorForStatus(
  status: number,
  body: string,
  headers: http.IncomingHttpHeaders,
  what: string,
  now: number,
): DeliveryError {
  const snippet = clip(body, 200);
  const tail = snippet === '' ? '' : `: ${snippet}`;
  if (status >= 300 && status < 400) {
    return new DeliveryError({
      code: 'HTTP_STATUS',
      status,
      retryable: false,
      message: `${what} answered HTTP ${status}; redirects are not followed${headers.location ? ` (Location: ${clip(headers.location, 200)})` : ''}`,
    });
  }
  const retryable = status >= 500 || status === 408 || status === 429;
  const retryAfter = headers['retry-after'];
  const retryAfterMs = retryable
    ? parseRetryAfter(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter, now)
    : undefined;
  return new DeliveryError({
    code: 'HTTP_STATUS',
    status,
    retryable,
    retryAfterMs,
    message: `${what} answered HTTP ${status}${tail}`,
  });
}

function errorForNetwork(err: NodeJS.ErrnoException, what: string): DeliveryError {
  if (err instanceof DeliveryError) return err;
  const code = err.code ? `${err.code}: ` : '';
  // Unreachable, refused, reset, DNS and TLS failures may all clear up: retry.
  return new DeliveryError({
    code: 'CONNECTION',
    retryable: true,
    message: `${what} unreachable: ${code}${err.message}`,
    cause: err,
  });
}

/**
 * POSTs `body` to `url` (already checked by `targetUrlOrThrow`) and resolves with the status on
 * 2xx. Never follows redirects. Connects through the guarded lookup, on a fresh socket (no
 * pooled connection can carry over from a request made under other rules), and bounds the
 * whole attempt by `timeoutMs`.
 */
export function postJson(
  url: URL,
  body: string,
  headers: Record<string, string>,
  options: PostOptions,
  what: string,
): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    let settled = false;
    const settle = (err: DeliveryError | null, status?: number) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) {
        req.destroy();
        reject(err);
      } else resolve(status!);
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
          message: `${what} did not answer within ${options.timeoutMs} ms`,
        }),
      );
    }, options.timeoutMs);

    req.on('error', (err) => settle(errorForNetwork(err, what)));
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      const ok = status >= 200 && status < 300;
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        if (!ok && size < MAX_ERROR_BODY) {
          chunks.push(chunk);
          size += chunk.length;
        }
      });
      res.on('error', (err) => settle(errorForNetwork(err, what)));
      res.on('end', () => {
        if (ok) settle(null, status);
        else
          settle(
            errorForStatus(
              status,
              Buffer.concat(chunks).subarray(0, MAX_ERROR_BODY).toString('utf8'),
              res.headers,
              what,
              options.now(),
            ),
          );
      });
    });
    req.end(body);
  });
}
