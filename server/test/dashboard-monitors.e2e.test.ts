/**
 * The Monitors page (issue 33) in Chromium: create a cron monitor from the form, see each
 * monitor's state, the strip of its last 90 check-ins, the response-time chart and the TLS
 * certificate's end (a warning inside 14 days), edit its settings (a bad crontab is refused under
 * that monitor), pause it; axe-core clean and no overflow at 1280 and 390 px, screenshots in docs/screenshots.
 */
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@tracker/core/testing';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import type { Tracker } from '../src';
import { watchedPages } from './dashboard-browser';
import { checkPage, WALK_ARTIFACTS } from './page-checks';
import { createTestEnv, startTracker, type TestEnv } from './helpers';

const PASSWORD = 'correct horse battery';
const SCREENSHOTS = join(__dirname, '../../docs/screenshots');

describe('Monitors page (issue 33)', () => {
  let env: TestEnv;
  let tracker: Tracker;
  let browser: Browser | undefined;
  let url = '';
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
  const { newPage, assertInert } = watchedPages(
    () => browser!,
    () => url,
  );

  test('create, see the strip, chart and state, pause; clean at both widths', async () => {
    const { page } = await newPage();
    await page.goto('/signup');
    await page.getByLabel('Email').fill(`monitors-${Date.now()}@example.com`);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByLabel('Organization name').fill('Acme');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL((u) => u.pathname === '/projects/new');
    await page.getByLabel('Project name').fill('Shop');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.waitForURL((u) => /^\/projects\/[^/]+$/.test(u.pathname) && u.pathname !== '/projects/new');
    const projectId = decodeURIComponent(new URL(page.url()).pathname.split('/')[2]);
    await tracker.db.ds.query(
      `UPDATE organizations SET plan = 'pro' WHERE id = (SELECT organization_id FROM projects WHERE id = $1)`,
      [projectId],
    );

    await page.goto(`/projects/${encodeURIComponent(projectId)}/monitors`);
    await page.getByText('No monitors yet.').waitFor();
    const form = page.getByRole('region', { name: 'New monitor' });
    await form.getByLabel('Slug').fill('nightly-backup');
    await form.getByLabel('Crontab or minutes (cron)').fill('0 2 * * *');
    await form.getByLabel('Time zone (cron)').fill('Mars/Olympus');
    await form.getByRole('button', { name: 'Create monitor' }).click();
    await form.getByRole('alert').filter({ hasText: 'timezone: "Mars/Olympus" is not a time zone' }).waitFor();
    await form.getByLabel('Time zone (cron)').fill('Europe/Berlin');
    await form.getByRole('button', { name: 'Create monitor' }).click();
    await page.getByRole('heading', { name: 'nightly-backup' }).waitFor();
    await page.getByText('0 2 * * * (Europe/Berlin)').waitFor();
    await page.getByText('Waiting for the first check-in').waitFor();

    // 90 checks of an uptime monitor (every fifth failed) and 20 runs of the cron job, written as the worker writes them.
    const [{ id: uptimeId }] = await tracker.db.ds.query(
      `INSERT INTO monitors (project_id, kind, slug, name, url, interval_minutes, timeout_ms, failure_tolerance)
       VALUES ($1, 'uptime', 'shop-home', 'shop-home', 'https://shop.example.com/', 1, 10000, 3) RETURNING id`,
      [projectId],
    );
    await tracker.db.ds.query(
      `INSERT INTO monitor_environments (monitor_id, environment, status, last_check_in_at) VALUES ($1, 'production', 'ok', now())`,
      [uptimeId],
    );
    await tracker.db.ds.query(
      `INSERT INTO monitor_check_ins (monitor_id, project_id, environment, status, duration_ms, status_code, error,
              tls_expires_at, created_at)
       SELECT $1, $2, 'production', CASE WHEN g % 5 = 0 THEN 'error' ELSE 'ok' END, 80 + (g * 37) % 150,
              CASE WHEN g % 5 = 0 THEN 503 ELSE 200 END, CASE WHEN g % 5 = 0 THEN 'HTTP 503' END,
              CASE WHEN g = 99 THEN now() + interval '5 days' END, now() - make_interval(mins => 100 - g)
         FROM generate_series(1, 100) g`,
      [uptimeId, projectId],
    );
    await page.reload();
    const strip = page.getByRole('list', { name: 'Last 90 check-ins, 18 failed' });
    await strip.waitFor();
    assert.equal(await strip.locator('li').count(), 90);
    await page.getByRole('img', { name: /Response time: up to \d+ ms over the last 90 checks/ }).waitFor();
    await page.getByText('Up', { exact: true }).waitFor();
    await page.getByText(/^TLS certificate ends \d{4}-\d{2}-\d{2} \(in [45] days\)$/).waitFor();
    await checkPage(page, 'monitors');
    mkdirSync(SCREENSHOTS, { recursive: true });
    for (const label of ['desktop', 'mobile']) {
      copyFileSync(join(WALK_ARTIFACTS, `monitors-${label}.png`), join(SCREENSHOTS, `monitors-${label}.png`));
    }

    // Edit the cron job's settings in its fold: a bad crontab is refused under it, then a good one is kept.
    const cron = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'nightly-backup' }) });
    await cron.getByText('Edit settings').click();
    await cron.getByLabel('Crontab or minutes').fill('61 2 * * *');
    await cron.getByRole('button', { name: 'Save nightly-backup' }).click();
    await cron
      .getByRole('alert')
      .filter({ hasText: /crontab/i })
      .waitFor();
    assert.equal(await cron.locator('details').getAttribute('open'), '', 'the fold stays open with the error');
    await cron.getByLabel('Name').fill('Nightly backup');
    await cron.getByLabel('Crontab or minutes').fill('30 3 * * *');
    await cron.getByLabel('Failures before an issue opens').fill('2');
    await cron.getByLabel('Margin (minutes late before missed)').fill('15');
    await checkPage(page, 'monitors-edit');
    await cron.getByRole('button', { name: 'Save nightly-backup' }).click();
    await page.getByRole('heading', { name: 'Nightly backup' }).waitFor();
    await page.getByText('30 3 * * * (Europe/Berlin)').waitFor();
    const [saved] = await tracker.db.ds.query(
      `SELECT name, crontab, timezone, failure_tolerance, checkin_margin_minutes FROM monitors WHERE slug = 'nightly-backup' AND project_id = $1`,
      [projectId],
    );
    assert.deepEqual(saved, {
      name: 'Nightly backup',
      crontab: '30 3 * * *',
      timezone: 'Europe/Berlin',
      failure_tolerance: 2,
      checkin_margin_minutes: 15,
    });

    await page.getByRole('button', { name: 'Pause nightly-backup' }).click();
    await page.getByText('Paused', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Resume nightly-backup' }).waitFor();
    assertInert('monitors page');
  });
});
