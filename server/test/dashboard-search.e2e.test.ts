import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@tracker/core/testing';
import { queryRows } from '@tracker/core';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import type { Tracker } from '../src';
import { watchedPages } from './dashboard-browser';
import { createTestEnv, sendError, signUpWithProject, startTracker, waitFor, type TestEnv } from './helpers';

// Issue 19's search in Chromium against a real Tracker (embedded PGlite, every role on one
// port): type a query in the list's search box, see the list filtered and the query in the URL,
// see a bad query explained next to the box, save the search, find it as a tab, delete it.

const PASSWORD = 'correct horse battery'; // signUpWithProject's

describe('issue search and saved searches in a real browser (embedded)', () => {
  let env: TestEnv | undefined;
  let tracker: Tracker | undefined;
  let browser: Browser | undefined;
  let url: string;
  let account: Awaited<ReturnType<typeof signUpWithProject>>;

  before(async () => {
    env = await createTestEnv('embedded');
    tracker = await startTracker(env, { roles: ['ingest', 'worker', 'api', 'web'] });
    url = tracker.url;
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    account = await signUpWithProject(url, 'Checkout');
    for (const body of [
      { type: 'PaymentError', message: 'card declined', environment: 'production', tags: { 'browser.name': 'Chrome' } },
      { type: 'TypeError', message: 'x is undefined', environment: 'production', tags: { 'browser.name': 'Firefox' } },
      { type: 'RangeError', message: 'page out of range', environment: 'staging', level: 'warning' },
    ]) {
      assert.equal((await sendError(url, account.key, body)).status, 202);
    }
    await waitFor('three issues', async () => {
      const rows = await queryRows<{ n: string }>(
        tracker!.db.ds,
        'SELECT count(*) AS n FROM issues WHERE project_id = $1',
        [account.project.id],
      );
      return Number(rows[0].n) === 3;
    });
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

  test('type a query, see the list filtered, save it as a tab, delete it', async () => {
    const { context, page } = await newPage();
    try {
      await page.goto('/login');
      await page.getByLabel('Email').fill(account.email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: /sign in|log in/i }).click();
      await page.waitForURL((u) => u.pathname !== '/login');

      const list = `/projects/${encodeURIComponent(account.project.id)}/issues`;
      await page.goto(list);
      const table = page.locator('table');
      await table.getByText('PaymentError: card declined').waitFor();
      assert.match(await table.innerText(), /TypeError: x is undefined/);

      // The query language in the search box; Enter submits the filter form.
      const box = page.getByRole('searchbox', { name: 'Search' });
      await box.fill('browser.name:Chrome !level:warning');
      await box.press('Enter');
      await page.waitForURL((u) => u.searchParams.get('query') === 'browser.name:Chrome !level:warning');
      await page.getByText('1 open issue').waitFor();
      const filtered = await table.innerText();
      assert.match(filtered, /PaymentError: card declined/);
      assert.doesNotMatch(filtered, /TypeError|RangeError/);

      // A misspelt key is explained next to the box, in the person's words, and nothing breaks.
      await box.fill('brwoser.name:Chrome');
      await box.press('Enter');
      const error = page.locator('#query-error');
      await error.waitFor();
      assert.match(await error.innerText(), /"brwoser.name:Chrome" at character 1: "brwoser.name" is not a search key/);
      assert.equal(await box.getAttribute('aria-invalid'), 'true');
      await screenshot(page, 'issues-search-error');

      // `is:` in the query chooses the status itself (the Open tab steps aside).
      await box.fill('is:unresolved level:warning');
      await box.press('Enter');
      await page.getByText('1 matching issue').waitFor();
      assert.match(await table.innerText(), /RangeError: page out of range/);

      // Save a search; it becomes a tab above the list.
      await box.fill('browser.name:Chrome');
      await box.press('Enter');
      await page.waitForURL((u) => u.searchParams.get('query') === 'browser.name:Chrome');
      await page.getByLabel('Name').fill('Chrome only');
      await page.getByRole('button', { name: 'Save this search' }).click();
      const tabs = page.getByRole('navigation', { name: 'Saved searches' });
      const tab = tabs.getByRole('link', { name: 'Chrome only' });
      await tab.waitFor();
      await screenshot(page, 'issues-saved-search');

      // The tabs switch the list: All shows every open issue, the saved one filters again.
      await tabs.getByRole('link', { name: 'All' }).click();
      await page.waitForURL((u) => !u.searchParams.has('query'));
      await page.getByText('3 open issues').waitFor();
      await tab.click();
      await page.waitForURL((u) => u.searchParams.get('query') === 'browser.name:Chrome');
      await page.getByText('1 open issue').waitFor();
      assert.equal(await tab.getAttribute('aria-current'), 'page');
      const saved = await queryRows<{ name: string; query: string }>(
        tracker!.db.ds,
        'SELECT name, query FROM saved_searches WHERE project_id = $1',
        [account.project.id],
      );
      assert.deepEqual(saved, [{ name: 'Chrome only', query: 'browser.name:Chrome' }]);

      // Delete it: the tab row goes (it was the only one).
      await page.getByRole('button', { name: 'Delete the saved search Chrome only' }).click();
      await tabs.waitFor({ state: 'detached' });
      const left = await queryRows(tracker!.db.ds, 'SELECT 1 FROM saved_searches WHERE project_id = $1', [
        account.project.id,
      ]);
      assert.equal(left.length, 0);
      assertInert('issue search');
    } finally {
      await context.close();
    }
  });
});
