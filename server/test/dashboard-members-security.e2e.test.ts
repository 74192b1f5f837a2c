/**
 * Issue 32 §3 in Chromium (decision 066): sign-up on a Tracker that sends email ("check your
 * email", the emailed link's page, then sign in to the new organization), and the organization
 * settings page's members table with each member's email confirmation and two-factor state, and
 * the owners' "Require two-factor" switch (one audit row per change). Each page: axe-core, no
 * overflow, screenshots at 1280 and 390 px (web/test-artifacts/walk/). Embedded runtime, every
 * role in one process, a real SMTP server.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CHROMIUM_ARGS, CHROMIUM_PATH, startSmtpReceiver, type SmtpReceiver } from '@tracker/core/testing';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { Tracker } from '../src';
import { watchedPages } from './dashboard-browser';
import { checkPage } from './page-checks';
import { createTestEnv, gqlOk, signUpWithProject, startTracker, waitFor, type TestEnv } from './helpers';

const PASSWORD = 'correct horse battery';

describe('email ownership and two-factor on the organization settings page (embedded)', () => {
  let env: TestEnv;
  let tracker: Tracker;
  let browser: Browser;
  let smtp: SmtpReceiver;
  let pages: ReturnType<typeof watchedPages>;

  before(async () => {
    smtp = await startSmtpReceiver();
    env = await createTestEnv('embedded', {
      smtp: { host: '127.0.0.1', port: smtp.port, secure: false, from: 'Tracker <accounts@tracker.test>' },
    });
    tracker = await startTracker(env, { roles: ['ingest', 'worker', 'api', 'web'] });
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    pages = watchedPages(
      () => browser,
      () => tracker.url,
    );
    await waitFor('the sign-in page', async () => (await fetch(`${tracker.url}/login`)).ok, 120_000);
  });
  after(async () => {
    await browser?.close();
    await tracker?.close();
    await smtp?.close();
    await env?.cleanup();
  });

  const mailTo = (to: string) =>
    waitFor(`the email to ${to}`, async () => smtp.messages.find((m) => m.to.includes(to))?.raw.replace(/=\r?\n/g, ''));
  async function signIn(page: Page, email: string, redirectTo = '/') {
    await page.goto(`/login?redirectTo=${encodeURIComponent(redirectTo)}`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((u) => u.pathname !== '/login', { timeout: 90_000 });
  }

  test(
    'sign-up with email: check your email, confirm on the link page, sign in to the organization',
    { timeout: 300_000 },
    async () => {
      const email = `signup-${Date.now()}@example.com`;
      const { context, page } = await pages.newPage();
      await page.goto('/signup');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByLabel('Organization name').fill('Mailed Co');
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByRole('heading', { name: 'Check your email' }).waitFor();
      await checkPage(page, 'sign-up-check-email');
      const link = /https?:\/\/\S+?\/verify-email\/etv_[A-Za-z0-9_-]+/.exec(await mailTo(email))![0];
      const linkPath = new URL(link).pathname;
      // Signed out, the link page asks to sign in as the account first (decision 066), and
      // signing in comes back to it.
      await page.goto(linkPath);
      await page.getByRole('heading', { name: 'Confirm your email address' }).waitFor();
      assert.equal(await page.getByRole('button', { name: 'Confirm my email address' }).count(), 0);
      await checkPage(page, 'verify-email-signed-out');
      await page.getByRole('link', { name: 'Sign in to confirm' }).click();
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL((u) => u.pathname === linkPath, { timeout: 90_000 });
      await checkPage(page, 'verify-email');
      await page.getByRole('button', { name: 'Confirm my email address' }).click();
      await page.getByText('is yours, and your organization is ready').waitFor();
      // Already signed in: the dashboard opens on the new organization (its first project to make).
      await page.getByRole('link', { name: 'Open Tracker' }).click();
      await page.waitForURL((u) => u.pathname === '/projects/new', { timeout: 90_000 });
      // Used: the page says so.
      await page.goto(linkPath);
      await page.getByRole('button', { name: 'Confirm my email address' }).click();
      await page.getByText('This confirmation link is no longer valid').waitFor();
      const owners = await tracker.db.ds.query(
        `SELECT m.role FROM memberships m JOIN users u ON u.id = m.user_id JOIN organizations o ON o.id = m.organization_id
        WHERE u.email = $1 AND o.name = 'Mailed Co' AND u.email_verified_at IS NOT NULL`,
        [email],
      );
      assert.deepEqual(owners, [{ role: 'owner' }]);
      pages.assertInert('sign-up');
      await context.close();
    },
  );

  test(
    'the members table shows confirmation and two-factor; owners require two-factor',
    { timeout: 300_000 },
    async () => {
      const owner = await signUpWithProject(tracker.url, 'Web', smtp); // confirmed by its emailed link
      const orgId: string = owner.organization.id;
      // A member who joined through an emailed invitation (confirmed), and one whose address no email confirmed.
      const invitedEmail = `invited-${Date.now()}@example.com`;
      await gqlOk(
        tracker.url,
        `mutation($o: ID!, $e: String!) { inviteMember(organizationId: $o, email: $e) { emailSent } }`,
        { o: orgId, e: invitedEmail },
        owner.token,
      );
      const invitation = /invitations\/(eti_[A-Za-z0-9_-]+)/.exec(await mailTo(invitedEmail))![1];
      await gqlOk(
        tracker.url,
        `mutation($t: String!, $p: String!) { signupWithInvitation(token: $t, password: $p) { token } }`,
        {
          t: invitation,
          p: PASSWORD,
        },
      );
      const unconfirmed = `unconfirmed-${Date.now()}@example.com`;
      await gqlOk(
        tracker.url,
        `mutation($e: String!) { signup(email: $e, password: "${PASSWORD}", organizationName: "U") { checkEmail } }`,
        {
          e: unconfirmed,
        },
      );
      await mailTo(unconfirmed);
      const [u] = await tracker.db.ds.query('SELECT id FROM users WHERE email = $1', [unconfirmed]);
      // Straight in the database: the API refuses an unconfirmed address to join (email-ownership.test.ts).
      await tracker.db.ds.query(`INSERT INTO memberships (organization_id, user_id, role) VALUES ($1, $2, 'member')`, [
        orgId,
        u.id,
      ]);

      const { context, page } = await pages.newPage();
      await signIn(page, owner.email, `/orgs/${owner.organization.slug}/settings`);
      await page.waitForURL(`**/orgs/${owner.organization.slug}/settings`);
      const row = (email: string) => page.getByRole('row', { name: new RegExp(email.replace(/[.]/g, '\\.')) });
      await row(invitedEmail).getByText('Confirmed', { exact: true }).waitFor();
      assert.equal(await row(invitedEmail).getByText('Off', { exact: true }).count(), 1);
      await row(unconfirmed).getByText('Not confirmed', { exact: true }).waitFor();
      // Without two-factor of their own, the owner cannot require it: the button says why.
      const requireButton = page.getByRole('button', { name: 'Require two-factor' });
      assert.equal(await requireButton.isDisabled(), true);
      await page.getByText('two-factor for your own account').waitFor();
      await checkPage(page, 'org-members-security');

      // The owner turns two-factor on (its enrolment is dashboard-two-factor's walk).
      await tracker.db.ds.query(`UPDATE users SET totp_secret = 'JBSWY3DPEHPK3PXP' WHERE email = $1`, [owner.email]);
      await page.reload();
      await row(owner.email).getByText('On', { exact: true }).waitFor();
      const auditRows = async () =>
        (
          await tracker.db.ds.query(
            `SELECT count(*)::int AS n FROM audit_log WHERE organization_id = $1 AND action = 'organization.require_two_factor_changed'`,
            [orgId],
          )
        )[0].n as number;
      await page.getByRole('button', { name: 'Require two-factor' }).click();
      await page.getByText('Two-factor is now required.').waitFor();
      await page.getByText('Required: members without two-factor').waitFor();
      await checkPage(page, 'org-require-two-factor');
      assert.equal(await auditRows(), 1);
      await page.getByRole('button', { name: 'Stop requiring two-factor' }).click();
      await page.getByText('Two-factor is no longer required.').waitFor();
      assert.equal(await auditRows(), 2);
      pages.assertInert('members');
      await context.close();
    },
  );
});
