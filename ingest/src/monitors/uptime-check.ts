import http from 'node:http';
import https from 'node:https';
import type { TLSSocket } from 'node:tls';
import { checkTargetUrl, systemClock, type Clock } from '@tracker/core';
import { createGuardedLookup } from '../alerts/guard';
import type { HostResolver } from '../alerts/types';

/** Redirects followed before a check fails: the "2xx after up to 5 redirects". */
export const MAX_REDIRECTS = 5;

/** What one uptime check found. The body is counted, never kept. */
export interface UptimeResult {
  ok: boolean;
  statusCode: number | null;
  ttfbMs: number | null;
  totalMs: number;
  responseBytes: number | null;
  tlsExpiresAt: Date | null;
  /** Why it failed, in words: "DNS failure", "connection refused", "timeout after 10 s", "HTTP 503". */
  error: string | null;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

function describe(err: NodeJS.ErrnoException & { code?: string }): string {
  if (err.code === 'PRIVATE_TARGET') return err.message;
  if (err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN') return 'DNS failure';
  if (err.code === 'ECONNREFUSED') return 'connection refused';
  if (err.code === 'ECONNRESET') return 'connection reset';
  if (err.code === 'EHOSTUNREACH' || err.code === 'ENETUNREACH') return 'host unreachable';
  if (err.code?.startsWith('ERR_TLS') || err.code?.includes('CERT')) return `TLS error (${err.code})`;
  return err.message || String(err.code ?? 'request failed');
}

/**
 * GETs `url`, following up to five redirects, within `timeoutMs` for the whole check. Every
 * hop obeys the alert webhooks' target rules (decision 027): a literal private address is
 * refused before connecting, a name is resolved by the guarded lookup, which refuses a private
 * answer at connect time — so a public page that redirects to 127.0.0.1 fails the check
 * unless `allowPrivate` (TRACKER_ALLOW_PRIVATE_TARGETS=1). Never throws.
 */
export async function runUptimeCheck(
  url: string,
  options: { timeoutMs: number; allowPrivate: boolean; resolveHost?: HostResolver; clock?: Clock },
): Promise<UptimeResult> {
  const clock = options.clock ?? systemClock;
  const started = clock();
  const deadline = started + options.timeoutMs;
  const fail = (error: string, extra: Partial<UptimeResult> = {}): UptimeResult => ({
    ok: false,
    statusCode: null,
    ttfbMs: null,
    responseBytes: null,
    tlsExpiresAt: null,
    ...extra,
    totalMs: clock() - started,
    error,
  });
  let target = url;
  let tlsExpiresAt: Date | null = null;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const checked = checkTargetUrl(target, options.allowPrivate);
    if ('problem' in checked) return fail(checked.problem.message);
    const left = deadline - clock();
    if (left <= 0) return fail(`timeout after ${Math.round(options.timeoutMs / 1000)} s`);
    const answer = await requestOnce(checked.url, left, options, clock, started);
    if ('error' in answer) {
      return answer.timedOut
        ? fail(`timeout after ${Math.round(options.timeoutMs / 1000)} s`, { tlsExpiresAt })
        : fail(answer.error, { tlsExpiresAt });
    }
    tlsExpiresAt = answer.tlsExpiresAt ?? tlsExpiresAt;
    if (REDIRECTS.has(answer.statusCode) && answer.location) {
      if (hop === MAX_REDIRECTS) return fail(`more than ${MAX_REDIRECTS} redirects`, { statusCode: answer.statusCode });
      try {
        target = new URL(answer.location, checked.url).toString();
      } catch {
        return fail('a redirect to a URL that is not valid', { statusCode: answer.statusCode });
      }
      continue;
    }
    const ok = answer.statusCode >= 200 && answer.statusCode < 300;
    return {
      ok,
      statusCode: answer.statusCode,
      ttfbMs: answer.ttfbMs,
      totalMs: clock() - started,
      responseBytes: answer.bytes,
      tlsExpiresAt,
      error: ok ? null : `HTTP ${answer.statusCode}`,
    };
  }
  return fail(`more than ${MAX_REDIRECTS} redirects`);
}

type Answer =
  | { statusCode: number; location: string | undefined; ttfbMs: number; bytes: number; tlsExpiresAt: Date | null }
  | { error: string; timedOut: boolean };

function requestOnce(
  url: URL,
  timeoutMs: number,
  options: { allowPrivate: boolean; resolveHost?: HostResolver },
  clock: Clock,
  started: number,
): Promise<Answer> {
  return new Promise((resolve) => {
    const lib = url.protocol === 'https:' ? https : http;
    let settled = false;
    let tlsExpiresAt: Date | null = null;
    const done = (a: Answer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(a);
    };
    const req = lib.request(url, {
      method: 'GET',
      lookup: createGuardedLookup(options.allowPrivate, options.resolveHost),
      headers: { 'user-agent': 'Tracker-Uptime/1', accept: '*/*' },
      agent: false,
    });
    const timer = setTimeout(() => {
      done({ error: 'timeout', timedOut: true });
      req.destroy();
    }, timeoutMs);
    req.on('socket', (socket) => {
      socket.on('secureConnect', () => {
        const cert = (socket as TLSSocket).getPeerCertificate?.();
        if (cert?.valid_to) tlsExpiresAt = new Date(cert.valid_to);
      });
    });
    req.on('response', (res) => {
      const ttfbMs = clock() - started;
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () =>
        done({ statusCode: res.statusCode ?? 0, location: res.headers.location, ttfbMs, bytes, tlsExpiresAt }),
      );
      res.on('error', (err) => done({ error: describe(err), timedOut: false }));
    });
    req.on('error', (err) => done({ error: describe(err), timedOut: false }));
    req.end();
  });
}
