import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@tracker/core/testing';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import type { Tracker } from '../src';
import { watchedPages } from './dashboard-browser';
import { createTestEnv, gqlOk, sendError, startTracker, waitFor, type TestEnv } from './helpers';

// The Alerts page in Chromium (embedded runtime): a counting rule with conditions is created and
// edited into a log rule, a rule is muted and unmuted, and an alert's mute link opens a page that
// mutes the issue only after the user confirms; the issue page shows the mute and ends it.

const PASSWORD = 'correct horse battery staple';

describe('dashboard: alert rules, conditions and mutes in a real browser (embedded)', () => {
  let env: TestEnv | undefined;
  let tracker: Tracker | undefined;
  let browser: Browser | undefined;
  let url: string;
  let receiver: Server;
  let origin: string;
  const alerts: any[] = [];

  before(async () => {
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        alerts.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    env = await createTestEnv('embedded', { allowPrivateTargets: true });
    tracker = await startTracker(
      env,
      { roles: ['ingest', 'worker', 'api', 'web'] },
      { alerts: { sweepMs: 100, timeoutMs: 2_000 } },
    );
    url = tracker.url;
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  });
  after(async () => {
    await browser?.close().catch(() => {});
    await tracker?.close().catch(() => {});
    await env?.cleanup().catch(() => {});
    await new Promise<void>((r) => receiver.close(() => r()));
  });

  const { newPage, assertInert, screenshot } = watchedPages(
    () => browser!,
    () => url,
  );

  test('create, validate, edit and mute rules; the alert link mutes an issue after confirming', async () => {
    const { page } = await newPage();
    await page.goto('/signup');
    const email = `alerts-${Date.now()}@example.com`;
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByLabel('Organization name').fill('Acme');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL((u) => u.pathname === '/projects/new');
    await page.getByLabel('Project name').fill('Shop');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.waitForURL((u) => /^\/projects\/[^/]+$/.test(u.pathname) && u.pathname !== '/projects/new');
    const projectId = decodeURIComponent(new URL(page.url()).pathname.split('/')[2]);
    const key = new URL(await page.locator('#project-dsn').inputValue()).username;
    const base = `/projects/${encodeURIComponent(projectId)}`;

    await page.goto(`${base}/alerts`);
    const form = page.getByRole('region', { name: 'New alert rule' });
    // The counting fields appear only for the counting kinds.
    assert.equal(await form.getByLabel('More than (N)').count(), 0);
    await form.getByLabel('When').selectOption('ISSUE_FREQUENCY');
    await form.getByLabel('More than (N)').fill('2');
    await form.getByLabel('In (minutes)').fill('5');
    await form.getByLabel('Environments').fill('production, eu');
    await form.getByLabel('Tags').fill('team cart');
    await form.getByLabel('Send to').selectOption('WEBHOOK');
    await form.getByLabel('URL or email address').fill(`${origin}/freq`);
    await form.getByRole('button', { name: 'Add rule' }).click();
    await form.getByRole('alert').filter({ hasText: 'Tags: write each as key:value' }).waitFor();

    await form.getByLabel('When').selectOption('ISSUE_FREQUENCY');
    await form.getByLabel('More than (N)').fill('2');
    await form.getByLabel('In (minutes)').fill('5');
    await form.getByLabel('Environments').fill('production, eu');
    await form.getByLabel('Level').selectOption('ERROR');
    await form.getByLabel('Tags').fill('team:cart');
    await form.getByLabel('Release').fill('shop@2.*');
    await form.getByLabel('Assignee').selectOption('no');
    await form.getByLabel(/At most once per issue/).fill('10');
    await form.getByLabel('URL or email address').fill(`${origin}/freq`);
    await form.getByRole('button', { name: 'Add rule' }).click();
    const card = page.getByRole('region', { name: /Alert rule An issue is seen more than/ });
    await card
      .getByText(
        'more than 2 events in 5 min · in production, eu · level ≥ error · team:cart · release shop@2.* · unassigned · at most every 10 min',
      )
      .waitFor();
    await screenshot(page, 'alerts-rules');

    // Edit it into a log rule: the query field takes the place of the counting ones.
    await card.getByText('Edit trigger and conditions').click();
    await card.getByLabel('When').selectOption('LOG_MATCH');
    assert.equal(await card.getByLabel('More than (N)').count(), 0);
    assert.equal(await card.getByLabel('Assignee').count(), 0, 'a log rule has no assignee condition');
    await card.getByLabel('Log message contains').fill('payment failed');
    await card.getByRole('button', { name: 'Save rule' }).click();
    const logCard = page.getByRole('region', { name: 'Alert rule An error log matches a text' });
    await logCard.getByText('log contains “payment failed” · in production, eu').waitFor();

    // Mute for 8 hours, then unmute.
    await logCard.getByLabel('Mute for').selectOption('8h');
    await logCard.getByRole('button', { name: 'Mute rule' }).click();
    await logCard.getByText(/muted until/).waitFor();
    await logCard.getByRole('button', { name: 'Unmute' }).click();
    await logCard.getByRole('button', { name: 'Mute rule' }).waitFor();

    // A new-issue rule (the defaults), and an alert whose link mutes the issue.
    await form.getByLabel('When').selectOption('NEW_ISSUE');
    await form.getByLabel('URL or email address').fill(`${origin}/new`);
    await form.getByRole('button', { name: 'Add rule' }).click();
    await page.getByRole('region', { name: 'Alert rule A new issue appears' }).waitFor();
    assert.equal(
      (await sendError(url, key, { type: 'TypeError', message: 'cart exploded', environment: 'production' })).status,
      202,
    );
    const alert = await waitFor('the NEW_ISSUE alert', async () => alerts.find((a) => a.kind === 'NEW_ISSUE'));
    const link = new URL(alert.links.muteIssue);
    await page.goto(link.pathname + link.search);
    await page.getByText('TypeError: cart exploded').waitFor();
    const token = (
      await gqlOk(url, `mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }`, {
        e: email,
        p: PASSWORD,
      })
    ).login.token as string;
    const mutedUntil = async () =>
      (await gqlOk(url, `query($id: ID!) { issue(id: $id) { alertsMutedUntil } }`, { id: alert.issue.id }, token)).issue
        .alertsMutedUntil;
    assert.equal(await mutedUntil(), null, 'opening the link changes nothing');
    await screenshot(page, 'alerts-mute-link');
    await page.getByLabel('For').first().selectOption('24h');
    await page.getByRole('button', { name: "Mute this issue's alerts" }).click();
    await page.waitForURL((u) => u.pathname === `${base}/issues/${alert.issue.id}`);
    const until = Date.parse(await mutedUntil());
    assert.ok(Math.abs(until - (Date.now() + 24 * 3_600_000)) < 5 * 60_000, 'muted for a day');
    // The issue page says so, and its link leads to ending the mute.
    await page.getByText(/Alerts muted until/).waitFor();
    await page.getByRole('link', { name: 'Change or end the alert mute' }).click();
    await page.getByRole('button', { name: 'Alert again now' }).click();
    await page.waitForURL((u) => u.pathname === `${base}/issues/${alert.issue.id}`);
    await page.getByRole('link', { name: 'Mute its alerts' }).waitFor();
    assert.equal(await mutedUntil(), null, 'the mute ended');
    assertInert('alerts pages');
  });
});
