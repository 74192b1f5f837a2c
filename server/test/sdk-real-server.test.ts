import { CHROMIUM_ARGS } from '@tracker/core/testing';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { release } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { queryRows } from '@tracker/core';
import { chromium, type Browser } from 'playwright-core';
import type { Tracker } from '../src';
import { createTestEnv, gqlOk, signUpWithProject, startTracker, waitFor, type TestEnv } from './helpers';

// The BUILT packages, as an app installs them (turbo builds them before the server's tests):
// this proves the published artefacts, not the SDK sources, against the real ingest edge.
const trackerNode = require('@tracker/node') as typeof import('@tracker/node');
const BROWSER_BUNDLE = join(dirname(require.resolve('@tracker/browser/package.json')), 'dist', 'tracker.min.js');


const ISSUE_DETAIL = `query($id: ID!) { issue(id: $id) { id title eventCount feedback { message email eventId } } }`;

describe('the built SDKs against a real Tracker (embedded)', () => {
  let env: TestEnv;
  let tracker: Tracker;
  let url: string;
  before(async () => {
    env = await createTestEnv('embedded');
    tracker = await startTracker(env);
    url = tracker.url;
  });
  after(async () => {
    await tracker.close();
    await env.cleanup();
  });

  const rows = <T = any>(sql: string, params: unknown[]) => queryRows<T>(tracker.db.ds, sql, params);
  const eventOf = (projectId: string, eventId: string) =>
    rows('SELECT * FROM events WHERE project_id = $1 AND event_id = $2', [projectId, eventId]).then((r) => r[0]);

  test('@tracker/node sends an error, a log and feedback that show up in the database and GraphQL', async () => {
    const a = await signUpWithProject(url, 'Node app');
    assert.match(
      require.resolve('@tracker/node'),
      /sdk\/node\/dist\/index\.cjs$/,
      'the built package, not its sources',
    );
    trackerNode.init({
      dsn: a.dsn,
      environment: 'node-test',
      release: 'api@1.2.0',
      tags: { service: 'billing' },
      exitOnFatal: false,
    });
    try {
      const eventId = trackerNode.captureException(new RangeError('invoice total is negative'), {
        user: { id: 'u-42' },
      });
      await trackerNode.logger.warn('retrying charge', { attempt: 2 });
      await trackerNode.captureFeedback({ message: 'I was billed twice', email: 'ops@example.com' });
      assert.equal(await trackerNode.flush(5_000), true);
      assert.deepEqual(trackerNode.getStats(), { sent: 3, failed: 0, retried: 0, dropped: 0, internalErrors: 0 });

      const event = await waitFor('event', () => eventOf(a.project.id, eventId));
      assert.deepEqual(
        [
          event.type,
          event.message,
          event.level,
          event.handled,
          event.environment,
          event.release,
          event.tags,
          event.sdk.name,
        ],
        [
          'RangeError',
          'invoice total is negative',
          'error',
          true,
          'node-test',
          'api@1.2.0',
          {
            service: 'billing',
            // Derived by the worker from the runtime and os the SDK sends in its context.
            runtime: `node ${process.versions.node}`,
            'runtime.name': 'node',
            os: `Linux ${release()}`,
            'os.name': 'Linux',
          },
          'tracker.node',
        ],
      );
      assert.deepEqual(event.context.runtime, { name: 'node', version: process.versions.node });
      assert.ok(event.frames.length > 0, 'the V8 stack was parsed');

      const [log] = await waitFor('log', async () => {
        const found = await rows('SELECT * FROM logs WHERE project_id = $1', [a.project.id]);
        return found.length > 0 && found;
      });
      assert.deepEqual(
        [log.level, log.message, log.context, log.environment, log.release, log.tags],
        ['warn', 'retrying charge', { attempt: 2 }, 'node-test', 'api@1.2.0', { service: 'billing' }],
      );

      const feedback = await waitFor('linked feedback', async () => {
        const [row] = await rows('SELECT * FROM feedback WHERE project_id = $1', [a.project.id]);
        return row?.issue_id && row;
      });
      assert.deepEqual([feedback.event_id, feedback.issue_id], [eventId, event.issue_id]);
      const detail = await gqlOk(url, ISSUE_DETAIL, { id: event.issue_id }, a.token);
      assert.equal(detail.issue.title, 'RangeError: invoice total is negative');
      assert.deepEqual(detail.issue.feedback, [{ message: 'I was billed twice', email: 'ops@example.com', eventId }]);
    } finally {
      await trackerNode.close();
    }
  });

  test('@tracker/node reports a fatal uncaught exception before the process exits', async () => {
    const a = await signUpWithProject(url, 'Crashing app');
    const script = `const T = require('@tracker/node');
      T.init({ dsn: ${JSON.stringify(a.dsn)}, environment: 'node-test' });
      setTimeout(() => { throw new TypeError('fatal in worker'); }, 10);`;
    const exit = await promisify(execFile)(process.execPath, ['-e', script], { cwd: __dirname }).then(
      () => ({ code: 0, stderr: '' }),
      (err: { code: number; stderr: string }) => ({ code: err.code, stderr: err.stderr }),
    );
    assert.equal(exit.code, 1, 'the process still dies as Node would');
    assert.match(exit.stderr, /fatal in worker/);
    const [event] = await waitFor('fatal event', async () => {
      const found = await rows('SELECT * FROM events WHERE project_id = $1', [a.project.id]);
      return found.length > 0 && found;
    });
    assert.deepEqual([event.type, event.level, event.handled], ['TypeError', 'fatal', false]);
  });

  describe('@tracker/browser in headless Chromium, on a page of another origin', () => {
    let browser: Browser;
    let site: Server;
    let siteOrigin: string;
    const pages = new Map<string, string>();
    before(async () => {
      site = createServer((req, res) => {
        const path = (req.url ?? '/').split('?')[0];
        if (path === '/tracker.min.js')
          return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(readFileSync(BROWSER_BUNDLE));
        const page = pages.get(path);
        if (!page) return void res.writeHead(404).end();
        res.writeHead(200, { 'content-type': 'text/html' }).end(page);
      });
      await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
      siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
      browser = await chromium.launch({
        executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
        args: CHROMIUM_ARGS,
      });
    });
    after(async () => {
      await browser?.close();
      site?.closeAllConnections();
      await new Promise((resolve) => site?.close(resolve));
    });

    test('an uncaught error, a log and a vitals report arrive in Tracker over real CORS', async () => {
      const a = await signUpWithProject(url, 'Shop');
      assert.notEqual(new URL(a.dsn).origin, siteOrigin, 'the page and Tracker are different origins');
      const init = { dsn: a.dsn, environment: 'browser-test', release: 'web@7', tags: { app: 'shop' }, vitals: true };
      pages.set(
        '/checkout.html',
        `<!doctype html><html><head><meta charset="utf-8"><title>checkout</title>
<script src="/tracker.min.js"></script>
<script>Tracker.init(${JSON.stringify(init)});</script>
</head><body><main><h1 style="font-size:48px">Checkout</h1><p>Some text for first paint.</p>
<button id="pay" style="width:200px;height:60px">Pay</button></main>
<script>
  // A slow handler that repaints: INP measures from the click to the next paint.
  document.getElementById('pay').addEventListener('click', () => {
    const end = performance.now() + 80;
    while (performance.now() < end) {}
    document.getElementById('pay').textContent = 'Paid';
  });
  Tracker.logger.info('checkout opened', { items: 3 });
  setTimeout(function payNow() { throw new TypeError('card form is undefined'); }, 0);
</script></body></html>`,
      );
      const context = await browser.newContext();
      const page = await context.newPage();
      const pageErrors: string[] = [];
      page.on('pageerror', (error) => pageErrors.push(error.message));
      await page.goto(`${siteOrigin}/checkout.html?coupon=SECRET#summary`);

      const event = await waitFor('browser error', async () => {
        const [row] = await rows('SELECT * FROM events WHERE project_id = $1', [a.project.id]);
        return row;
      });
      assert.deepEqual(
        [event.type, event.message, event.handled, event.environment, event.release, event.tags.app, event.sdk.name],
        ['TypeError', 'card form is undefined', false, 'browser-test', 'web@7', 'shop', 'tracker.browser'],
      );
      // The SDK sends the browser's User-Agent; the worker derives browser and os tags from it.
      const userAgent = (await page.evaluate('navigator.userAgent')) as string;
      assert.deepEqual(event.context, { userAgent });
      const major = /Chrome\/(\d+)/.exec(userAgent)![1];
      assert.match(event.tags['browser.name'], /^Chrome/);
      assert.equal(event.tags.browser, `${event.tags['browser.name']} ${major}`);
      assert.deepEqual([event.tags.os, event.tags['os.name'], event.tags.device], ['Linux', 'Linux', undefined]);
      assert.equal(event.url, `${siteOrigin}/checkout.html?coupon=SECRET#summary`);
      assert.ok(
        event.frames.some((f: { function: string | null }) => f.function?.includes('payNow')),
        JSON.stringify(event.frames),
      );
      assert.deepEqual(pageErrors, ['card form is undefined'], 'the SDK threw nothing into the page');

      const log = await waitFor('browser log', async () => {
        const [row] = await rows('SELECT * FROM logs WHERE project_id = $1', [a.project.id]);
        return row;
      });
      assert.deepEqual(
        [log.level, log.message, log.context, log.environment, log.release, log.tags],
        ['info', 'checkout opened', { items: 3 }, 'browser-test', 'web@7', { app: 'shop' }],
      );

      // A slow click gives INP an interaction; vitals are reported once, when the page is first
      // hidden: leave it.
      await new Promise((r) => setTimeout(r, 700));
      await page.click('#pay');
      await new Promise((r) => setTimeout(r, 400));
      // Headless Chromium paints on demand: without a frame after the click, its event-timing
      // entry (what INP is made of) may not be delivered before the page hides.
      await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
      await page.goto('about:blank');
      const vitals = await waitFor('vitals report', async () => {
        const found = await rows('SELECT * FROM vitals_reports WHERE project_id = $1', [a.project.id]);
        return found.length > 0 && found;
      });
      await context.close();
      assert.equal(vitals.length, 1);
      const [report] = vitals;
      assert.equal(report.url, `${siteOrigin}/checkout.html`);
      assert.deepEqual([report.environment, report.release, report.tags], ['browser-test', 'web@7', { app: 'shop' }]);
      assert.ok(report.lcp > 0 && report.fcp > 0 && report.ttfb >= 0, JSON.stringify(report));
      assert.ok(report.inp >= 40, `INP ${report.inp} from the real click`);
    });
  });
});
