import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@tracker/core/testing';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { Tracker } from '../src';
import { VIEWPORTS, watchedPages } from './dashboard-browser';
import { createTestEnv, sendError, signUpWithProject, startTracker, waitFor, gqlOk, type TestEnv } from './helpers';
import { unreachableTabs } from './page-checks';

// Issue 29 §8, at 390 px: every project tab one tap away through a visible "More" menu (no
// sideways scroll hiding half of them), the first issue row on the first screen, and an issue's
// events listed with their time and message rather than a UUID alone.

const PASSWORD = 'correct horse battery'; // signUpWithProject's

describe('the dashboard on a phone (390 px, postgres+redis)', () => {
  let env: TestEnv | undefined;
  let tracker: Tracker | undefined;
  let browser: Browser | undefined;
  let page: Page;
  let base: string;
  const { newPage, assertInert } = watchedPages(
    () => browser!,
    () => tracker!.url,
  );

  before(async () => {
    env = await createTestEnv('postgres+redis');
    tracker = await startTracker(env, { roles: ['ingest', 'worker', 'api', 'web'] });
    const account = await signUpWithProject(tracker.url, 'Checkout web');
    base = `/projects/${encodeURIComponent(account.project.id)}`;
    for (let i = 0; i < 3; i++) {
      const r = await sendError(tracker.url, account.key, {
        type: 'TypeError',
        message: `Cannot read properties of undefined (reading 'id${i}')`,
        environment: 'production',
        release: '1.0.0',
        stack: `TypeError: x\n    at handler${i} (https://app.example.com/static/main.js:${i + 10}:5)`,
      });
      assert.equal(r.status, 202);
    }
    await waitFor('3 issues', async () => {
      const q = `query($p: ID!) { issues(projectId: $p, first: 5) { totalCount } }`;
      const n = (await gqlOk(tracker!.url, q, { p: account.project.id }, account.token)).issues.totalCount;
      return n === 3 ? n : undefined;
    });
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    ({ page } = await newPage());
    await page.goto('/login');
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: /sign in|log in/i }).click();
    await page.waitForURL((u) => u.pathname !== '/login');
    await page.setViewportSize(VIEWPORTS.mobile);
  });
  after(async () => {
    await browser?.close();
    await tracker?.close();
    await env?.cleanup();
  });

  test('every project tab is in the row or under a visible "More", which opens the page', async () => {
    await page.goto(`${base}/issues`);
    const row = page.locator('nav[aria-label="Project"] > a');
    assert.ok(await row.first().isVisible());
    const more = page.locator('nav[aria-label="Project"] details.tabs-more summary');
    assert.ok(await more.isVisible(), '"More" is visible');
    assert.deepEqual(await unreachableTabs(page, VIEWPORTS.mobile.width), []);
    const width = (await page.evaluate('document.querySelector(\'nav[aria-label="Project"]\').scrollWidth')) as number;
    assert.ok(width <= VIEWPORTS.mobile.width, `the tab bar is ${width} px wide`);
    await more.click();
    await page.locator('details.tabs-more a', { hasText: 'Alerts' }).click();
    await page.waitForURL(/\/alerts$/);
    // The URL changes a moment before the new page renders: wait for the render, not the URL.
    await page.locator('nav[aria-label="Project"] > a[aria-current="page"]', { hasText: 'Alerts' }).waitFor();
    await waitFor('the menu to close on navigation', async () =>
      (await page.locator('details.tabs-more').getAttribute('open')) === null ? true : undefined,
    );
    // The current section always sits in the row, even one a phone otherwise folds away.
    const alertsTab = page.locator('nav[aria-label="Project"] > a', { hasText: 'Alerts' });
    assert.ok(await alertsTab.isVisible());
    assert.equal(await alertsTab.getAttribute('aria-current'), 'page');
    assert.equal(await page.locator('nav[aria-label="Project"] > a', { hasText: 'Performance' }).isVisible(), false);
    const pageWidth = (await page.evaluate('document.documentElement.scrollWidth')) as number;
    assert.ok(pageWidth <= VIEWPORTS.mobile.width, `the alerts page is ${pageWidth} px wide`);
    assert.deepEqual(await unreachableTabs(page, VIEWPORTS.mobile.width), []);
    assertInert('project tabs');
  });

  test('the first issue row is on the first screen; the filters fold under "Filters"', async () => {
    await page.goto(`${base}/issues`);
    const firstRow = await page.locator('table tbody tr').first().boundingBox();
    assert.ok(firstRow, 'a row');
    assert.ok(firstRow.y + 24 < VIEWPORTS.mobile.height, `the first row starts at ${firstRow.y} px`);
    assert.equal(await page.getByLabel('Environment').isVisible(), false, 'folded');
    await page.locator('details.filter-more summary').click();
    assert.ok(await page.getByLabel('Environment').isVisible(), 'unfolded');
    await page.setViewportSize(VIEWPORTS.desktop);
    await page.goto(`${base}/issues`);
    assert.ok(await page.getByLabel('Environment').isVisible(), 'inline on a wide screen');
    assert.equal(await page.locator('details.filter-more summary').isVisible(), false);
    await page.setViewportSize(VIEWPORTS.mobile);
  });

  test("an issue's events show their time and message within the screen", async () => {
    await page.goto(`${base}/issues`);
    await page.locator('table tbody tr a').first().click();
    await page.waitForURL(/\/issues\/[^/?]+/);
    const row = page.locator('table.event-list tbody tr').first();
    for (const [what, cell] of [
      ['time', row.locator('time')],
      ['message', row.locator('.event-list-message')],
    ] as const) {
      const box = await cell.boundingBox();
      assert.ok(
        box && box.x >= 0 && box.x + Math.min(box.width, 40) <= VIEWPORTS.mobile.width,
        `${what}: ${JSON.stringify(box)}`,
      );
    }
    assertInert('issue page');
  });
});
