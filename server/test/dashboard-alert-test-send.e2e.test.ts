import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@tracker/core/testing';
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import type { Tracker } from '../src';
import { watchedPages } from './dashboard-browser';
import { queryRows } from '@tracker/core';
import { createTestEnv, startTracker, type TestEnv } from './helpers';

/** A port nothing listens on: taken from the OS, then let go. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

// The Alerts page's "Send test notification" in a real browser against a real Tracker: the
// test goes through the real channel code to a real HTTP receiver on loopback, and the page
// shows how the receiver answered (its status: a loopback receiver's body is not kept, issue 28);
// a receiver that refuses gets the failure and the warning.

const PASSWORD = 'correct horse battery staple';

describe('alerts page in a real browser: Send test notification (postgres+redis)', () => {
  let env: TestEnv | undefined;
  let tracker: Tracker | undefined;
  let browser: Browser | undefined;
  let receiver: Server | undefined;
  let receiverOrigin: string;
  let url: string;
  const hits: Array<{ path: string; headers: IncomingHttpHeaders; body: string }> = [];

  before(async () => {
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        hits.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        if (req.url === '/busy') res.writeHead(503, { 'content-type': 'text/plain' }).end('try later');
        else if (req.url === '/gone')
          res.writeHead(404, { 'content-type': 'text/plain' }).end('<b>unknown webhook</b>');
        else res.writeHead(200, { 'content-type': 'text/plain' }).end('thanks, got it');
      });
    });
    await new Promise<void>((r) => receiver!.listen(0, '127.0.0.1', r));
    receiverOrigin = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    // Loopback receivers need private targets allowed; no SMTP, so email is not offered.
    env = await createTestEnv('postgres+redis', { allowPrivateTargets: true });
    tracker = await startTracker(env, { roles: ['ingest', 'worker', 'api', 'web'] });
    url = tracker.url;
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  });
  after(async () => {
    await browser?.close().catch(() => {});
    await tracker?.close().catch(() => {});
    await env?.cleanup().catch(() => {});
    await new Promise<void>((r) => (receiver ? receiver.close(() => r()) : r()));
  });

  const { newPage, assertInert, screenshot } = watchedPages(
    () => browser!,
    () => url,
  );

  test('a test to a working webhook shows HTTP 200 and its answer; a 404 shows the failure and the warning', async () => {
    const { page, context } = await newPage();
    try {
      await page.goto('/signup');
      await page.getByLabel('Email').fill(`alerts-${Date.now()}@example.com`);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByLabel('Organization name').fill('Acme');
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.waitForURL((u) => u.pathname === '/projects/new');
      await page.getByLabel('Project name').fill('Storefront');
      await page.getByRole('button', { name: 'Create project' }).click();
      await page.waitForURL((u) => /^\/projects\/[^/]+$/.test(u.pathname) && u.pathname !== '/projects/new');
      const projectId = decodeURIComponent(new URL(page.url()).pathname.split('/')[2]);
      await page.goto(`/projects/${projectId}/alerts`);

      // What this instance can deliver, in its own words.
      const options = await page.locator('#rule-channel option').allTextContents();
      assert.deepEqual(options, ['Webhook', 'Slack', 'Microsoft Teams', 'Discord']);
      const help = await page.locator('.channel-help').innerText();
      assert.match(help, /including private and local network addresses \(this instance allows them\)/);
      assert.match(
        help,
        /Email: Email alerts are not available on this Tracker instance: it has no mail server configured/,
      );

      await page.getByLabel('Send to').selectOption('WEBHOOK');
      await page.getByLabel('URL or email address').fill(`${receiverOrigin}/hook`);
      await page.getByRole('button', { name: 'Add rule' }).click();
      const send = page.getByRole('button', { name: `Send test notification to webhook ${receiverOrigin}/hook` });
      await send.click();
      const result = page.getByTestId('test-result');
      await result.waitFor();
      assert.equal(
        (await result.innerText()).replace(/\s+/g, ' ').trim(),
        // The receiver's body ("thanks, got it") is not kept: it is on a private address (issue 28).
        'Test notification delivered. HTTP 200 delivered',
      );
      const hook = hits.find((h) => h.path === '/hook');
      assert.ok(hook, 'the receiver got the test');
      assert.equal(hook.headers['x-tracker-test'], '1');
      assert.equal(JSON.parse(hook.body).test, true);
      // In the log too, marked as a test.
      const log = page.getByRole('table', { name: 'Latest deliveries of this rule' });
      await log.getByText('HTTP 200').waitFor();
      assert.doesNotMatch(await log.innerText(), /thanks, got it/);
      assert.match(await log.innerText(), /test/);

      await page.getByLabel('Send to').selectOption('DISCORD');
      await page.getByLabel('URL or email address').fill(`${receiverOrigin}/gone`);
      await page.getByRole('button', { name: 'Add rule' }).click();
      await page.getByRole('button', { name: `Send test notification to discord ${receiverOrigin}/gone` }).click();
      const failed = page.getByTestId('test-result');
      await failed.getByText('Test notification failed.').waitFor();
      assert.match(
        await failed.innerText(),
        /HTTP 404\s+The Discord receiver answered HTTP 404 Not Found\. Tracker will not retry/,
      );
      assert.doesNotMatch(await failed.innerText(), /unknown webhook/);
      const card = page.getByRole('region').filter({ hasText: `${receiverOrigin}/gone` });
      await card.getByText('Deliveries to this channel are failing (1 in the last 24 hours).').waitFor();
      assert.equal(await page.getByText('Deliveries to this channel are failing').count(), 1, 'only the failing rule');

      // Issue 31: a test to a receiver that answers 503 (a real alert would be retried) and to a
      // dead port is one attempt, and the answer says so instead of promising another.
      await page.getByLabel('Send to').selectOption('WEBHOOK');
      await page.getByLabel('URL or email address').fill(`${receiverOrigin}/busy`);
      await page.getByRole('button', { name: 'Add rule' }).click();
      await page.getByRole('button', { name: `Send test notification to webhook ${receiverOrigin}/busy` }).click();
      const busy = page.getByTestId('test-result');
      await busy.getByText('HTTP 503', { exact: true }).waitFor();
      assert.match(await busy.innerText(), /sent once and not retried/);
      assert.doesNotMatch(await busy.innerText(), /will try again/);
      const dead = await closedPort();
      await page.getByLabel('URL or email address').fill(`http://127.0.0.1:${dead}/hook`);
      await page.getByRole('button', { name: 'Add rule' }).click();
      await page
        .getByRole('button', { name: `Send test notification to webhook http://127.0.0.1:${dead}/hook` })
        .click();
      const refused = page.getByTestId('test-result');
      await refused.getByText(/refused the connection/).first().waitFor();
      assert.match(await refused.innerText(), /sent once and not retried/);
      assert.doesNotMatch(await refused.innerText(), /will try again/);
      // Stored as failed for good: the outbox retries only pending rows (core/src/alerts/outbox.ts).
      const rows = await queryRows<{ url: string; status: string; attempts: number }>(
        tracker!.db.ds,
        `SELECT r.url, d.status, d.attempts FROM alert_deliveries d JOIN alert_rules r ON r.id = d.rule_id
          WHERE d.is_test AND r.url IN ($1, $2) ORDER BY r.url`,
        [`${receiverOrigin}/busy`, `http://127.0.0.1:${dead}/hook`],
      );
      assert.deepEqual(
        rows.map((r) => [r.status, r.attempts]),
        [
          ['failed', 1],
          ['failed', 1],
        ],
      );
      assert.equal(hits.filter((h) => h.path === '/busy').length, 1, 'the 503 receiver got one attempt');
      await screenshot(page, 'alerts-test-notification');
      assertInert('alerts page');
    } finally {
      await context.close();
    }
  });
});
