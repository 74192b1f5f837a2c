// Issue 31: inbound filters in a real browser, on the embedded runtime, with Tracker running as
// `npm start` runs it (the built server in its own process, PGlite, no Redis). The owner turns
// every filter on in Settings; each filter's sample event is answered 202 and dropped, the page
// then shows it counted under its filter, and the organization's usage stays at 0. A `*` message
// glob is refused until "Save even if a pattern matches everything" is ticked. axe-core and
// screenshots at 1280 and 390 px (docs/screenshots/settings-inbound-filters-*.png).
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@tracker/core/testing';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import { startChildServer, type ChildServer } from './child-server';
import { watchedPages } from './dashboard-browser';
import { gqlOk, sendError, signUpWithProject, waitFor } from './helpers';
import { CHROME_131, SAMPLES } from './inbound-filter-samples';
import { checkPage, WALK_ARTIFACTS } from './page-checks';

const PASSWORD = 'correct horse battery';
const USAGE = `query($o: ID!) { usage(organizationId: $o) { events { used } } }`;

let dir: string;
let server: ChildServer;
let browser: Browser | undefined;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tracker-filters-'));
  server = await startChildServer({ TRACKER_DATA_DIR: dir }, 'ingest,worker,api,web', {
    built: true,
    startTimeoutMs: 120_000,
  });
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, timeout: 30_000 });
});
after(async () => {
  await browser?.close().catch(() => undefined);
  await server?.kill();
  await rm(dir, { recursive: true, force: true });
});

const { newPage, assertInert } = watchedPages(
  () => browser!,
  () => server.url,
);

test('each inbound filter drops its sample event, counts it on the settings page, and charges no quota', async () => {
  const a = await signUpWithProject(server.url, 'Filtered');
  const { page, context } = await newPage();
  try {
    await page.goto('/login');
    await page.getByLabel('Email').fill(a.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: /sign in|log in/i }).click();
    await page.waitForURL((u) => u.pathname !== '/login');
    await page.goto(`/projects/${a.project.id}/settings`);
    const form = page.getByRole('form', { name: 'Inbound filters' });
    for (const name of ['Browser extensions', 'Localhost', 'Legacy browsers', 'Web crawlers']) {
      await form.getByLabel(name, { exact: true }).check();
    }

    // Bad input first: a pattern that matches everything is refused, and nothing is saved.
    await form.getByLabel('Error messages to drop').fill('*');
    await form.getByRole('button', { name: 'Save inbound filters' }).click();
    await page.getByRole('alert').filter({ hasText: 'matches everything' }).waitFor();
    const unsaved = await gqlOk(
      server.url,
      `query($p: ID!) { projectInboundFilters(projectId: $p) { localhost errorMessages } }`,
      { p: a.project.id },
      a.token,
    );
    assert.deepEqual(unsaved.projectInboundFilters, { localhost: false, errorMessages: [] });

    await page.goto(`/projects/${a.project.id}/settings`);
    for (const name of ['Browser extensions', 'Localhost', 'Legacy browsers', 'Web crawlers']) {
      await form.getByLabel(name, { exact: true }).check();
    }
    await form.getByLabel('Error messages to drop').fill('*ResizeObserver loop*');
    await form.getByLabel('Releases to drop').fill('*-dev');
    await form.getByRole('button', { name: 'Save inbound filters' }).click();
    await page.getByRole('status').filter({ hasText: 'Inbound filters saved' }).waitFor();

    for (const { filter, event } of SAMPLES) {
      const r = await sendError(server.url, a.key, {
        type: 'TypeError',
        message: 'cart total is NaN',
        environment: 'production',
        url: 'https://shop.example.com/cart',
        context: { userAgent: CHROME_131 },
        ...event,
      });
      assert.equal(r.status, 202, `${filter}: ${JSON.stringify(r.body)}`);
    }

    // The counts reach the page once the edge has queued them and the worker added them (~5 s).
    const counts = page.getByRole('table', { name: 'Events dropped by each filter' });
    await waitFor(
      'every filter counted on the page',
      async () => {
        await page.goto(`/projects/${a.project.id}/settings`);
        const cells = await counts.locator('tbody td').allInnerTexts();
        return cells.length === SAMPLES.length && cells.every((c) => c.trim() === '1');
      },
      60_000,
    );
    assert.deepEqual(await counts.locator('tbody th').allInnerTexts(), [
      'Browser extensions',
      'Localhost',
      'Legacy browsers',
      'Web crawlers',
      'Error messages',
      'Releases',
    ]);
    assert.equal((await gqlOk(server.url, USAGE, { o: a.organization.id }, a.token)).usage.events.used, 0);
    assert.equal(await issuesOf(a.token, a.project.id), 0, 'nothing filtered was stored');

    await checkPage(page, 'settings-inbound-filters');
    mkdirSync(join(__dirname, '../../docs/screenshots'), { recursive: true });
    for (const label of ['desktop', 'mobile']) {
      copyFileSync(
        join(WALK_ARTIFACTS, `settings-inbound-filters-${label}.png`),
        join(__dirname, `../../docs/screenshots/settings-inbound-filters-${label}.png`),
      );
    }
    assertInert('inbound filters');
  } finally {
    await context.close();
  }
});

async function issuesOf(token: string, projectId: string): Promise<number> {
  const r = await gqlOk(
    server.url,
    `query($p: ID!) { issues(projectId: $p, first: 1) { totalCount } }`,
    { p: projectId },
    token,
  );
  return r.issues.totalCount;
}
