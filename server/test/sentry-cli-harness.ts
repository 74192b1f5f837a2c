import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { build, type Plugin } from 'esbuild';
import type { Browser } from 'playwright-core';
import { gqlOk, signUpWithProject } from './helpers';

/** The app of the sentry-cli tests: @sentry/browser 11 and a three-function chain that throws. */
export const APP_DIR = join(__dirname, 'fixtures/sentry-cli-app');
/** Where `validateCard` throws, and its callers' lines, in fixtures/sentry-cli-app/checkout.ts. */
export const THROW_LINE = 13;
export const CALLER_LINES = { chargeCard: 8, checkout: 4 } as const;

/** @sentry/cli 3.8.0's launcher (the binary comes with its platform package). */
const SENTRY_CLI = join(dirname(require.resolve('@sentry/cli/package.json')), 'bin', 'sentry-cli');

/** A signed-up tenant with an upload token, named as sentry-cli names them. */
export async function cliTenant(baseUrl: string, name = 'Web') {
  const account = await signUpWithProject(baseUrl, name);
  const token = (
    await gqlOk(
      baseUrl,
      `mutation($p: ID!) { createUploadToken(projectId: $p, name: "ci") { token } }`,
      { p: account.project.id },
      account.token,
    )
  ).createUploadToken.token as string;
  const number = new URL(account.dsn).pathname.split('/').filter(Boolean).pop()!;
  return {
    ...account,
    uploadToken: token,
    org: account.organization.slug as string,
    projectSlug: name.toLowerCase(),
    number,
  };
}

/** Builds the app minified with source maps into `outdir` (`app.js`, `app.js.map`). */
export async function buildApp(outdir: string, plugins: Plugin[] = []): Promise<void> {
  mkdirSync(outdir, { recursive: true });
  await build({
    entryPoints: { app: join(APP_DIR, 'main.ts') },
    bundle: true,
    minify: true,
    sourcemap: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    outdir,
    logLevel: 'silent',
    plugins,
  });
}

/**
 * Runs sentry-cli against Tracker only: its configuration from the environment (no ~/.sentryclirc,
 * no .env), no update check, no proxy. Resolves with its output, rejects with it on failure.
 */
export function runSentryCli(
  args: string[],
  env: { url: string; token: string; org: string; project: string; home: string },
): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [SENTRY_CLI, ...args],
      {
        env: {
          NODE_ENV: 'test',
          PATH: process.env.PATH ?? '',
          HOME: env.home,
          SENTRY_URL: env.url,
          SENTRY_AUTH_TOKEN: env.token,
          SENTRY_ORG: env.org,
          SENTRY_PROJECT: env.project,
          SENTRY_DISABLE_UPDATE_CHECK: '1',
          SENTRY_LOAD_DOTENV: '0',
          SENTRY_LOG_LEVEL: 'warn',
          NO_PROXY: '*',
        },
        timeout: 120_000,
      },
      (error, stdout, stderr) => {
        const out = `${stdout}\n${stderr}`;
        if (error) reject(new Error(`sentry-cli ${args.join(' ')} failed: ${error.message}\n${out}`));
        else resolve(out);
      },
    );
  });
}

/** A loopback site serving one built app folder and a page that loads it with a DSN. */
export async function startAppSite(dir: string): Promise<{ origin: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://site');
    if (url.pathname === '/app.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(readFileSync(join(dir, 'app.js')));
      return;
    }
    if (url.pathname === '/page.html') {
      const config = url.searchParams.get('config') ?? '{}';
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html><head><meta charset="utf-8"><title>shop</title>
<script>window.APP = ${config.replace(/</g, '\\u003c')};</script></head>
<body><h1>Checkout</h1><script src="/app.js"></script></body></html>`);
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

/** Loads the page in a fresh Chromium context; answers the SDK's event id once it flushed. */
export async function throwInBrowser(browser: Browser, origin: string, app: { dsn: string; release: string }) {
  const context = await browser.newContext();
  context.setDefaultTimeout(60_000);
  try {
    const page = await context.newPage();
    await page.goto(`${origin}/page.html?config=${encodeURIComponent(JSON.stringify(app))}`);
    await page.waitForFunction('window.RESULT || window.FAILED', undefined, { timeout: 60_000 });
    const failed = (await page.evaluate('window.FAILED')) as string | undefined;
    if (failed) throw new Error(`page failed: ${failed}`);
    return (await page.evaluate('window.RESULT')) as { eventId: string; flushed: boolean };
  } finally {
    await context.close().catch(() => undefined);
  }
}

export const sha1 = (data: Uint8Array): string => createHash('sha1').update(data).digest('hex');

/** sentry-cli's chunk upload: a multipart body of `file` parts named by their sha1. */
export async function uploadChunks(
  baseUrl: string,
  tenant: { org: string; uploadToken: string },
  chunks: Array<{ name: string; data: Uint8Array }>,
): Promise<Response> {
  const form = new FormData();
  for (const c of chunks) form.append('file', new Blob([c.data]), c.name);
  return fetch(`${baseUrl}/api/0/organizations/${tenant.org}/chunk-upload/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tenant.uploadToken}` },
    body: form,
  });
}

/** `POST …/artifactbundle/assemble/` as sentry-cli 3.x sends it. */
export async function assemble(
  baseUrl: string,
  tenant: { org: string; uploadToken: string; projectSlug: string },
  body: Record<string, unknown>,
): Promise<{ status: number; body: any }> {
  const r = await fetch(`${baseUrl}/api/0/organizations/${tenant.org}/artifactbundle/assemble/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tenant.uploadToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ projects: [tenant.projectSlug], ...body }),
  });
  return { status: r.status, body: await r.json() };
}
