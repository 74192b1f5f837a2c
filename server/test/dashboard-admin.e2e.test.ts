/**
 * The admin screen in Chromium, on the embedded runtime with the real server running in its own
 * process (`server/src/main.ts`, as `npm start` runs it; issue 31): an admin changes a plan on the
 * screen and then with the operator command, and the Releases page of that organization opens at
 * once each time; the dead letters screen lists, replays and purges; the test email goes through a
 * real SMTP server; a non-admin gets 403 on every admin page and no Admin link. Every admin page
 * passes the page checks (axe-core, 1280 and 390 px) and is screenshotted.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createProject, encodeJob, openDatabase, recordDeadLetters, signUp, type ErrorJob } from '@tracker/core';
import {
  CHROMIUM_ARGS,
  CHROMIUM_PATH,
  createTempDir,
  startSmtpReceiver,
  type SmtpReceiver,
  type TempDir,
} from '@tracker/core/testing';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { runCli } from '../src/cli';
import { startChildServer, type ChildServer } from './child-server';
import { watchedPages } from './dashboard-browser';
import { gql, gqlOk, waitFor } from './helpers';
import { checkPage } from './page-checks';

const PASSWORD = 'correct horse battery';
const DAY_MS = 86_400_000;

describe('admin screen on the embedded runtime (npm start in its own process)', () => {
  let dir: TempDir;
  let smtp: SmtpReceiver;
  let server: ChildServer | undefined;
  let browser: Browser | undefined;
  let url: string;
  const admin = { email: `admin-${randomUUID().slice(0, 8)}@example.com` };
  const tenant = { email: `tenant-${randomUUID().slice(0, 8)}@example.com`, slug: '', projectId: '', token: '' };
  let asAdmin: { context: BrowserContext; page: Page };
  let asTenant: { context: BrowserContext; page: Page };

  const { newPage, assertInert } = watchedPages(
    () => browser!,
    () => url,
  );

  async function signIn(email: string) {
    const session = await newPage();
    await session.page.goto('/login');
    await session.page.getByLabel('Email').fill(email);
    await session.page.getByLabel('Password').fill(PASSWORD);
    await session.page.getByRole('button', { name: /sign in|log in/i }).click();
    await session.page.waitForURL((u) => u.pathname !== '/login');
    return session;
  }

  before(async () => {
    dir = createTempDir('trk-admin-');
    smtp = await startSmtpReceiver();
    // The folder as an instance that ran for a while: the first account (the admin), a tenant
    // on Free, and two dead letters of the tenant's, one recent and one 40 days old.
    const db = await openDatabase({ dataDir: dir.path, databaseUrl: undefined }, { migrate: true });
    try {
      const first = await signUp(
        db.ds,
        { email: admin.email, password: PASSWORD, organizationName: 'Operators' },
        'free',
      );
      assert.equal(first.user.isAdmin, true);
      const t = await signUp(db.ds, { email: tenant.email, password: PASSWORD, organizationName: 'Shop' }, 'free');
      const { project } = await createProject(db.ds, t.user.id, t.organization.id, 'Storefront');
      Object.assign(tenant, { slug: t.organization.slug, projectId: project.id, token: t.token });
      const job = (message: string): string =>
        encodeJob({
          v: 1,
          kind: 'error',
          projectId: project.id,
          receivedAt: new Date().toISOString(),
          event: { type: 'Error', message, environment: 'production', level: 'error', eventId: randomUUID() },
        } as ErrorJob);
      await recordDeadLetters(db.ds, [
        {
          messageId: 'database:e2e-1',
          topic: 'jobs',
          payload: job('replayed from the admin screen'),
          error: 'canceling statement due to statement timeout',
          attempts: 5,
        },
        {
          messageId: 'database:e2e-2',
          topic: 'jobs',
          payload: job('too old to keep'),
          error: 'value too long for type character varying(8)',
          attempts: 5,
          lastFailedAt: new Date(Date.now() - 40 * DAY_MS),
        },
      ]);
    } finally {
      await db.close();
    }
    server = await startChildServer(
      { TRACKER_DATA_DIR: dir.path, TRACKER_SMTP_URL: smtp.url, TRACKER_SMTP_FROM: 'Tracker <tracker@example.com>' },
      'ingest,worker,api,web',
      { startTimeoutMs: 180_000 },
    );
    url = server.url;
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    asAdmin = await signIn(admin.email);
    asTenant = await signIn(tenant.email);
  });
  after(async () => {
    await browser?.close().catch(() => {});
    await server?.kill();
    await smtp?.close();
    dir?.remove();
  });

  test('a non-admin gets 403 on every admin page and from every admin query, and sees no Admin link', async () => {
    const { page } = asTenant;
    for (const path of ['/admin', '/admin/dead-letters', '/admin/instance']) {
      const response = await page.goto(path);
      assert.equal(response?.status(), 403, path);
      await page.getByText('Only instance admins can open the admin screen.').waitFor();
    }
    await page.goto(`/projects/${tenant.projectId}/issues`);
    assert.equal(await page.getByRole('link', { name: 'Admin', exact: true }).count(), 0);
    for (const query of [
      '{ adminOrganizations { totalCount } }',
      '{ adminDeadLetters { totalCount } }',
      '{ adminInstance { version } }',
    ]) {
      const r = await gql(url, query, {}, tenant.token);
      assert.equal(r.errors?.[0]?.extensions?.code, 'FORBIDDEN', query);
    }
    assertInert('non-admin');
  });

  test('a plan changed on the admin screen, then with the command, opens the Releases page at once', async () => {
    const releases = `/projects/${tenant.projectId}/releases`;
    const upgrade = () => asTenant.page.getByRole('link', { name: 'Upgrade in Billing' });
    const mark = () => asTenant.page.getByRole('button', { name: 'Mark release' });
    await asTenant.page.goto(releases);
    await upgrade().waitFor();

    // Billing on Free without Stripe says where the plan is changed, with no "stop the server".
    await asTenant.page.goto(`/projects/${tenant.projectId}/billing`);
    const billing = await asTenant.page.locator('main').innerText();
    assert.match(billing, /admin screen/);
    assert.match(billing, /works while Tracker runs/);
    assert.doesNotMatch(billing, /stop/i);
    await checkPage(asTenant.page, 'billing-free-admin');

    const { page } = asAdmin;
    await page.goto('/');
    await page.getByRole('link', { name: 'Admin', exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/admin');
    const row = page.locator('tr', { hasText: tenant.slug });
    assert.match(await row.innerText(), /Shop/);
    await checkPage(page, 'admin-organizations');
    await row.getByLabel(`Plan of ${tenant.slug}`, { exact: true }).selectOption('pro');
    await row.getByRole('button', { name: `Set plan of ${tenant.slug}` }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `${tenant.slug} moved from free to pro.` })
      .waitFor();

    await asTenant.page.goto(releases);
    await mark().waitFor();
    assert.equal(await upgrade().count(), 0);

    // The command line, while the server runs: answered over the control socket.
    const down = await runCli(['org:set-plan', tenant.slug, 'free'], { TRACKER_DATA_DIR: dir.path });
    assert.deepEqual(down, { code: 0, out: `${tenant.slug} is now on the free plan` });
    await asTenant.page.goto(releases);
    await upgrade().waitFor();
    const up = await runCli(['org:set-plan', tenant.slug, 'business'], { TRACKER_DATA_DIR: dir.path });
    assert.equal(up.code, 0, up.out);
    await asTenant.page.goto(releases);
    await mark().waitFor();

    // An unknown plan, posted past the form's select: refused with the API's message, nothing changed.
    const refused = await page.evaluate(
      `fetch('/admin?index', { method: 'POST', body: new URLSearchParams({ organizationId: ${JSON.stringify(
        (await gqlOk(url, '{ viewer { organizations { id } } }', {}, tenant.token)).viewer.organizations[0].id,
      )}, plan: 'platinum' }) }).then((r) => r.status)`,
    );
    assert.equal(refused, 400);
    await page.goto('/admin');
    assert.equal(await page.getByLabel(`Plan of ${tenant.slug}`, { exact: true }).inputValue(), 'business');
    assertInert('plan changes');
  });

  test('the dead letters screen lists them with their reason, replays one and purges the old one', async () => {
    const { page } = asAdmin;
    await page.goto('/admin/dead-letters');
    await page.getByRole('heading', { name: 'Dead letters (2)' }).waitFor();
    const table = await page.getByRole('region', { name: 'Dead letters', exact: true }).innerText();
    assert.match(table, /canceling statement due to statement timeout/);
    assert.match(table, /value too long for type character varying\(8\)/);
    assert.doesNotMatch(table, /replayed from the admin screen|too old to keep/, 'no payload on the screen');
    await checkPage(page, 'admin-dead-letters');

    const recent = page.locator('tr', { hasText: 'statement timeout' });
    const id = (await recent.locator('th').innerText()).match(/#(\d+)/)![1];
    await recent.getByRole('button', { name: `Replay #${id}` }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Queued 1 dead letter(s) again: #${id}.` })
      .waitFor();
    // The running server's worker stores it: the tenant sees the issue.
    await waitFor(
      'the replayed event stored',
      async () => {
        const r = await gqlOk(
          url,
          `query($p: ID!) { issues(projectId: $p, search: "replayed") { totalCount } }`,
          { p: tenant.projectId },
          tenant.token,
        );
        return r.issues.totalCount === 1;
      },
      60_000,
    );

    await page.getByLabel('Purge those whose last failure is older than (days)').fill('30');
    await page.locator('details.confirm summary', { hasText: 'Purge' }).click();
    await page.getByRole('button', { name: 'Delete them for good' }).click();
    await page.getByRole('status').filter({ hasText: 'Deleted 1 dead letter(s) older than 30 day(s).' }).waitFor();
    await page.getByText('No dead letters: every job was processed.').waitFor();
    assertInert('dead letters');
  });

  test('the instance page shows versions, migrations and configuration, and sends a test email', async () => {
    const { page } = asAdmin;
    await page.goto('/admin/instance');
    const main = await page.locator('main').innerText();
    assert.match(main, /embedded: PostgreSQL 18\.\d+ \(PGlite/);
    assert.match(main, /\d+ applied, none pending/);
    assert.match(main, /Email goes out through 127\.0\.0\.1:\d+/);
    assert.match(main, /Stripe billing\s+Not configured/);
    await checkPage(page, 'admin-instance');
    const before = smtp.messages.length;
    await page.getByRole('button', { name: 'Send test email' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Sent to ${admin.email}. The relay answered: 250` })
      .waitFor();
    assert.equal(smtp.messages.length, before + 1);
    assert.deepEqual(smtp.messages.at(-1)!.to, [admin.email]);
    assertInert('instance');
  });
});
