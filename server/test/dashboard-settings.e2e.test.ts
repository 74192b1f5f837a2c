import type { SmtpConfig } from '@tracker/core';
import { CHROMIUM_ARGS, CHROMIUM_PATH, startSmtpReceiver, type SmtpReceiver } from '@tracker/core/testing';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { Tracker } from '../src';
import { watchedPages } from './dashboard-browser';
import {
  createTestEnv,
  gql,
  gqlOk,
  sendError,
  signUpWithProject,
  startTracker,
  waitFor,
  type TestEnv,
} from './helpers';
import { checkPage } from './page-checks';

// Issue 31 §2, every setting on a screen, in Chromium against the embedded runtime with every
// role on one port (what `npm start` runs): the account page changes the password and the old
// sessions are signed out; "sign out everywhere else"; the privacy form's live preview is what
// the next real event is stored as; the organization settings page renames and invites. Each
// new page passes the page checks (axe-core, 1280 and 390 px, screenshots in web/test-artifacts/walk).

const PASSWORD = 'correct horse battery'; // signUpWithProject's
const NEW_PASSWORD = 'a brand new passphrase';
/** How long a step may take on a loaded machine (a sign-in took over 15 s at a load of 47). */
const PATIENCE_MS = 90_000;

describe('settings on screens: account, organization, privacy (embedded)', () => {
  let env: TestEnv | undefined;
  let tracker: Tracker | undefined;
  let browser: Browser | undefined;
  let url: string;
  /** Changes its password in the first test. */
  let account: Awaited<ReturnType<typeof signUpWithProject>>;
  /** The privacy and organization tests' own account, so they do not depend on the first test. */
  let shop: Awaited<ReturnType<typeof signUpWithProject>>;

  const { newPage, assertInert } = watchedPages(
    () => browser!,
    () => url,
  );

  /** A browser page with generous waits: the machine is shared and often loaded; nothing here is about speed. */
  async function patientPage(): Promise<{ context: BrowserContext; page: Page }> {
    const session = await newPage();
    session.page.setDefaultTimeout(PATIENCE_MS);
    session.page.setDefaultNavigationTimeout(PATIENCE_MS);
    return session;
  }

  async function signIn(email: string, password: string): Promise<{ context: BrowserContext; page: Page }> {
    const session = await patientPage();
    await session.page.goto('/login');
    await session.page.getByLabel('Email').fill(email);
    await session.page.getByLabel('Password').fill(password);
    await session.page.getByRole('button', { name: /sign in/i }).click();
    await session.page.waitForURL((u) => u.pathname !== '/login');
    return session;
  }

  /** Whether a browser session still gets a signed-in page, or is sent to the sign-in page. */
  async function signedIn(page: Page): Promise<boolean> {
    await page.goto('/account');
    return new URL(page.url()).pathname === '/account';
  }

  before(async () => {
    env = await createTestEnv('embedded');
    tracker = await startTracker(env, { roles: ['ingest', 'worker', 'api', 'web'] });
    url = tracker.url;
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    account = await signUpWithProject(url, 'Checkout');
    shop = await signUpWithProject(url, 'Shop');
  });
  after(async () => {
    await browser?.close().catch(() => {});
    await tracker?.close().catch(() => {});
    await env?.cleanup().catch(() => {});
  });

  test('the account page changes the password, and old sessions are signed out', async () => {
    const laptop = await signIn(account.email, PASSWORD);
    const phone = await signIn(account.email, PASSWORD);
    const me = await signIn(account.email, PASSWORD);
    try {
      const { page } = me;
      await page.goto('/account');
      const sessions = page.getByRole('region', { name: 'Signed-in sessions' });
      // signup's session, the three browsers.
      await waitFor(
        'four sessions listed',
        async () => (await sessions.locator('tbody tr').count()) === 4,
        PATIENCE_MS,
      );
      await sessions.getByText('This browser').waitFor();
      await checkPage(page, 'account-sessions');

      const password = page.getByRole('region', { name: 'Password' });
      await password.getByLabel('Current password').fill('not my password');
      await password.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
      await password.getByLabel('New password again').fill(NEW_PASSWORD);
      await password.getByRole('button', { name: 'Change password' }).click();
      await page.getByRole('alert').getByText('currentPassword: wrong password').waitFor();
      assert.ok(await signedIn(laptop.page), 'a refused change signs nobody out');

      await page.goto('/account');
      await password.getByLabel('Current password').fill(PASSWORD);
      await password.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
      await password.getByLabel('New password again').fill(NEW_PASSWORD);
      await password.getByRole('button', { name: 'Change password' }).click();
      await page.getByRole('status').getByText('Password changed').waitFor();

      // This browser carries on with its new session; every other one is signed out.
      assert.ok(await signedIn(page), 'the browser that changed it stays signed in');
      await waitFor('one session left', async () => (await sessions.locator('tbody tr').count()) === 1, PATIENCE_MS);
      for (const other of [laptop, phone]) {
        assert.equal(await signedIn(other.page), false, 'an old browser session is sent to sign in');
        assert.equal(new URL(other.page.url()).pathname, '/login');
      }
      const old = await gql(url, `{ sessions { id } }`, {}, account.token);
      assert.equal(old.errors?.[0]?.extensions?.code, 'UNAUTHENTICATED', 'the API session from signup too');
      const wrong = await gql(url, `mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }`, {
        e: account.email,
        p: PASSWORD,
      });
      assert.equal(wrong.errors?.[0]?.extensions?.code, 'UNAUTHENTICATED', 'the old password no longer signs in');

      // "Sign out everywhere else".
      const tablet = await signIn(account.email, NEW_PASSWORD);
      try {
        await page.goto('/account');
        await waitFor(
          'two sessions listed',
          async () => (await sessions.locator('tbody tr').count()) === 2,
          PATIENCE_MS,
        );
        await sessions.getByRole('button', { name: 'Sign out everywhere else' }).click();
        await page.getByRole('status').getByText('Signed out 1 other session.').waitFor();
        assert.equal(await signedIn(tablet.page), false);
        assert.ok(await signedIn(page));
      } finally {
        await tablet.context.close();
      }
    } finally {
      for (const s of [laptop, phone, me]) await s.context.close();
    }
    assertInert('account');
  });

  test('the privacy preview matches what is stored for the next event', async () => {
    const { page, context } = await signIn(shop.email, PASSWORD);
    try {
      await page.goto(`/projects/${encodeURIComponent(shop.project.id)}/settings`);
      const privacy = page.getByRole('region', { name: 'Privacy and scrubbing' });
      const preview = privacy.getByTestId('scrub-preview');
      // Saved defaults: card numbers and the Authorization header, not the SSN tag.
      await waitFor('the first preview', async () => (await preview.innerText()).includes('[Filtered]'), PATIENCE_MS);
      assert.match(await preview.innerText(), /"customer_ssn": "078-05-1120"/);

      // Live: a change to the form re-previews without a page load or a save.
      await privacy.getByLabel('Your own sensitive keys').fill('ssn\nbirth');
      await privacy.getByLabel('Scrub IP addresses').check();
      await waitFor(
        'the live preview with the draft',
        async () => (await preview.innerText()).includes('"customer_ssn": "[Filtered]"'),
        PATIENCE_MS,
      );
      assert.match(await preview.innerText(), /"ip_address": "\[Filtered\]"/);
      const stored = await tracker!.db.ds.query('SELECT sensitive_fields FROM projects WHERE id = $1', [
        shop.project.id,
      ]);
      assert.deepEqual(stored[0].sensitive_fields, [], 'a preview saves nothing');

      await privacy.getByRole('button', { name: 'Save privacy settings' }).click();
      await page.getByRole('status').getByText('Privacy settings saved').waitFor();
      await checkPage(page, 'settings-privacy');
      const sample = await privacy.getByLabel('Sample event (JSON, as an SDK sends it)').inputValue();
      const previewed = JSON.parse(await preview.innerText());

      // The same sample, sent as an SDK would: what is stored is what the preview showed.
      const eventId = randomUUID();
      const sent = await sendError(url, shop.key, { ...JSON.parse(sample), eventId });
      assert.equal(sent.status, 202, JSON.stringify(sent.body));
      const [row] = await waitFor(
        'the event stored',
        async () => {
          const rows = await tracker!.db.ds.query(
            `SELECT message, stack, context, tags, "user", release, environment, type FROM events WHERE event_id = $1`,
            [eventId],
          );
          return rows.length > 0 ? rows : undefined;
        },
        PATIENCE_MS,
      );
      for (const field of ['message', 'stack', 'context', 'user', 'release', 'environment', 'type'] as const) {
        assert.deepEqual(row[field], previewed[field], `stored ${field} equals the preview`);
      }
      // The worker adds tags it derives (browser, OS) beside the event's own: those are the preview's.
      for (const [name, value] of Object.entries(previewed.tags as Record<string, string>)) {
        assert.equal(row.tags[name], value, `stored tag ${name}`);
      }
      assert.equal(row.tags.customer_ssn, '[Filtered]');
      assert.equal(row.user.ip_address, '[Filtered]');
    } finally {
      await context.close();
    }
    assertInert('privacy');
  });

  test('the organization settings page renames the organization and holds members and invitations', async () => {
    const { page, context } = await signIn(shop.email, PASSWORD);
    try {
      // Reached from the project settings page, where members used to be.
      await page.goto(`/projects/${encodeURIComponent(shop.project.id)}/settings`);
      await page.getByRole('link', { name: "the organization's settings" }).click();
      await page.waitForURL((u) => u.pathname === `/orgs/${shop.organization.slug}/settings`);
      await page.getByLabel('Organization name').fill('Acme Storefront');
      await page.getByRole('button', { name: 'Rename' }).click();
      await page.getByRole('status').getByText('Organization renamed.').waitFor();
      await page.getByRole('heading', { name: 'Acme Storefront: organization settings' }).waitFor();

      const members = page.getByRole('region', { name: 'Members and invitations' });
      await members.getByLabel('Email to invite').fill('new-colleague@example.com');
      await members.getByRole('button', { name: 'Invite' }).click();
      await page.getByText('Invitation created. Email is not configured').waitFor();
      await members.getByText('new-colleague@example.com').waitFor();
      await page.getByRole('region', { name: 'Usage this month' }).waitFor();
      await checkPage(page, 'org-settings-invited');

      const other = await signUpWithProject(url, 'Elsewhere');
      const res = await page.goto(`/orgs/${other.organization.slug}/settings`);
      assert.equal(res?.status(), 404, "another tenant's organization is a 404");
    } finally {
      await context.close();
    }
    assertInert('organization settings');
  });

  test('without SMTP the account page changes the email at once; the confirmation page passes the checks', async () => {
    const fresh = await signUpWithProject(url, 'Email');
    const { page, context } = await signIn(fresh.email, PASSWORD);
    try {
      await page.goto('/account');
      const email = page.getByRole('region', { name: 'Email' });
      const moved = `moved-${Date.now()}@example.com`;
      await email.getByLabel('New email').fill(moved);
      await email.getByLabel('Current password').fill(PASSWORD);
      await email.getByRole('button', { name: 'Change email' }).click();
      await page.getByRole('status').getByText(`Your email is now ${moved}.`).waitFor();
      const login = await gqlOk(
        url,
        `mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }`,
        {
          e: moved,
          p: PASSWORD,
        },
      );
      assert.match(login.login.token, /^ets_/);

      const visitor = await patientPage();
      try {
        await visitor.page.goto(`/confirm-email/etc_${randomUUID()}`);
        await visitor.page.getByRole('button', { name: 'Confirm the new email' }).click();
        await visitor.page
          .getByRole('alert')
          .getByText(/unknown, replaced by a newer one, or used/)
          .waitFor();
        await checkPage(visitor.page, 'confirm-email');
      } finally {
        await visitor.context.close();
      }
    } finally {
      await context.close();
    }
    assertInert('email');
  });
});

describe('settings on screens: the email change confirmed by the emailed link (postgres+redis, real SMTP)', () => {
  let env: TestEnv | undefined;
  let tracker: Tracker | undefined;
  let browser: Browser | undefined;
  let smtp: SmtpReceiver | undefined;
  let url: string;

  const { newPage, assertInert } = watchedPages(
    () => browser!,
    () => url,
  );

  async function patientPage(): Promise<{ context: BrowserContext; page: Page }> {
    const session = await newPage();
    session.page.setDefaultTimeout(PATIENCE_MS);
    session.page.setDefaultNavigationTimeout(PATIENCE_MS);
    return session;
  }

  before(async () => {
    smtp = await startSmtpReceiver();
    env = await createTestEnv('postgres+redis');
    const mail: SmtpConfig = { host: '127.0.0.1', port: smtp.port, secure: false, from: 'Tracker <t@tracker.test>' };
    tracker = await startTracker(env, { roles: ['ingest', 'worker', 'api', 'web'], smtp: mail });
    url = tracker.url;
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  });
  after(async () => {
    await browser?.close().catch(() => {});
    await tracker?.close().catch(() => {});
    await env?.cleanup().catch(() => {});
    await smtp?.close().catch(() => {});
  });

  test('the new address gets a link; the email changes only when its page is confirmed', async () => {
    const acct = await signUpWithProject(url, 'Mail', smtp);
    const me = await patientPage();
    try {
      const { page } = me;
      await page.goto('/login');
      await page.getByLabel('Email').fill(acct.email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: /sign in/i }).click();
      await page.waitForURL((u) => u.pathname !== '/login');
      await page.goto('/account');
      const email = page.getByRole('region', { name: 'Email' });
      const target = `confirmed-${Date.now()}@example.com`;
      await email.getByLabel('New email').fill(target);
      await email.getByLabel('Current password').fill(PASSWORD);
      await email.getByRole('button', { name: 'Change email' }).click();
      await page.getByRole('status').getByText(`We sent a link to ${target}`).waitFor();
      await page.goto('/account');
      await email.getByText('Waiting for confirmation').waitFor();
      assert.match(await email.innerText(), new RegExp(`You sign in as ${acct.email.replace(/\./g, '\\.')}`));

      const mailed = await waitFor(
        'the confirmation email',
        async () => smtp!.messages.find((m) => m.to.includes(target)),
        PATIENCE_MS,
      );
      const raw = mailed.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
      const link = raw.match(/\/confirm-email\/(etc_[A-Za-z0-9_-]+)/);
      assert.ok(link, raw);

      // Opened signed out, as from a mail client: the GET changes nothing, the button does.
      const visitor = await patientPage();
      try {
        await visitor.page.goto(`/confirm-email/${link[1]}`);
        const before = await gql(
          url,
          `mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }`,
          {
            e: target,
            p: PASSWORD,
          },
        );
        assert.equal(before.errors?.[0]?.extensions?.code, 'UNAUTHENTICATED', 'not changed by opening the page');
        await visitor.page.getByRole('button', { name: 'Confirm the new email' }).click();
        await visitor.page.getByRole('status').getByText(`you sign in as ${target} from now on`).waitFor();
      } finally {
        await visitor.context.close();
      }
      const login = await gqlOk(
        url,
        `mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }`,
        {
          e: target,
          p: PASSWORD,
        },
      );
      assert.match(login.login.token, /^ets_/);
      await page.goto('/account');
      await email.getByText(`You sign in as ${target}`).waitFor();
      assert.equal(await email.getByText('Waiting for confirmation').count(), 0);
    } finally {
      await me.context.close();
    }
    assertInert('email by link');
  });
});
