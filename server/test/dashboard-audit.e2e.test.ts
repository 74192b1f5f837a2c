import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@tracker/core/testing';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { Tracker } from '../src';
import { ARTIFACTS, watchedPages } from './dashboard-browser';
import { createTestEnv, gqlOk, signUpWithProject, startTracker, type TestEnv } from './helpers';
import { checkPage } from './page-checks';

// Issue 32 §4: the audit log page of an organization, in a real browser against the real API.
// The sign-in made in the browser is recorded with the browser's own user agent (forwarded by
// the web role, believed by the API beside the signed client address); the page filters by
// action and exports CSV; axe-core finds nothing at 1280 and 390 px.

const PASSWORD = 'correct horse battery'; // signUpWithProject's
const SCREENSHOTS = join(__dirname, '../../docs/screenshots');

describe('the audit log page (postgres+redis)', () => {
  let env: TestEnv | undefined;
  let tracker: Tracker | undefined;
  let browser: Browser | undefined;
  let page: Page;
  let account: Awaited<ReturnType<typeof signUpWithProject>>;
  let path: string;
  const { newPage, assertInert, screenshot } = watchedPages(
    () => browser!,
    () => tracker!.url,
  );

  before(async () => {
    env = await createTestEnv('postgres+redis');
    tracker = await startTracker(env, { roles: ['api', 'web'] });
    account = await signUpWithProject(tracker.url, 'Checkout web');
    path = `/orgs/${encodeURIComponent(account.organization.slug)}/audit`;
    const q = (query: string, variables: Record<string, unknown>) =>
      gqlOk(tracker!.url, query, variables, account.token);
    await q(`mutation($p: ID!) { renameProject(id: $p, name: "=Checkout, web") { id } }`, { p: account.project.id });
    await q(`mutation($p: ID!) { createUploadToken(projectId: $p, name: "=deploy") { token } }`, {
      p: account.project.id,
    });
    await q(`mutation($p: ID!) { updateProjectPrivacy(id: $p, input: { scrubIpAddresses: true }) { id } }`, {
      p: account.project.id,
    });
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    ({ page } = await newPage());
    await page.goto('/login');
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: /sign in|log in/i }).click();
    await page.waitForURL((u) => u.pathname !== '/login');
  });
  after(async () => {
    await browser?.close();
    await tracker?.close();
    await env?.cleanup();
  });

  test("lists the organization's changes, newest first, with the browser's sign-in and user agent", async () => {
    await page.goto(path);
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    const actions = await page
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-action')));
    assert.deepEqual(actions, [
      'auth.signed_in',
      'project.privacy_changed',
      'upload_token.created',
      'project.renamed',
      'project.created',
    ]);
    const signIn = page.locator('tbody tr[data-action="auth.signed_in"]');
    const browserAgent = await page.evaluate('navigator.userAgent');
    assert.match(String(browserAgent), /Chrome/);
    assert.ok((await signIn.innerText()).includes(String(browserAgent).slice(0, 40)), await signIn.innerText());
    assert.match(await signIn.innerText(), /127\.0\.0\.1/);
    const renamed = await page.locator('tbody tr[data-action="project.renamed"]').innerText();
    assert.match(renamed, /name: Checkout web → =Checkout, web/);
    assertInert('audit page');
  });

  test('filters by action, exports CSV, and passes axe at 1280 and 390 px', async () => {
    await page.goto(path);
    await page.getByLabel('Action').selectOption('project.renamed');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL((u) => u.searchParams.get('action') === 'project.renamed');
    await page.locator('tbody tr').first().waitFor();
    assert.deepEqual(
      await page.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-action'))),
      ['project.renamed'],
    );

    const csv = await page.request.get(`${path}.csv?action=project.renamed`);
    assert.equal(csv.status(), 200);
    assert.match(csv.headers()['content-type'], /^text\/csv/);
    assert.match(csv.headers()['content-disposition'], /^attachment; filename="audit-/);
    const lines = (await csv.text()).trim().split('\r\n');
    assert.equal(
      lines[0],
      'time,action,actor_type,actor,actor_user_id,api_token,target_type,target_id,target,changes,client_address,user_agent',
    );
    assert.equal(lines.length, 2);
    // The new name starts with "=": its cell is defused for spreadsheets (and quoted for its comma).
    assert.match(lines[1], /,project\.renamed,USER,/);
    assert.match(lines[1], /,"'=Checkout, web",/);
    // Everything, unfiltered: five rows and no secret (the upload token's value never was stored).
    const everything = await (await page.request.get(`${path}.csv`)).text();
    assert.equal(everything.trim().split('\r\n').length, 6);
    assert.doesNotMatch(everything, /etu_[A-Za-z0-9_-]{20,}|ets_|correct horse/);
    const stranger = await page.request.get(`/orgs/not-${account.organization.slug}/audit.csv`);
    assert.equal(stranger.status(), 404);

    await page.goto(path);
    await page.locator('tbody tr').first().waitFor();
    // Unique ids, nothing wider than the viewport, no critical or serious axe-core violation, at both widths.
    await checkPage(page, 'audit-log');
    await screenshot(page, 'audit-log');
    mkdirSync(SCREENSHOTS, { recursive: true });
    for (const label of ['desktop', 'mobile']) {
      copyFileSync(join(ARTIFACTS, `audit-log-${label}.png`), join(SCREENSHOTS, `audit-log-${label}.png`));
    }
    assertInert('audit page, filtered');
  });
});
