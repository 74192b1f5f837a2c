import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@tracker/core/testing';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import type { Tracker } from '../src';
import { VIEWPORTS, watchedPages } from './dashboard-browser';
import { axeViolations } from './page-checks';
import { createTestEnv, sendError, signUpWithProject, startTracker, waitFor, type TestEnv } from './helpers';

// The whole evidence of an error on the issue page in Chromium (issue 29), sent through
// `/ingest/error` to a real embedded Tracker: breadcrumbs above the stack, the chain of causes
// each with its stack, source lines, library frames folded, the request, event navigation and
// the raw JSON view and download, React's component stack. Screenshots at 1280 and 390 px go to web/test-artifacts/.

const PASSWORD = 'correct horse battery'; // signUpWithProject's
const XSS = '<img src=x onerror=alert("crumb")>';

describe('the evidence of an error on the issue page in a real browser (embedded)', () => {
  let env: TestEnv | undefined;
  let tracker: Tracker | undefined;
  let browser: Browser | undefined;
  let url: string;

  before(async () => {
    env = await createTestEnv('embedded');
    tracker = await startTracker(env, { roles: ['ingest', 'worker', 'api', 'web'] });
    url = tracker.url;
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  });
  after(async () => {
    await browser?.close().catch(() => {});
    await tracker?.close().catch(() => {});
    await env?.cleanup().catch(() => {});
  });

  const { newPage, assertInert, screenshot } = watchedPages(
    () => browser!,
    () => url,
  );

  test('breadcrumbs, causes, source lines, library frames, request, navigation and raw JSON', async () => {
    const account = await signUpWithProject(url, 'Evidence');
    const [older, latest] = [randomUUID(), randomUUID()];
    const now = Date.now();
    const event = (eventId: string, at: number) => ({
      eventId,
      type: 'Error',
      message: 'Payment failed',
      environment: 'production',
      timestamp: new Date(at).toISOString(),
      fingerprint: ['evidence'],
      stack: [
        'Error: Payment failed',
        '    at chargeCard (/srv/app/pay.js:12:11)',
        '    at Layer.handle (/srv/app/node_modules/express/lib/router/layer.js:95:5)',
        '    at next (/srv/app/node_modules/express/lib/router/route.js:149:13)',
        '    at main (/srv/app/server.js:40:3)',
      ].join('\n'),
      causes: [
        {
          type: 'TypeError',
          message: 'card declined',
          stack: 'TypeError: card declined\n    at validateCard (/srv/app/card.js:3:9)',
        },
      ],
      contextLines: [
        {
          filename: '/srv/app/pay.js',
          lineno: 12,
          preContext: ['function chargeCard(amount) {', '  try {'],
          contextLine: "    throw new Error('Payment failed', { cause });",
          postContext: ['  }', '}'],
        },
      ],
      breadcrumbs: [
        { timestamp: new Date(at - 3_000).toISOString(), category: 'navigation', message: '/cart', level: 'info' },
        {
          timestamp: (at - 1_000) / 1000,
          category: 'http',
          message: XSS,
          level: 'error',
          data: { url: '/api/pay?token=s3cret', status: 500 },
        },
      ],
      context: { react: { componentStack: '\n    at PayButton\n    at Checkout\n    at App' } },
      request: {
        method: 'POST',
        url: 'https://shop.example.com/pay?token=s3cret',
        headers: { Cookie: 'sid=abc', 'Content-Type': 'application/json' },
        data: { amount: 42, password: 'hunter2' },
      },
    });
    assert.equal((await sendError(url, account.key, event(older, now - 60_000))).status, 202);
    assert.equal((await sendError(url, account.key, event(latest, now - 1_000))).status, 202);
    const issueId = await waitFor('both events', async () => {
      const rows = await tracker!.db.ds.query(
        `SELECT issue_id, count(*) OVER () AS n FROM events WHERE project_id = $1`,
        [account.project.id],
      );
      return rows.length === 2 ? (rows[0].issue_id as string) : undefined;
    });

    const { page, context } = await newPage();
    await page.goto('/login');
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: /sign in|log in/i }).click();
    await page.waitForURL((u) => u.pathname !== '/login');

    const issuePage = `/projects/${encodeURIComponent(account.project.id)}/issues/${issueId}`;
    await page.goto(issuePage);
    const detail = page.locator('#event-detail');
    // Breadcrumbs, oldest first, above the stack; the hostile message is text.
    const crumbs = detail.locator('.crumb');
    assert.equal(await crumbs.count(), 2);
    assert.match(await crumbs.nth(0).innerText(), /-3\.0 s\s+navigation\s+info\s+\/cart/);
    assert.match(await crumbs.nth(1).innerText(), /-1\.0 s\s+http\s+error/);
    assert.ok((await crumbs.nth(1).innerText()).includes(XSS));
    assert.ok((await crumbs.nth(1).innerText()).includes('token=[Filtered]'));
    const crumbsBox = await detail.locator('.breadcrumbs').boundingBox();
    const framesBox = await detail.locator('ol.frames').first().boundingBox();
    assert.ok(crumbsBox && framesBox && crumbsBox.y < framesBox.y, 'breadcrumbs above the stack');
    // The in-app frame is open with its source lines, the error's line highlighted.
    const current = detail.locator('.frame-in-app .ctx-current').first();
    assert.match(await current.innerText(), /12\s+throw new Error\('Payment failed', \{ cause \}\);/);
    assert.ok(await current.isVisible());
    // The two express frames are folded into one switch; opening it shows them.
    const library = detail.locator('.frame-library-run').first();
    assert.match(await library.locator('summary').first().innerText(), /Show 2 library frames/);
    assert.equal(await library.locator('.frame').first().isVisible(), false);
    await library.locator('summary').first().click();
    assert.equal(await library.locator('.frame').first().isVisible(), true);
    // The cause, with its own stack; folding it hides the stack, without a script of ours.
    const cause = detail.locator('details.exception-cause');
    assert.match(await cause.locator('summary').first().innerText(), /Caused by TypeError: card declined/);
    assert.ok(await cause.getByText('validateCard').isVisible());
    await cause.locator('summary').first().click();
    assert.equal(await cause.getByText('validateCard').isVisible(), false);
    // The request: the cookie, the password and the token filtered at ingest.
    const request = detail.locator('[aria-labelledby="request-heading"]');
    const requestText = await request.innerText();
    assert.match(requestText, /POST https:\/\/shop\.example\.com\/pay\?token=\[Filtered\]/);
    assert.match(requestText, /Cookie\s+\[Filtered\]/);
    assert.doesNotMatch(requestText, /s3cret|sid=abc|hunter2/);
    // React's component stack, as the React SDKs send it in `context.react`.
    const components = detail.locator('[aria-labelledby="component-stack-heading"] pre');
    assert.equal(await components.innerText(), '    at PayButton\n    at Checkout\n    at App');
    // axe-core with every section on the page and every fold open, at both widths.
    await page.evaluate(
      `document.querySelectorAll('#event-detail details').forEach((d) => d.setAttribute('open', ''))`,
    );
    for (const viewport of Object.values(VIEWPORTS)) {
      await page.setViewportSize(viewport);
      assert.deepEqual(await axeViolations(page), [], `axe-core at ${viewport.width}px`);
    }
    await page.setViewportSize(VIEWPORTS.desktop);
    await screenshot(page, 'issue-evidence');

    // Navigation: the latest event is shown; Older goes to the other one, Latest back.
    const nav = detail.locator('nav.event-nav');
    assert.equal(await nav.locator('.is-disabled', { hasText: 'Newer' }).count(), 1);
    await nav.getByRole('link', { name: 'Older event' }).click();
    await page.waitForURL((u) => u.searchParams.get('event') === older);
    // The address changes as the navigation starts; the heading once its data has rendered.
    await detail.locator('#trace-heading', { hasText: older }).waitFor({ timeout: 15_000 });
    await detail.locator('nav.event-nav').getByRole('link', { name: 'Latest event' }).click();
    await page.waitForURL((u) => u.searchParams.get('event') === latest);

    // Raw JSON: the stored event, scrubbed as stored; the download is a file named after the id.
    const raw = await context.request.get(`${issuePage}/events/${latest}.json`);
    assert.equal(raw.status(), 200);
    const json = await raw.json();
    assert.equal(json.eventId, latest);
    assert.equal(json.request.headers.Cookie, '[Filtered]');
    assert.equal(json.causes[0].frames[0].function, 'validateCard');
    assert.equal(json.breadcrumbs.length, 2);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      detail.locator('nav.event-nav').getByRole('link', { name: 'Download JSON' }).click(),
    ]);
    assert.equal(download.suggestedFilename(), `event-${latest}.json`);
    // A link made when events were named by their row number lands on that event's own address.
    const [{ id: rowId }] = await tracker!.db.ds.query(`SELECT id FROM events WHERE event_id = $1`, [older]);
    await page.goto(`${issuePage}?event=${rowId}`);
    assert.equal(new URL(page.url()).searchParams.get('event'), older);
    assert.match(await detail.locator('#trace-heading').innerText(), new RegExp(older));
    assertInert('issue page with evidence');
  });
});
