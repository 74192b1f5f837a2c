import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@tracker/core/testing';
import { setOrganizationPlan } from '@tracker/core';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { Tracker } from '../src';
import { watchedPages } from './dashboard-browser';
import { createTestEnv, gqlOk, sendError, signUpWithProject, startTracker, waitFor, type TestEnv } from './helpers';

// Ownership and conversation (issue 19) through a real Chromium against a real Tracker
// (PostgreSQL + Redis, every role on one port): a regression's reason in the timeline, assigning
// with the picker, the list's "assigned to me / unassigned" filter and badge, commenting (links
// safe, markup inert), editing and deleting one's own comment, and a plain member who sees the
// comment but cannot edit it. Screenshots in web/test-artifacts/ (gitignored).

const PASSWORD = 'correct horse battery';

describe('ownership and activity in a real browser (postgres+redis)', () => {
  let env: TestEnv | undefined;
  let tracker: Tracker | undefined;
  let browser: Browser | undefined;
  let url: string;
  let owner: Awaited<ReturnType<typeof signUpWithProject>>;
  let member: Awaited<ReturnType<typeof signUpWithProject>>;
  let ownerPage: { context: BrowserContext; page: Page };
  let memberPage: { context: BrowserContext; page: Page };
  let issueId: string;
  let issuePath: string;
  let listPath: string;

  before(async () => {
    env = await createTestEnv('postgres+redis');
    tracker = await startTracker(env, { roles: ['ingest', 'worker', 'api', 'web'] });
    url = tracker.url;
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    owner = await signUpWithProject(url, 'Storefront');
    member = await signUpWithProject(url, 'Elsewhere');
    await tracker.db.ds.query(
      `INSERT INTO memberships (organization_id, user_id, role) VALUES ($1, (SELECT id FROM users WHERE email = $2), 'member')`,
      [owner.organization.id, member.email],
    );
    await setOrganizationPlan(tracker.db.ds, owner.organization.slug, 'pro');
    listPath = `/projects/${encodeURIComponent(owner.project.id)}/issues`;
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

  async function signIn(page: Page, email: string, to: string) {
    await page.goto(`/login?redirectTo=${encodeURIComponent(to)}`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((u) => u.pathname === to);
  }

  async function register(version: string, token: string) {
    const res = await fetch(`${url}/ingest/release`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ version }),
    });
    assert.equal(res.status, 200, await res.text());
  }

  const timeline = (page: Page) => page.locator('#activity ol.timeline > li');

  test('a regression, resolved in 1.3.2 and back in 1.4.0, shows its reason in the timeline', async () => {
    const upload = await gqlOk(
      url,
      `mutation($p: ID!) { createUploadToken(projectId: $p, name: "ci") { token } }`,
      { p: owner.project.id },
      owner.token,
    );
    const uploadToken = upload.createUploadToken.token as string;
    await register('1.3.2', uploadToken);
    const event = { type: 'TypeError', message: 'cart is undefined', environment: 'production', fingerprint: ['cart'] };
    assert.equal((await sendError(url, owner.key, { ...event, release: '1.3.2' })).status, 202);
    issueId = await waitFor('the issue', async () => {
      const rows = await tracker!.db.ds.query('SELECT id FROM issues WHERE project_id = $1', [owner.project.id]);
      return rows[0]?.id as string | undefined;
    });
    issuePath = `${listPath}/${encodeURIComponent(issueId)}`;

    ownerPage = await newPage();
    const { page } = ownerPage;
    await signIn(page, owner.email, issuePath);
    await page.getByRole('button', { name: 'Resolve', exact: true }).click();
    await page.locator('.status-resolved').waitFor();
    await new Promise((r) => setTimeout(r, 5));
    await register('1.4.0', uploadToken);
    assert.equal((await sendError(url, owner.key, { ...event, release: '1.4.0' })).status, 202);
    await waitFor('the regression', async () => {
      await page.goto(issuePath);
      return (await timeline(page).first().getAttribute('data-kind')) === 'REGRESSED';
    });
    const [deployed] = await tracker!.db.ds.query(
      `SELECT deployed_at FROM releases WHERE project_id = $1 AND version = '1.4.0'`,
      [owner.project.id],
    );
    const minute = new Date(deployed.deployed_at).toISOString().slice(0, 16).replace('T', ' ');
    const regressed = timeline(page).first();
    assert.equal(
      (await regressed.locator('.timeline-message').innerText()).trim(),
      `event in release 1.4.0, deployed ${minute} UTC to production, after resolved in 1.3.2`,
    );
    assert.match(await regressed.locator('.timeline-head').innerText(), /Tracker/);
    const kinds = await timeline(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-kind')));
    assert.deepEqual(kinds, ['REGRESSED', 'RESOLVED', 'FIRST_SEEN'], 'newest first');
    assert.match(
      await timeline(page).nth(1).innerText(),
      new RegExp(`Resolved[\\s\\S]*${owner.email.replace(/\./g, '\\.')}`),
    );
    assert.match(await timeline(page).nth(2).innerText(), /First seen in release 1\.3\.2 \(production\)/);
    assertInert('regression timeline');
  });

  test('assign with the picker; the list shows the badge and filters "assigned to me" and "unassigned"', async () => {
    const { page } = ownerPage;
    await page.goto(issuePath);
    await page.getByLabel('Assignee').selectOption({ label: member.email });
    await page.getByRole('button', { name: 'Assign' }).click();
    await page.waitForURL((u) => u.pathname === issuePath);
    await waitFor('the assignment in the timeline', async () =>
      (await timeline(page).first().innerText()).includes(`Assigned to ${member.email}`),
    );
    assert.equal(await page.getByLabel('Assignee').inputValue(), await memberId());
    const [row] = await tracker!.db.ds.query('SELECT assignee_id FROM issues WHERE id = $1', [issueId]);
    assert.equal(row.assignee_id, await memberId());

    await page.goto(`${listPath}?status=open`);
    await page.locator('.badge-assignee', { hasText: member.email }).waitFor();
    await screenshot(page, 'issues-assignee-badge');
    await page.getByLabel('Assignee').selectOption({ label: 'Unassigned' });
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL((u) => u.searchParams.get('assigned') === 'none');
    await page.getByText('No open issues match these filters.').waitFor();
    await page.getByLabel('Assignee').selectOption({ label: 'Assigned to me' });
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL((u) => u.searchParams.get('assigned') === 'me');
    await page.getByText('No open issues match these filters.').waitFor(); // the owner is not the assignee
    await screenshot(page, 'issues-assigned-filter');

    memberPage = await newPage();
    await signIn(memberPage.page, member.email, `${listPath}`);
    await memberPage.page.goto(`${listPath}?status=open&assigned=me`);
    assert.equal(await memberPage.page.locator('table.issues tbody tr').count(), 1);
    await memberPage.page.locator('.issue-title', { hasText: 'cart is undefined' }).waitFor();
    assertInert('assignment');
  });

  test('comment with a link and markup, edit it, the member cannot edit it, delete it', async () => {
    const { page } = ownerPage;
    await page.goto(issuePath);
    const text = 'Seen on https://shop.example/cart?x=1. Not javascript:alert("c") <img src=x onerror=alert("c")>';
    await page.getByLabel('Comment', { exact: true }).fill(text);
    await page.getByRole('button', { name: 'Comment', exact: true }).click();
    await page.waitForURL((u) => u.pathname === issuePath);
    const comment = timeline(page).first();
    await waitFor('the comment', async () => (await comment.getAttribute('data-kind')) === 'COMMENTED');
    assert.equal((await comment.locator('.comment-body').innerText()).trim(), text);
    assert.equal(await page.getByLabel('Comment', { exact: true }).inputValue(), '', 'the form is empty again');
    const links = comment.locator('.comment-body a');
    assert.equal(await links.count(), 1, 'only the http(s) URL is a link');
    assert.equal(await links.getAttribute('href'), 'https://shop.example/cart?x=1');
    assert.equal(await links.getAttribute('rel'), 'noopener noreferrer nofollow ugc');
    assert.equal(await page.locator('main img').count(), 0, 'markup stays text');

    await comment.getByText('Edit', { exact: true }).click();
    await comment.getByLabel('Comment text').fill('Fixed in the next deploy, see https://shop.example/pr/7');
    await comment.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL((u) => u.pathname === issuePath);
    await waitFor('the edit', async () =>
      (await timeline(page).first().innerText()).includes('Fixed in the next deploy'),
    );
    assert.match(await timeline(page).first().locator('.timeline-head').innerText(), /\(edited\)/);
    assert.equal(await page.locator('details.comment-edit[open]').count(), 0, 'a saved edit closes its form');
    await screenshot(page, 'issue-activity');

    // A plain member reads it but has no Edit or Delete on it.
    await memberPage.page.goto(issuePath);
    const seen = timeline(memberPage.page).first();
    assert.match(await seen.innerText(), /Fixed in the next deploy/);
    assert.equal(await seen.getByText('Edit', { exact: true }).count(), 0);
    assert.equal(await seen.getByText('Delete', { exact: true }).count(), 0);
    // …and may comment.
    await memberPage.page.getByLabel('Comment', { exact: true }).fill('I will take it');
    await memberPage.page.getByRole('button', { name: 'Comment', exact: true }).click();
    await waitFor('the member comment', async () =>
      (await timeline(memberPage.page).first().innerText()).includes('I will take it'),
    );

    await page.goto(issuePath);
    const own = timeline(page).nth(1);
    assert.match(await own.innerText(), /Fixed in the next deploy/);
    await own.getByText('Delete', { exact: true }).click();
    await own.getByRole('button', { name: 'Delete this comment' }).click();
    await page.waitForURL((u) => u.pathname === issuePath);
    await waitFor(
      'the deletion',
      async () => !(await page.locator('#activity').innerText()).includes('Fixed in the next deploy'),
    );
    assert.match(await timeline(page).first().innerText(), /I will take it/);
    assertInert('comments');
  });

  async function memberId(): Promise<string> {
    const [u] = await tracker!.db.ds.query('SELECT id FROM users WHERE email = $1', [member.email]);
    return u.id;
  }
});
