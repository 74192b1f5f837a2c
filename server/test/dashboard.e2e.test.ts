import { setOrganizationPlan } from '@tracker/core';
import { CHROMIUM_ARGS } from '@tracker/core/testing';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { Tracker } from '../src';
import { chromeStack, createTestEnv, MODES, sendError, startTracker, waitFor, type TestEnv } from './helpers';

// The dashboard through a real browser against a real Tracker with every role on one port:
// sign-up → project → DSN → ingest → issues page, sessions, tenant isolation, the mount
// (redirects, immutable assets, /healthz not swallowed by the catch-all), and the first-error
// flow with the built @tracker/browser in a real page of another origin: the error it reports
// is opened and resolved, a release is registered with an upload token, and the same error
// thrown by the page's next release shows as a regression.

const PASSWORD = 'correct horse battery staple';
const HOSTILE = '<img src=x onerror=alert(1)>';
const STEP_TIMEOUT_MS = 10_000;
/** The built browser SDK, as a site loads it from a CDN (turbo builds it before the server's tests). */
const BROWSER_BUNDLE = join(dirname(require.resolve('@tracker/browser/package.json')), 'dist', 'tracker.min.js');
/** What the shop page's bug throws (a real TypeError from Chromium, with Chromium's own stack). */
const SHOP_ERROR = 'TypeError: cart.total is not a function';

/**
 * The shop's page: the SDK from its own file, `init` with the DSN and the deployed release, and
 * the app's script, the same file in every release, so its frames (and the grouping key) are too.
 */
function shopPage(dsn: string, release: string): string {
  const init = { dsn, release, environment: 'production', vitals: false };
  return `<!doctype html><html><head><meta charset="utf-8"><title>Shop</title>
<script src="/tracker.min.js"></script>
<script>Tracker.init(${JSON.stringify(init)});</script>
</head><body><button id="pay">Pay</button><script src="/shop.js"></script></body></html>`;
}

const SHOP_JS = `function applyCoupon(cart) {
  return cart.total() * 0.9;
}
document.getElementById('pay').addEventListener('click', function payNow() {
  applyCoupon({});
});
`;

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
    let shopIssuePath: string;
    // The shop: a site on its own loopback port (another origin than Tracker's), serving the page
    // for the release given in `?release=`, the SDK bundle and the app's script.
    let site: Server | undefined;
    let siteOrigin: string;

    before(async () => {
      env = await createTestEnv(mode);
      tracker = await startTracker(env, { roles: ['ingest', 'worker', 'api', 'web'] });
      url = tracker.url;
      browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
      site = createServer((req, res) => {
        const u = new URL(req.url ?? '/', 'http://site');
        if (u.pathname === '/tracker.min.js')
          return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(readFileSync(BROWSER_BUNDLE));
        if (u.pathname === '/shop.js')
          return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(SHOP_JS);
        if (u.pathname === '/shop.html')
          return void res
            .writeHead(200, { 'content-type': 'text/html' })
            .end(shopPage(dsn, u.searchParams.get('release') ?? ''));
        res.writeHead(404).end();
      });
      await new Promise<void>((done) => site!.listen(0, '127.0.0.1', done));
      siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    });
    after(async () => {
      // Each step guarded on its own so one failure does not leak the rest.
      site?.closeAllConnections();
      await new Promise((done) => (site ? site.close(done) : done(undefined)));
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
      assert.match(dsn, /^http:\/\/et_[0-9a-f]{32}@localhost:\d+\/[1-9]\d*$/);
      await page.getByRole('heading', { name: 'Waiting for the first event' }).waitFor();
    });

    test('errors sent with that DSN show up as issues, event text rendered as text', async () => {
      const { page } = owner;
      const key = new URL(dsn).username;
      const hostile = {
        type: 'Error',
        message: `bad input ${HOSTILE}`,
        environment: 'production',
        stack: chromeStack('renderName', 7),
      };
      const plain = {
        type: 'TypeError',
        message: 'x is undefined',
        environment: 'production',
        stack: chromeStack('loadUser', 10),
      };
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
        for (const path of [
          `/projects/${encodeURIComponent(projectId)}`,
          `/projects/${encodeURIComponent(projectId)}/issues`,
        ]) {
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

    /**
     * Opens the shop at `release` in a browser context of its own, clicks Pay, and waits for the
     * SDK's report to be accepted. The error is uncaught: the page sees it too, and nothing else.
     */
    async function throwInShop(release: string): Promise<void> {
      const context = await browser!.newContext();
      try {
        const page = await context.newPage();
        const pageErrors: string[] = [];
        page.on('pageerror', (error) => pageErrors.push(`${error.name}: ${error.message}`));
        await page.goto(`${siteOrigin}/shop.html?release=${encodeURIComponent(release)}`);
        const report = page.waitForResponse(
          (r) => r.url().endsWith('/ingest/error') && r.request().method() === 'POST',
          { timeout: STEP_TIMEOUT_MS },
        );
        await page.click('#pay');
        assert.equal((await report).status(), 202, 'the SDK report was accepted');
        assert.deepEqual(pageErrors, [SHOP_ERROR], 'the error stays uncaught, and the SDK added none');
      } finally {
        await context.close().catch(() => {});
      }
    }

    /** The issue page's status line and event count, as shown. */
    async function issueState(page: Page) {
      await page.goto(shopIssuePath);
      return {
        status: (await page.locator('.status-line .status').innerText()).trim(),
        events: (
          await page
            .locator('dt', { hasText: /^Events$/ })
            .locator('xpath=following-sibling::dd[1]')
            .innerText()
        ).trim(),
      };
    }

    test('an error thrown in a real page with @tracker/browser appears; open it, resolve it', async () => {
      const { page } = owner;
      assert.notEqual(new URL(dsn).origin, siteOrigin, 'the shop and Tracker are different origins');
      await throwInShop('shop@1.0.0');

      const issuesPath = `/projects/${encodeURIComponent(projectId)}/issues`;
      await waitFor(
        'the shop error on the issues page',
        async () => {
          await page.goto(issuesPath);
          return (await page.locator('.issue-title', { hasText: SHOP_ERROR }).count()) === 1;
        },
        20_000,
      );
      await page.locator('.issue-title', { hasText: SHOP_ERROR }).click();
      await page.waitForURL((u) => u.pathname.startsWith(`${issuesPath}/`));
      shopIssuePath = new URL(page.url()).pathname;
      await page.locator('#issue-title', { hasText: SHOP_ERROR }).waitFor();
      // Chromium's own stack, parsed: the named functions of the shop's script, innermost first
      // (Chromium names a listener after the element it runs on).
      const functions = await page.locator('.frame-function').allInnerTexts();
      assert.deepEqual(functions, ['applyCoupon', 'HTMLButtonElement.payNow']);
      assert.ok((await page.locator('main').innerText()).includes('shop@1.0.0'), 'the release the SDK sent');

      await page.getByRole('button', { name: 'Resolve', exact: true }).click();
      await page.locator('.status-resolved').waitFor();
      assert.deepEqual(await issueState(page), { status: 'Resolved', events: '1' });
      assert.deepEqual(dialogs, []);
    });

    test('a release registered with an upload token; the same error from that later release is a regression', async () => {
      const { page } = owner;
      // Registering releases needs release health (Pro); the upload token comes from Settings.
      const [org] = await tracker!.db.ds.query(
        'SELECT o.slug FROM organizations o JOIN projects p ON p.organization_id = o.id WHERE p.id = $1',
        [projectId],
      );
      await setOrganizationPlan(tracker!.db.ds, org.slug, 'pro');
      await page.goto(`/projects/${encodeURIComponent(projectId)}/settings`);
      const uploadSection = page.getByRole('region', { name: 'Upload tokens' });
      await uploadSection.getByLabel('Token name').fill('deploy');
      await uploadSection.getByRole('button', { name: 'Create upload token' }).click();
      const uploadToken = await page.locator('#secret-value').inputValue();
      assert.match(uploadToken, /^etu_/);
      const registered = await fetch(`${url}/ingest/release`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${uploadToken}` },
        body: JSON.stringify({ version: 'shop@1.1.0', environment: 'production' }),
      });
      assert.equal(registered.status, 200, await registered.text());

      // Not a regression: the same error from a tab still on the old release, which was never
      // registered (docs/releases-and-lifecycle.md), is counted and the issue stays resolved.
      await throwInShop('shop@1.0.0');
      await waitFor('the second event, counted', async () => (await issueState(page)).events === '2');
      assert.equal((await issueState(page)).status, 'Resolved');
      assert.equal(await page.locator('.status-line .badge', { hasText: 'Regression' }).count(), 0);

      await throwInShop('shop@1.1.0');
      await waitFor('the regression', async () => (await issueState(page)).events === '3');
      const state = await issueState(page);
      assert.equal(state.status, 'Open', JSON.stringify(state));
      await page.locator('.status-line .badge', { hasText: 'Regression' }).waitFor();
      await page.goto(`/projects/${encodeURIComponent(projectId)}/issues`);
      await page.locator('tr', { hasText: SHOP_ERROR }).locator('.badge', { hasText: 'Regression' }).waitFor();
      assert.deepEqual(dialogs, []);
    });
  });
}
