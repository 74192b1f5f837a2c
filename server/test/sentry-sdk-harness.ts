import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';

/** The majors under test; each is an exact-version npm alias in server/package.json. */
export const SENTRY_MAJORS = [8, 9, 10, 11] as const;
export type SentryMajor = (typeof SENTRY_MAJORS)[number];
export type Scenario =
  'full' | 'tunnel' | 'log-quota' | 'event-quota' | 'bench' | 'evidence' | 'sessions' | 'request-sessions' | 'tracing';

/** Structured logs (`Sentry.logger`) exist from major 9 on. */
export const supportsLogs = (major: SentryMajor) => major >= 9;

export const sentryVersion = (sdk: 'node' | 'browser', major: SentryMajor): string =>
  require(`sentry-${sdk}-${major}/package.json`).version;

export interface EnvelopeItem {
  header: Record<string, any>;
  payload: Buffer;
}

/** Splits a Sentry envelope: a header line, then per item a header line and its payload. */
export function parseEnvelope(body: Buffer): { header: Record<string, any>; items: EnvelopeItem[] } {
  let at = 0;
  const line = (): Buffer => {
    const end = body.indexOf(0x0a, at);
    const slice = body.subarray(at, end === -1 ? body.length : end);
    at = end === -1 ? body.length : end + 1;
    return slice;
  };
  const header = JSON.parse(line().toString('utf8') || '{}');
  const items: EnvelopeItem[] = [];
  while (at < body.length) {
    const raw = line();
    if (raw.length === 0) continue;
    const itemHeader = JSON.parse(raw.toString('utf8'));
    let payload: Buffer;
    if (typeof itemHeader.length === 'number') {
      payload = body.subarray(at, at + itemHeader.length);
      at += itemHeader.length + 1;
    } else {
      payload = line();
    }
    items.push({ header: itemHeader, payload });
  }
  return { header, items };
}

/** One request an SDK made, as the proxy in front of Tracker saw it. */
export interface RecordedRequest {
  method: string;
  path: string;
  origin?: string;
  contentEncoding?: string;
  /** Bytes on the wire (compressed when gzip). */
  wireBytes: number;
  /** Bytes of the envelope after decoding. */
  envelopeBytes: number;
  envelopeDsn?: string;
  itemTypes: string[];
  status: number;
  rateLimits?: string;
  retryAfter?: string;
  exposeHeaders?: string;
  allowOrigin?: string;
}

export interface RecordingProxy {
  /** host:port to put in DSNs. */
  host: string;
  origin: string;
  requests: RecordedRequest[];
  /** The requests whose path contains `/api/<number>/`. */
  forProject(number: string): RecordedRequest[];
  close(): Promise<void>;
}

/**
 * A loopback HTTP proxy in front of Tracker that records every request an SDK makes (items,
 * encoding, size) and Tracker's answer (status, rate-limit headers), then passes both through
 * unchanged. It shows what the SDK itself did after a 429, which Tracker's storage alone cannot.
 */
export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const to = new URL(target);
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const record: RecordedRequest = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        origin: req.headers.origin,
        contentEncoding: req.headers['content-encoding'],
        wireBytes: body.length,
        envelopeBytes: 0,
        itemTypes: [],
        status: 0,
      };
      if (req.method === 'POST' && body.length > 0) {
        try {
          const decoded = record.contentEncoding === 'gzip' ? gunzipSync(body) : body;
          record.envelopeBytes = decoded.length;
          const envelope = parseEnvelope(decoded);
          record.envelopeDsn = envelope.header.dsn;
          record.itemTypes = envelope.items.map((i) => String(i.header.type));
        } catch {
          record.itemTypes = ['<unparsable>'];
        }
      }
      requests.push(record);
      const headers: IncomingHttpHeaders = { ...req.headers, host: to.host };
      const upstream = request(
        { host: to.hostname, port: to.port, method: req.method, path: req.url, headers },
        (answer) => {
          record.status = answer.statusCode ?? 0;
          record.rateLimits = answer.headers['x-sentry-rate-limits'] as string | undefined;
          record.retryAfter = answer.headers['retry-after'] as string | undefined;
          record.exposeHeaders = answer.headers['access-control-expose-headers'] as string | undefined;
          record.allowOrigin = answer.headers['access-control-allow-origin'] as string | undefined;
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => {
        record.status = 502;
        if (!res.headersSent) res.writeHead(502);
        res.end();
      });
      upstream.end(body);
    });
  });
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    host,
    origin: `http://${host}`,
    requests,
    forProject: (number) => requests.filter((r) => r.path.includes(`/api/${number}/`)),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** What a scenario reports back: the event ids the SDK returned, and whether flush succeeded. */
export type SentResult = Record<string, any> & { flushed: boolean };

/**
 * Runs one scenario of one @sentry/node major in a child process (sentry-node-sender.cjs).
 * Loading @sentry/node 8+ costs 1–2 s of CPU (OpenTelemetry and its instrumentations); on a
 * machine shared with other jobs that took over 20 s, hence the generous bound.
 */
export function runNodeScenario(
  major: SentryMajor,
  scenario: Scenario,
  dsn: string,
  tunnel?: string,
  timeoutMs = 60_000,
): Promise<SentResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(__dirname, 'sentry-node-sender.cjs')], {
      // Only what the script reads (and PATH): nothing of the test's own environment leaks in.
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'production',
        SENTRY_PACKAGE: `sentry-node-${major}`,
        SENTRY_MAJOR: String(major),
        SENTRY_SCENARIO: scenario,
        SENTRY_DSN: dsn,
        SENTRY_TUNNEL: tunnel ?? '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const last = out.trim().split('\n').pop();
      if (code !== 0 || !last) {
        reject(new Error(`node ${major} ${scenario} exited ${code ?? signal}: ${err.slice(-2_000)}`));
        return;
      }
      resolve(JSON.parse(last));
    });
  });
}

/** Each @sentry/browser major as an IIFE exposing the global `Sentry`, as a CDN bundle would. */
export async function bundleSentryBrowser(major: SentryMajor): Promise<string> {
  const result = await build({
    stdin: { contents: `export * from 'sentry-browser-${major}';`, resolveDir: __dirname, loader: 'js' },
    bundle: true,
    format: 'iife',
    globalName: 'Sentry',
    platform: 'browser',
    target: 'es2020',
    minify: true,
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0].text;
}

/** A loopback site on its own port that serves the SDK bundles and one page per scenario. */
export async function startSite(
  bundles: Map<SentryMajor, string>,
): Promise<{ origin: string; close(): Promise<void> }> {
  const scenarioScript = readFileSync(join(__dirname, 'sentry-browser-scenario.js'), 'utf8');
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://site');
    const bundle = /^\/sentry-browser-(\d+)\.js$/.exec(url.pathname);
    if (bundle && bundles.has(Number(bundle[1]) as SentryMajor)) {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(bundles.get(Number(bundle[1]) as SentryMajor));
      return;
    }
    if (url.pathname === '/scenario.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(scenarioScript);
      return;
    }
    if (url.pathname === '/page.html') {
      const config = url.searchParams.get('config') ?? '{}';
      const { major } = JSON.parse(config);
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html><head><meta charset="utf-8"><title>shop</title>
<script>window.SCENARIO = ${config.replace(/</g, '\\u003c')};</script>
<script src="/sentry-browser-${Number(major)}.js"></script>
</head><body><h1>Checkout</h1><script src="/scenario.js"></script></body></html>`);
      return;
    }
    res.writeHead(404);
    res.end();
  });
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Runs one scenario of one @sentry/browser major in a fresh Chromium context on the site. */
export async function runBrowserScenario(
  browser: Browser,
  siteOrigin: string,
  major: SentryMajor,
  scenario: Scenario,
  dsn: string,
  tunnel?: string,
  timeoutMs = 60_000,
): Promise<SentResult & { pageErrors: string[] }> {
  const context = await browser.newContext();
  context.setDefaultTimeout(timeoutMs);
  try {
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    const config = JSON.stringify({ major, scenario, dsn, tunnel });
    await page.goto(`${siteOrigin}/page.html?config=${encodeURIComponent(config)}`);
    await page.waitForFunction('window.RESULT || window.FAILED', undefined, { timeout: timeoutMs });
    const failed = (await page.evaluate('window.FAILED')) as string | undefined;
    if (failed) throw new Error(`browser ${major} ${scenario}: ${failed}`);
    const result = (await page.evaluate('window.RESULT')) as SentResult;
    return { ...result, pageErrors };
  } finally {
    await context.close().catch(() => undefined);
  }
}
