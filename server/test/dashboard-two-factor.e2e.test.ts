/**
 * Issue 32 in Chromium: the sign-in page's "Forgot your password?", the reset by email (a real
 * SMTP server) to a new password, two-factor enrolment at /account/two-factor (QR code, code,
 * recovery codes) and the code step at sign-in (with a recovery code: a TOTP code of the same
 * step as the enrolment's is refused by design). Each page: axe-core, no overflow, screenshots at
 * 1280 and 390 px (web/test-artifacts/walk/). Embedded runtime, every role in one process.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CHROMIUM_ARGS, CHROMIUM_PATH, startSmtpReceiver, type SmtpReceiver } from '@tracker/core/testing';
import { totpCodeAt } from '@tracker/core';
import { chromium, type Browser } from 'playwright-core';
import type { Tracker } from '../src';
import { watchedPages } from './dashboard-browser';
import { checkPage } from './page-checks';
import { createTestEnv, signUpWithProject, startTracker, waitFor, type TestEnv } from './helpers';

const PASSWORD = 'correct horse battery';

describe('two-factor and password reset pages in a real browser (embedded)', () => {
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
    pages = watchedPages(() => browser, () => tracker.url);
    // The first render of the built web is slow on a loaded machine: warm it outside the step timeout.
    await waitFor('the sign-in page', async () => (await fetch(`${tracker.url}/login`)).ok, 120_000);
  });
  after(async () => {
    await browser?.close();
    await tracker?.close();
    await smtp?.close();
    await env?.cleanup();
  });

  test('forgot password → email → new password → sign in', { timeout: 300_000 }, async () => {
    const { email } = await signUpWithProject(tracker.url, 'Web', smtp);
    const { context, page } = await pages.newPage();
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.waitForURL('**/forgot-password');
    await checkPage(page, 'forgot-password');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send a reset link' }).click();
    await page.getByText('an email with a link to choose a new password is on its way').waitFor();
    await checkPage(page, 'forgot-password-sent');
    const link = await waitFor('the reset email', async () => {
      const mail = smtp.messages.find((m) => m.to.includes(email));
      return mail && /https?:\/\/\S+?\/reset-password\/etr_[A-Za-z0-9_-]+/.exec(mail.raw.replace(/=\r?\n/g, ''))?.[0];
    });
    await page.goto(new URL(link).pathname);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await checkPage(page, 'reset-password');
    await page.getByLabel('New password', { exact: true }).fill('a brand new password');
    await page.getByLabel('New password, again').fill('a brand new password');
    await page.getByRole('button', { name: 'Save the new password' }).click();
    await page.waitForURL('**/login?reset=1');
    await page.getByText('Your password was changed').waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('a brand new password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((u) => u.pathname !== '/login', { timeout: 90_000 });
    // The link is spent.
    await page.goto(new URL(link).pathname);
    await page.getByText('This reset link is no longer valid').waitFor();
    await checkPage(page, 'reset-password-used');
    pages.assertInert('reset');
    await context.close();
  });

  test('enrol at /account/two-factor, then sign in with the code step', { timeout: 300_000 }, async () => {
    const { email } = await signUpWithProject(tracker.url, 'Web', smtp);
    const first = await pages.newPage();
    const page = first.page;
    await page.goto('/login?redirectTo=/account/two-factor');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/account/two-factor', { timeout: 90_000 });
    await checkPage(page, 'two-factor-off');
    await page.getByRole('button', { name: 'Set up two-factor' }).click();
    const qr = page.getByRole('img', { name: 'QR code of your two-factor secret' });
    await qr.waitFor();
    assert.match(String(await qr.getAttribute('src')), /^data:image\/svg\+xml;base64,/);
    await checkPage(page, 'two-factor-enrol');
    const secret = (await page.locator('code.mono').textContent())!.trim();
    // A 5-digit code: a clear error, and the QR code stays.
    await page.getByLabel('Code').fill('12345');
    await page.getByRole('button', { name: 'Turn on two-factor' }).click();
    await page.getByText('enter the 6-digit code').waitFor();
    await qr.waitFor();
    await page.getByLabel('Code').fill(totpCodeAt(secret, Date.now()));
    await page.getByRole('button', { name: 'Turn on two-factor' }).click();
    await page.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
    const codes = await page.locator('.recovery-codes li').allTextContents();
    assert.equal(codes.length, 10);
    await checkPage(page, 'two-factor-recovery-codes');
    await page.goto('/account/two-factor');
    await page.getByText('10 of 10').waitFor();
    await checkPage(page, 'two-factor-on');
    await first.context.close();

    const second = await pages.newPage();
    await second.page.goto('/login');
    await second.page.getByLabel('Email').fill(email);
    await second.page.getByLabel('Password').fill(PASSWORD);
    await second.page.getByRole('button', { name: 'Sign in' }).click();
    await second.page.getByRole('heading', { name: 'Two-factor authentication' }).waitFor();
    await checkPage(second.page, 'sign-in-code-step');
    await second.page.getByLabel('Code').fill('1234567');
    await second.page.getByRole('button', { name: 'Verify' }).click();
    await second.page.getByText('enter the 6-digit code').waitFor();
    await second.page.getByLabel('Code').fill(codes[0]);
    await second.page.getByRole('button', { name: 'Verify' }).click();
    await second.page.waitForURL((u) => u.pathname !== '/login', { timeout: 90_000 });
    pages.assertInert('two-factor');
    await second.context.close();
  });
});
