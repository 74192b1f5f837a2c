// Issue 31: every CORS preflight (`OPTIONS /ingest/error` from the browser SDK) logged
// `ERROR ingest request failed … ERR_HTTP_HEADERS_SENT` and two warnings, though the browser got its
// 204: the preflight was answered twice. Tracker runs as `npm start` runs it, in its own process at
// log level debug, with its output captured; the browser SDK it serves runs in Chromium on a page
// of another origin (so every send is preceded by a preflight) and sends an error, a log and a
// Web Vitals report. Nothing it prints may be a warning or worse.
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@tracker/core/testing';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import { startChildServer, type ChildServer } from './child-server';
import { gqlOk, signUpWithProject, waitFor } from './helpers';

const VERSION = (
  JSON.parse(readFileSync(require.resolve('@tracker/browser/package.json'), 'utf8')) as { version: string }
).version;

let dir: string;
let server: ChildServer;
let site: Server | undefined;
let browser: Browser | undefined;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tracker-quiet-'));
  server = await startChildServer({ TRACKER_DATA_DIR: dir, TRACKER_LOG_LEVEL: 'debug' }, 'ingest,worker,api,web', {
    startTimeoutMs: 120_000,
  });
});
after(async () => {
  await browser?.close().catch(() => undefined);
  site?.closeAllConnections();
  await new Promise((resolve) => (site ? site.close(resolve) : resolve(undefined)));
  await server?.kill();
  await rm(dir, { recursive: true, force: true });
});

/** The lines Tracker printed at warn (40) or above; its log is JSON lines when not on a terminal. */
function warningsIn(output: string): string[] {
  return output
    .split('\n')
    .filter((line) => line.trim() !== '')
    .filter((line) => {
      try {
        return (JSON.parse(line) as { level?: number }).level! >= 40;
      } catch {
        return true; // anything that is not a log line (a stack trace on stderr) counts too
      }
    });
}

test('a browser SDK session (preflights, an error, a log, vitals) logs nothing at warn or above', async () => {
  const a = await signUpWithProject(server.url, 'Quiet');
  const scriptUrl = `${server.url}/sdk/${VERSION}/tracker.min.js`;
  assert.equal((await fetch(scriptUrl)).status, 200, 'the instance serves the browser SDK (npm run build)');
  const init = { dsn: a.dsn, environment: 'quiet', release: 'quiet@1.0.0' }; // vitals: on by default
  site = createServer((req, res) => {
    if (req.url !== '/page.html') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(`<!doctype html><html><head><meta charset="utf-8"><title>quiet</title>
<script src="${scriptUrl}" crossorigin="anonymous"></script>
<script>Tracker.init(${JSON.stringify(init)});</script></head>
<body><h1 style="font-size:48px">Quiet</h1><p>Some text for first paint.</p>
<script>
  Tracker.captureException(new Error('sent from the quiet page'));
  Tracker.logger.info('a log line from the quiet page');
  window.done = Tracker.flush(10000);
</script></body></html>`);
  });
  await new Promise<void>((resolve) => site!.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  assert.notEqual(new URL(a.dsn).origin, origin, 'the sends cross origins: each one is preflighted');

  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, timeout: 20_000 });
  const context = await browser.newContext();
  const answered: string[] = [];
  context.on('response', (r) => {
    const path = new URL(r.url()).pathname;
    if (path.startsWith('/ingest/')) answered.push(`${r.request().method()} ${path} ${r.status()}`);
  });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  await page.goto(`${origin}/page.html`);
  await page.waitForFunction(() => (globalThis as { done?: unknown }).done !== undefined);
  assert.equal(await page.evaluate(() => (globalThis as unknown as { done: Promise<boolean> }).done), true);
  // Vitals are reported once, when the page is hidden.
  await page.goto('about:blank');
  await waitFor('the error and the log answered', async () =>
    ['error', 'log'].every((kind) => answered.includes(`POST /ingest/${kind} 202`)),
  ).catch((err: Error) => assert.fail(`${err.message}: ${JSON.stringify(answered)}`));
  // The vitals report leaves as the page goes (keepalive), after Playwright stops watching it: it
  // is checked where it lands.
  await waitFor(
    'the vitals report stored',
    async () => {
      const r = await gqlOk(
        server.url,
        `query($p: ID!) { vitals(projectId: $p) { pageViews } }`,
        {
          p: a.project.id,
        },
        a.token,
      );
      return r.vitals.pageViews >= 1;
    },
    30_000,
  );
  await page.close();

  // Give the process a moment to print what it would print about the last requests.
  await new Promise((r) => setTimeout(r, 500));
  assert.deepEqual(warningsIn(server.output()), []);
});
