import { CHROMIUM_ARGS } from '@tracker/core/testing';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { Tracker } from '../src';
import { chromeStack, createTestEnv, MODES, sendError, startTracker, type TestEnv } from './helpers';

// The dashboard through a real browser against a real Tracker with every role on one port:
// sign-up → project → DSN → ingest → issues page, sessions, tenant isolation, and the mount
// (redirects, immutable assets, /healthz not swallowed by the catch-all).

const PASSWORD = 'correct horse battery staple';
const HOSTILE = '<img src=x onerror=alert(1)>';
const STEP_TIMEOUT_MS = 10_000;

let accounts = 0;
function newEmail(): string {
  accounts += 1;
  return `e2e${accounts}-${Date.now()}@example.com`;
}

for (const mode of MODES) {
  describe(`the dashboard in a real browser (${mode})`, () => {
    let env: TestEnv | undefined;
    let tracker: Tracker | undefined;
    let browser: Browser | undefined;
    let url: string;
    const dialogs: string[] = [];
    // Shared by the ordered steps below; each step relies on the ones before it.
    let owner: { context: BrowserContext; page: Page; email: string };
    let projectId: string;
    let dsn: string;
    let titles: { hostile: string; plain: string };

    before(async () => {
      env = await createTestEnv(mode);
      tracker = await startTracker(env, { roles: ['ingest', 'worker', 'api', 'web'] });
      url = tracker.url;
      browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
    });
    after(async () => {
      // Each step guarded on its own so one failure does not leak the rest.
      await browser?.close().catch(() => {});
      await tracker?.close().catch(() => {});
      await env?.cleanup().catch(() => {});
    });

    async function newPage(): Promise<{ context: BrowserContext; page: Page }> {
      const context = await browser!.newContext({ baseURL: url });
      context.setDefaultTimeout(STEP_TIMEOUT_MS);
      context.setDefaultNavigationTimeout(STEP_TIMEOUT_MS);
      // The build has no favicon; Remix would render (and log) a 404 for every page view.
      await context.route('**/favicon.ico', (route) => route.fulfill({ status: 204 }));
      const page = await context.newPage();
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss().catch(() => {});
      });
      return { context, page };
    }

    async function signUp(page: Page, email: string, organization: string) {
      await page.goto('/signup');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByLabel('Organization name').fill(organization);
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.waitForURL((u) => u.pathname === '/projects/new');
    }

    async function signIn(page: Page, email: string) {
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
    }

    test('the mount: / redirects signed-out visitors, assets are immutable, /healthz is not swallowed', async () => {
      const root = await fetch(`${url}/`, { redirect: 'manual' });
      assert.ok([301, 302, 303, 307].includes(root.status), `status ${root.status}`);
      assert.equal(new URL(root.headers.get('location')!, url).pathname, '/login');

      const health = await fetch(`${url}/healthz`);
      assert.equal(health.status, 200);
      assert.deepEqual(await health.json(), { status: 'ok' });

      const login = await fetch(`${url}/login`);
      assert.equal(login.status, 200);
      const html = await login.text();
      const assets = [...html.matchAll(/(?:href|src)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
      assert.ok(assets.length > 0, 'the login page references built assets');
      for (const path of new Set(assets)) {
        const res = await fetch(`${url}${path}`);
        assert.equal(res.status, 200, path);
        assert.match(res.headers.get('cache-control') ?? '', /immutable/, path);
        await res.arrayBuffer();
      }
    });

    test('sign up and create a project through the forms; the project page shows the DSN', async () => {
      owner = { ...(await newPage()), email: newEmail() };
      const { page } = owner;
      await signUp(page, owner.email, `Acme ${mode}`);
      await page.getByLabel('Project name').fill('Storefront');
      await page.getByRole('button', { name: 'Create project' }).click();
      await page.waitForURL((u) => /^\/projects\/[^/]+$/.test(u.pathname) && u.pathname !== '/projects/new');
      projectId = decodeURIComponent(new URL(page.url()).pathname.split('/')[2]);
      dsn = await page.locator('#project-dsn').inputValue();
      assert.match(dsn, new RegExp(`^http://et_[0-9a-f]{32}@localhost:\\d+/${projectId}$`));
      await page.getByRole('heading', { name: 'Waiting for the first event' }).waitFor();
    });

    test('errors sent with that DSN show up as issues, event text rendered as text', async () => {
      const { page } = owner;
      const key = new URL(dsn).username;
      const hostile = { type: 'Error', message: `bad input ${HOSTILE}`, environment: 'production', stack: chromeStack('renderName', 7) };
      const plain = { type: 'TypeError', message: 'x is undefined', environment: 'production', stack: chromeStack('loadUser', 10) };
      for (const body of [
        { ...hostile, user: { id: 'u1' } },
        { ...plain, user: { id: 'u1' } },
        { ...hostile, user: { id: 'u2' } },
      ]) {
        const r = await sendError(url, key, body);
        assert.equal(r.status, 202, JSON.stringify(r.body));
      }
      titles = { hostile: `Error: ${hostile.message}`, plain: `TypeError: ${plain.message}` };

      const issuesPath = `/projects/${encodeURIComponent(projectId)}/issues`;
      const deadline = Date.now() + 20_000;
      let rows: { title: string; cells: string[] }[] = [];
      for (;;) {
        const res = await page.goto(issuesPath);
        assert.equal(res?.status(), 200);
        rows = await page.locator('table.issues tbody tr').evaluateAll((trs) =>
          trs.map((tr) => ({
            title: tr.querySelector('.issue-title')?.textContent ?? '',
            cells: [...tr.querySelectorAll('td.num')].map((td) => td.textContent ?? ''),
          })),
        );
        const total = rows.reduce((n, r) => n + Number(r.cells[0] ?? 0), 0);
        if (rows.length === 2 && total === 3) break;
        if (Date.now() > deadline) assert.fail(`issues never settled: ${JSON.stringify(rows)}`);
        await new Promise((r) => setTimeout(r, 250));
      }
      const byTitle = new Map(rows.map((r) => [r.title, r.cells]));
      assert.deepEqual(byTitle.get(titles.hostile), ['2', '2'], JSON.stringify(rows));
      assert.deepEqual(byTitle.get(titles.plain), ['1', '1'], JSON.stringify(rows));

      // The hostile title is text: visible verbatim, never parsed into an element.
      const text = await page.locator('body').innerText();
      assert.ok(text.includes(HOSTILE), 'the raw markup is shown as text');
      assert.equal(await page.locator('img[src="x"]').count(), 0);
      assert.equal(await page.locator('table.issues img').count(), 0);
      await page.waitForLoadState('load');
      assert.deepEqual(dialogs, []);
    });

    test('sign out, the issues page then redirects to /login; signing in returns to it', async () => {
      const { page } = owner;
      const issuesPath = `/projects/${encodeURIComponent(projectId)}/issues`;
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL((u) => u.pathname === '/login');

      const res = await page.goto(issuesPath);
      assert.equal(new URL(page.url()).pathname, '/login');
      assert.equal(new URL(page.url()).searchParams.get('redirectTo'), issuesPath);
      assert.equal(res?.request().redirectedFrom()?.url(), `${url}${issuesPath}`);
      assert.ok(!(await page.locator('body').innerText()).includes(titles.plain));

      await signIn(page, owner.email);
      await page.waitForURL((u) => u.pathname === issuesPath);
      await page.locator('.issue-title', { hasText: titles.plain }).waitFor();
      await page.locator('.issue-title', { hasText: HOSTILE }).waitFor();
      assert.equal(await page.locator('table.issues tbody tr').count(), 2);
      assert.deepEqual(dialogs, []);
    });

    test("another user cannot reach the first user's project", async () => {
      const other = await newPage();
      try {
        const { page } = other;
        await signUp(page, newEmail(), `Rival ${mode}`);
        for (const path of [`/projects/${encodeURIComponent(projectId)}`, `/projects/${encodeURIComponent(projectId)}/issues`]) {
          const res = await page.goto(path);
          assert.equal(res?.status(), 404, path);
          await page.getByRole('heading', { name: 'Not found' }).waitFor();
          const text = await page.locator('body').innerText();
          assert.ok(!text.includes(titles.plain) && !text.includes(HOSTILE), `no issue titles leak on ${path}`);
          assert.ok(!text.includes(dsn), `no DSN leaks on ${path}`);
        }
        // The same answer over the client-side data request Remix makes when navigating.
        const data = await page.request.get(`/projects/${encodeURIComponent(projectId)}/issues.data`);
        const body = await data.text();
        assert.ok(!body.includes(titles.plain) && !body.includes('x is undefined'), 'no titles in the .data response');
      } finally {
        await other.context.close().catch(() => {});
      }
    });
  });
}
