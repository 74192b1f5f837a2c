import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@tracker/core/testing';
import { queryRows } from '@tracker/core';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { Tracker } from '../src';
import { MAX_JS_GZIP_BYTES, watchedPages } from './dashboard-browser';
import {
  chromeStack,
  createTestEnv,
  gqlOk,
  sendError,
  signUpWithProject,
  startTracker,
  waitFor,
  type TestEnv,
} from './helpers';

// The dashboard's data pages against a real Tracker (PostgreSQL + Redis, every role on one port)
// in Chromium: Web Vitals measured by the BUILT browser SDK on a real page of another origin show
// on Performance; a log and feedback sent to the ingest edge show on Logs (also through the live
// tail) and Feedback; an issue's tags, hourly chart and events (paged, one picked) show on its
// page; Billing counts them. Screenshots at 1280 and 390 px go to web/test-artifacts/.

const BROWSER_BUNDLE = join(dirname(require.resolve('@tracker/browser/package.json')), 'dist', 'tracker.min.js');
const PASSWORD = 'correct horse battery'; // signUpWithProject's
const HOSTILE = '<img src=x onerror=alert("log")> <script>alert("log")</script> invoice\u202Efdp.exe';

/** The dashboard's display of a millisecond p75 ("2,340 ms"); one report's p75 is its value. */
const ms = (value: number) => `${Math.round(value).toLocaleString('en')} ms`;

describe('dashboard data pages in a real browser (postgres+redis)', () => {
  let env: TestEnv | undefined;
  let tracker: Tracker | undefined;
  let browser: Browser | undefined;
  let site: Server | undefined;
  let siteOrigin: string;
  let url: string;
  let account: Awaited<ReturnType<typeof signUpWithProject>>;
  let owner: { context: BrowserContext; page: Page };
  let base: string;
  let issuePath: string;

  before(async () => {
    env = await createTestEnv('postgres+redis');
    tracker = await startTracker(env, { roles: ['ingest', 'worker', 'api', 'web'] });
    url = tracker.url;
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    site = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      if (path === '/tracker.min.js')
        return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(readFileSync(BROWSER_BUNDLE));
      if (path !== '/shop.html') return void res.writeHead(404).end();
      const init = { dsn: account.dsn, environment: 'e2e', release: 'shop@1.0.0', vitals: true };
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><html><head><meta charset="utf-8">
<title>shop</title><script src="/tracker.min.js"></script><script>Tracker.init(${JSON.stringify(init)});</script>
</head><body><main><h1 style="font-size:48px">Shop</h1><p>Some text for first paint.</p>
<button id="buy" style="width:200px;height:60px">Buy</button></main>
<script>document.getElementById('buy').addEventListener('click', () => {
  const end = performance.now() + 80; while (performance.now() < end) {}
  document.getElementById('buy').textContent = 'Bought';
});</script></body></html>`);
    });
    await new Promise<void>((resolve) => site!.listen(0, '127.0.0.1', resolve));
    siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    account = await signUpWithProject(url, 'Storefront');
    base = `/projects/${encodeURIComponent(account.project.id)}`;
  });
  after(async () => {
    await browser?.close().catch(() => {});
    site?.closeAllConnections();
    await new Promise((resolve) => (site ? site.close(resolve) : resolve(undefined)));
    await tracker?.close().catch(() => {});
    await env?.cleanup().catch(() => {});
  });

  const { newPage, assertInert, screenshot } = watchedPages(
    () => browser!,
    () => url,
  );

  async function sendLog(body: Record<string, unknown>) {
    const res = await fetch(`${url}/ingest/log`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `DSN ${account.key}` },
      body: JSON.stringify(body),
    });
    assert.equal(res.status, 202, await res.text());
  }

  test('Web Vitals from the built browser SDK show on the Performance page, filtered', async () => {
    owner = await newPage();
    const { page } = owner;
    await page.goto('/login');
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: /sign in|log in/i }).click();
    await page.waitForURL((u) => u.pathname !== '/login');

    // A real page view in its own tab; the SDK reports vitals once, when the page is hidden.
    const shop = await browser!.newPage();
    try {
      await shop.goto(`${siteOrigin}/shop.html?session=abc#top`);
      await new Promise((r) => setTimeout(r, 700));
      await shop.click('#buy');
      await shop.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
      await shop.goto('about:blank');
    } finally {
      await shop.close();
    }
    type Report = {
      lcp: number | null;
      inp: number | null;
      cls: number | null;
      fcp: number | null;
      ttfb: number | null;
    };
    const [report] = await waitFor('vitals report', async () => {
      const found = await queryRows<Report>(
        tracker!.db.ds,
        'SELECT lcp, inp, cls, fcp, ttfb FROM vitals_reports WHERE project_id = $1',
        [account.project.id],
      );
      return found.length > 0 && found;
    });
    assert.ok(report.lcp && report.fcp, JSON.stringify(report));

    await page.goto(`${base}/performance`);
    const lcpCard = page.locator('.vital-card', { has: page.locator('#vital-LCP') });
    assert.equal((await lcpCard.locator('.vital-p75').innerText()).replace(/\s+/g, ' '), `${ms(report.lcp)} p75`);
    const fcpCard = page.locator('.vital-card', { has: page.locator('#vital-FCP') });
    assert.match(await fcpCard.locator('.vital-p75').innerText(), new RegExp(ms(report.fcp).replace(/,/g, ',')));
    assert.match(await lcpCard.innerText(), /1 page view/);
    // One report: 100% in one rating, the colour of the card says which.
    assert.match(await lcpCard.innerText(), /100%/);
    assert.equal(await page.locator('.vital-card').count(), 5);
    const row = page.locator('table.vitals-table tbody tr');
    assert.equal(await row.count(), 1);
    assert.equal(await row.locator('th').innerText(), `${siteOrigin}/shop.html`, 'no query or hash stored');
    assert.match(await row.innerText(), new RegExp(ms(report.lcp)));
    assert.equal(await page.locator('svg.trend-chart').count(), 5);
    assert.ok((await page.locator('svg.trend-chart circle').count()) >= 2, 'a point for LCP and FCP at least');
    await screenshot(page, 'performance-data');

    // The filters are GET parameters: the form sets them, and another environment has nothing.
    await page.getByLabel('Environment').fill('staging');
    await page.getByLabel('Time range').selectOption('24h');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('No Web Vitals in this range').waitFor();
    const params = new URL(page.url()).searchParams;
    assert.deepEqual([params.get('environment'), params.get('range')], ['staging', '24h']);
    await page.goto(`${base}/performance?environment=e2e&release=shop%401.0.0&range=30d`);
    assert.equal(await page.locator('.vital-card').count(), 5);
    await page.goto(`${base}/performance?release=shop%402.0.0`);
    await page.getByText('No Web Vitals in this range').waitFor();
    await screenshot(page, 'performance-filtered-empty');
    assertInert('performance');
  });

  test('a log sent to /ingest/log shows on the Logs page as text, and the live tail brings the next one', async () => {
    const { page } = owner;
    await sendLog({
      level: 'error',
      message: HOSTILE,
      environment: 'production',
      release: '2.0.0',
      context: { html: HOSTILE },
    });
    await sendLog({ level: 'info', message: 'checkout opened', environment: 'production' });
    await waitFor(
      'two logs on the Logs page',
      async () => {
        await page.goto(`${base}/logs`);
        return (await page.locator('.log').count()) >= 2;
      },
      20_000,
    );
    const first = page.locator('.log').first();
    assert.match(await first.innerText(), /checkout opened/, 'newest first');
    const hostile = page.locator('.log', { hasText: 'fdp.exe' });
    assert.ok((await hostile.locator('.log-message').innerText()).includes('<img src=x onerror=alert("log")>'));
    assert.ok((await hostile.locator('.log-message').innerText()).includes('invoice[U+202E]fdp.exe'));
    assert.equal(await page.locator('main img').count(), 0);

    // Search: level and text reach the API; the info entry drops out.
    await page.getByLabel('Message contains').fill('onerror');
    await page.getByLabel('error', { exact: true }).check();
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL((u) => u.searchParams.get('q') === 'onerror');
    await page.locator('.log', { hasText: 'checkout opened' }).waitFor({ state: 'detached' });
    assert.equal(await page.locator('.log').count(), 1);
    await page.goto(`${base}/logs?q=nothing-matches-this`);
    await page.getByText('No logs match these filters.').waitFor();

    // Live tail: once on, a new log appears without navigating.
    await page.goto(`${base}/logs`);
    await page.waitForFunction('window.__remixContext && document.querySelector(".live-toggle")');
    await page.getByRole('link', { name: 'Live: off' }).click();
    await page.getByRole('link', { name: 'Live: on' }).waitFor();
    let documents = 0;
    const onRequest = (r: { resourceType(): string }) => void (r.resourceType() === 'document' && (documents += 1));
    page.on('request', onRequest);
    await sendLog({ level: 'warn', message: 'tail me', environment: 'production' });
    await page.locator('.log', { hasText: 'tail me' }).waitFor({ timeout: 20_000 });
    page.off('request', onRequest);
    assert.equal(documents, 0, 'revalidated in place, no page load');
    assert.match(await page.locator('.log').first().innerText(), /tail me/);
    await screenshot(page, 'logs-data');
    await page.getByRole('link', { name: 'Live: on' }).click();
    await page.getByRole('link', { name: 'Live: off' }).waitFor();
    assertInert('logs');
  });

  test('feedback sent to /ingest/feedback shows on the Feedback page, linked to its issue', async () => {
    const { page } = owner;
    const eventId = randomUUID();
    const sent = await sendError(url, account.key, {
      eventId,
      type: 'PaymentError',
      message: 'card declined',
      environment: 'production',
      release: '2.0.0',
      url: 'javascript:alert("feedback")',
    });
    assert.equal(sent.status, 202);
    await waitFor('event stored', async () => {
      const rows = await queryRows(tracker!.db.ds, 'SELECT 1 FROM events WHERE project_id = $1 AND event_id = $2', [
        account.project.id,
        eventId,
      ]);
      return rows.length > 0;
    });
    const res = await fetch(`${url}/ingest/feedback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `DSN ${account.key}` },
      body: JSON.stringify({ message: `I was charged twice ${HOSTILE}`, email: 'buyer@example.com', eventId }),
    });
    assert.equal(res.status, 202);
    await waitFor(
      'feedback on the page',
      async () => {
        await page.goto(`${base}/feedback`);
        return (await page.locator('.feedback-page li').count()) >= 1;
      },
      20_000,
    );
    const item = page.locator('.feedback-page li').first();
    const text = await item.innerText();
    assert.ok(text.includes('I was charged twice <img src=x onerror=alert("log")>'), text);
    assert.match(text, /buyer@example\.com/);
    assert.match(text, /PaymentError: card declined|card declined/);
    assert.ok(text.includes(eventId));
    assert.equal(await page.locator('main a[href^="javascript:" i]').count(), 0);
    await item.getByRole('link', { name: /card declined/ }).click();
    await page.waitForURL((u) => u.pathname.startsWith(`${base}/issues/`));
    await page.getByText('I was charged twice').first().waitFor();
    await page.goto(`${base}/feedback`);
    await screenshot(page, 'feedback-data');
    assertInert('feedback');
  });

  test("an issue page shows its tags, events per hour and events; an older page's event can be picked", async () => {
    const { page } = owner;
    // 26 events of one issue (one more than a page), a minute apart, the oldest carrying the
    // hostile text; each has its own top frame so the picked event's stack is recognisable.
    const sent = await Promise.all(
      Array.from({ length: 26 }, (_, i) =>
        sendError(url, account.key, {
          type: 'CheckoutError',
          message: i === 0 ? `checkout failed #0 ${HOSTILE}` : `checkout failed #${i}`,
          fingerprint: ['checkout-e2e'],
          environment: 'production',
          release: 'shop@1.0.0',
          timestamp: new Date(Date.now() - (26 - i) * 60_000).toISOString(),
          stack: chromeStack(`checkoutStep${i}`, 100 + i),
          tags: { browser: i < 20 ? 'Chrome' : 'Firefox', note: HOSTILE },
          user: { id: `buyer-${i % 3}` },
        }),
      ),
    );
    assert.deepEqual(new Set(sent.map((r) => r.status)), new Set([202]));
    const [{ issue_id: issueId }] = await waitFor('26 events stored', async () => {
      const rows = await queryRows<{ issue_id: string; n: string }>(
        tracker!.db.ds,
        `SELECT issue_id, count(*) AS n FROM events WHERE project_id = $1 AND type = 'CheckoutError' GROUP BY 1`,
        [account.project.id],
      );
      return rows.length === 1 && Number(rows[0].n) === 26 && rows;
    });
    issuePath = `${base}/issues/${issueId}`;
    await page.goto(issuePath);

    const browserTag = page.locator('.tag-table', { has: page.locator('caption', { hasText: 'browser' }) });
    assert.match(
      (await browserTag.locator('tr', { hasText: 'Chrome' }).innerText()).replace(/\s+/g, ' '),
      /Chrome 77% 20/,
    );
    assert.match(
      (await browserTag.locator('tr', { hasText: 'Firefox' }).innerText()).replace(/\s+/g, ' '),
      /Firefox 23% 6/,
    );
    const noteTag = page.locator('.tag-table', { has: page.locator('caption', { hasText: 'note' }) });
    assert.ok((await noteTag.innerText()).includes('invoice[U+202E]fdp.exe'), 'a hostile tag value, as text');
    assert.match(
      (await page.locator('svg.events-chart').getAttribute('aria-label')) ?? '',
      /^26 events in the last 24 hours/,
    );

    // Newest first, a page of 25; the oldest is on the next page, and picking it shows its stack.
    const rows = page.locator('table.event-list tbody tr');
    assert.equal(await rows.count(), 25);
    assert.match(await rows.first().innerText(), /checkout failed #25/);
    await page.locator('.frame-function', { hasText: 'checkoutStep25' }).waitFor();
    await page.getByRole('link', { name: 'Older', exact: true }).click();
    await page.waitForURL((u) => u.searchParams.has('after'));
    await rows.filter({ hasText: 'checkout failed #0' }).waitFor();
    assert.equal(await rows.count(), 1);
    assert.ok((await rows.first().innerText()).includes('<img src=x onerror=alert("log")>'), 'the message as text');
    await rows.first().getByRole('link').click();
    await page.waitForURL((u) => u.searchParams.has('event') && u.searchParams.has('after'));
    await page.locator('.frame-function', { hasText: 'checkoutStep0' }).waitFor();
    assert.match(await page.locator('#trace-heading').innerText(), /\(event [0-9a-f-]{36}\)/);
    assert.equal(await rows.first().getByRole('link').getAttribute('aria-current'), 'true');
    await screenshot(page, 'issue-events');
    await page.getByRole('link', { name: 'Newest', exact: true }).click();
    await rows.filter({ hasText: 'checkout failed #25' }).waitFor();
    assertInert('issue page');

    // The same issue under another project's URL of the same organization is a 404.
    const other = await gqlOk(
      url,
      `mutation($org: ID!) { createProject(organizationId: $org, name: "Backoffice") { id } }`,
      { org: account.organization.id },
      account.token,
    );
    const res = await page.goto(`/projects/${encodeURIComponent(other.createProject.id)}/issues/${issueId}`);
    assert.equal(res?.status(), 404);
    await page.getByText('This issue does not exist or is not yours.').waitFor();
  });

  test('billing shows what was sent against the plan limits', async () => {
    const { page } = owner;
    // An error and a vitals report are events; three logs.
    await waitFor('usage counted', async () => {
      await page.goto(`${base}/billing`);
      const events = Number(await page.locator('#usage-events').getAttribute('value'));
      const logs = Number(await page.locator('#usage-logs').getAttribute('value'));
      return events >= 2 && logs >= 3;
    });
    assert.equal(await page.locator('#usage-events').getAttribute('max'), '5000', 'the Free plan');
    assert.match(await page.locator('.usage').first().innerText(), /of 5,000 used · [\d,]+ remaining/);
    assert.match(await page.locator('#usage-heading + p').innerText(), /reset \d+ \w+ \d{4}, 00:00 UTC/);
    await screenshot(page, 'billing-usage');
    assertInert('billing');
  });

  test('the data pages and the issue page ship under 150 KB of gzip JavaScript', async () => {
    const { page } = owner;
    const sizes: Record<string, number> = {};
    for (const section of ['performance', 'logs', 'feedback', 'billing', 'issue']) {
      const scripts = new Set<string>();
      const onResponse = (res: { url(): string }) => void (res.url().endsWith('.js') && scripts.add(res.url()));
      page.on('response', onResponse);
      await page.goto(section === 'issue' ? issuePath : `${base}/${section}`, { waitUntil: 'networkidle' });
      page.off('response', onResponse);
      const preloads = await page
        .locator('link[rel="modulepreload"]')
        .evaluateAll((ls) => ls.map((l) => l.getAttribute('href') ?? ''));
      for (const href of preloads) scripts.add(new URL(href, url).href);
      let total = 0;
      for (const src of scripts) total += gzipSync(Buffer.from(await (await fetch(src)).arrayBuffer())).length;
      sizes[section] = total;
      assert.ok(total < MAX_JS_GZIP_BYTES, `${section}: ${total} B gzip`);
    }
    console.log('JS shipped per data page (gzip bytes):', JSON.stringify(sizes));
  });
});
