// Issue 31 §3: the Releases page lists versions seen on events but never registered ("seen, not
// registered") and registers one with one click on a plan with releases. Embedded runtime, Tracker
// running as `npm start` runs it (the built server in its own process), new organizations on Pro
// (TRACKER_DEFAULT_PLAN). axe-core and screenshots at 1280 and 390 px.
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@tracker/core/testing';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { copyFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import { startChildServer, type ChildServer } from './child-server';
import { watchedPages } from './dashboard-browser';
import { gqlOk, sendError, signUpWithProject, waitFor } from './helpers';
import { checkPage, WALK_ARTIFACTS } from './page-checks';

const PASSWORD = 'correct horse battery';
const UNREGISTERED = `query($p: ID!) { unregisteredReleases(projectId: $p) { version } }`;

let dir: string;
let server: ChildServer;
let browser: Browser | undefined;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tracker-unregistered-'));
  server = await startChildServer({ TRACKER_DATA_DIR: dir, TRACKER_DEFAULT_PLAN: 'pro' }, 'ingest,worker,api,web', {
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

test('a version seen only on events is listed as seen, not registered, and Register registers it', async () => {
  const a = await signUpWithProject(server.url, 'Shop');
  for (const message of ['checkout failed', 'cart failed']) {
    const r = await sendError(server.url, a.key, {
      type: 'Error',
      message,
      environment: 'production',
      release: 'shop@2.0.0',
      eventId: randomUUID(),
    });
    assert.equal(r.status, 202);
  }
  await waitFor(
    'the version seen',
    async () => (await gqlOk(server.url, UNREGISTERED, { p: a.project.id }, a.token)).unregisteredReleases.length === 1,
    60_000,
  );
  const { page, context } = await newPage();
  try {
    await page.goto('/login');
    await page.getByLabel('Email').fill(a.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: /sign in|log in/i }).click();
    await page.waitForURL((u) => u.pathname !== '/login');
    await page.goto(`/projects/${a.project.id}/releases`);
    const list = page.getByRole('region', { name: 'Versions seen, not registered' });
    await list.getByRole('rowheader', { name: 'shop@2.0.0' }).waitFor();
    assert.deepEqual(
      await list
        .locator('tbody td')
        .allInnerTexts()
        .then((t) => t.slice(0, 2)),
      ['production', '2'],
    );
    await checkPage(page, 'releases-unregistered');
    for (const label of ['desktop', 'mobile']) {
      copyFileSync(
        join(WALK_ARTIFACTS, `releases-unregistered-${label}.png`),
        join(__dirname, `../../docs/screenshots/releases-unregistered-${label}.png`),
      );
    }
    await list.getByRole('button', { name: 'Register shop@2.0.0 in production' }).click();
    await page.getByRole('status').filter({ hasText: 'Marked shop@2.0.0 in production' }).waitFor();
    await page.getByRole('region', { name: 'Releases in production' }).getByText('shop@2.0.0').waitFor();
    assert.equal(await page.getByRole('region', { name: 'Versions seen, not registered' }).count(), 0);
    assertInert('releases seen, not registered');
  } finally {
    await context.close();
  }
});
