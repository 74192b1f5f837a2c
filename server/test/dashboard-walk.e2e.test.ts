import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@tracker/core/testing';
import { registerRelease, setOrganizationPlan } from '@tracker/core';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { Tracker } from '../src';
import { watchedPages } from './dashboard-browser';
import { createTestEnv, gqlOk, sendError, signUpWithProject, startTracker, waitFor, type TestEnv } from './helpers';
import { checkPage } from './page-checks';

// Every dashboard page, with realistic data, through Chromium on one runtime (PostgreSQL +
// Redis): each page at 1280 and 390 px passes the page checks (unique ids, nothing wider than
// the viewport, every tab reachable on a phone, no critical or serious axe-core violation) and is
// screenshotted to web/test-artifacts/walk/. Beside them, what the walkthrough of issue 19 found:
// secrets and the DSN where the eye is, with copy buttons; release health below the minimum
// sample; the Free plan's texts; Billing without Stripe; source paths as written; the issue list
// and page refreshing themselves; the chart ranges; the Logs filter bar on one line.

const PASSWORD = 'correct horse battery'; // signUpWithProject's
const HOUR = 3_600_000;
const LONG_URL =
  'https://shop.example/checkout/payment/confirm-order/with-a-rather-long-path/segment?utm_source=newsletter&utm_medium=email&utm_campaign=black-friday-2026&item=discontinued-mug';
/** A hand-written map as webpack writes them: the source's path is `webpack:///./src/app/cart.ts`. */
const CART_MAP = JSON.stringify({
  version: 3,
  file: 'app.min.js',
  sources: ['webpack:///./src/app/cart.ts'],
  names: ['addToCart'],
  mappings: 'AAAAA',
  sourcesContent: ['export function addToCart(item: Item) {\n  throw new Error(`out of stock: ${item.sku}`);\n}\n'],
});

describe('every dashboard page, checked and screenshotted (postgres+redis)', () => {
  let env: TestEnv | undefined;
  let tracker: Tracker | undefined;
  let browser: Browser | undefined;
  let url: string;
  let pro: Awaited<ReturnType<typeof signUpWithProject>>;
  let owner: { context: BrowserContext; page: Page };
  let base: string;
  let cartIssuePath: string;
  let invitationPath: string;

  const { newPage, assertInert } = watchedPages(
    () => browser!,
    () => url,
  );

  async function post(path: string, body: unknown, authorization: string) {
    const res = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization },
      body: JSON.stringify(body),
    });
    assert.ok(res.status < 300, `${path}: ${res.status} ${await res.text()}`);
    return res;
  }

  async function signIn(email: string): Promise<{ context: BrowserContext; page: Page }> {
    const session = await newPage();
    await session.page.goto('/login');
    await session.page.getByLabel('Email').fill(email);
    await session.page.getByLabel('Password').fill(PASSWORD);
    await session.page.getByRole('button', { name: /sign in|log in/i }).click();
    await session.page.waitForURL((u) => u.pathname !== '/login');
    return session;
  }

  /** Realistic data on the Pro account: releases with health, a source-mapped issue, logs, vitals, feedback. */
  async function seed() {
    pro = await signUpWithProject(url, 'Storefront');
    base = `/projects/${encodeURIComponent(pro.project.id)}`;
    const projectId = pro.project.id;
    await setOrganizationPlan(tracker!.db.ds, pro.organization.slug, 'pro');
    const now = Date.now();
    // 1.0.0 ran for three hours with 25 events; 1.1.0 was deployed ten minutes ago and has seen 2.
    await registerRelease(tracker!.db.ds, { projectId, version: '1.0.0', at: new Date(now - 3 * HOUR) });
    await registerRelease(tracker!.db.ds, { projectId, version: '1.1.0', at: new Date(now - 10 * 60_000) });
    const upload = await gqlOk(
      url,
      `mutation($p: ID!) { createUploadToken(projectId: $p, name: "deploy") { token } }`,
      { p: projectId },
      pro.token,
    );
    for (const release of ['1.0.0', '1.1.0'])
      await post(
        '/ingest/sourcemaps',
        { release, files: [{ filename: 'app.min.js.map', map: CART_MAP }] },
        `Bearer ${upload.createUploadToken.token}`,
      );
    const cartStack = 'Error: out of stock: mug-42\n    at a (https://shop.example/static/app.min.js:1:1)';
    for (let i = 0; i < 25; i++) {
      const r = await sendError(url, pro.key, {
        type: 'Error',
        message: 'out of stock: mug-42',
        environment: 'production',
        release: '1.0.0',
        stack: cartStack,
        timestamp: new Date(now - 2 * HOUR + i * 60_000).toISOString(),
        user: { id: `u${i % 7}`, email: `shopper${i % 7}@example.com` },
        tags: { 'browser.name': i % 2 ? 'Chrome' : 'Firefox', locale: 'en-GB' },
        url: LONG_URL,
      });
      assert.equal(r.status, 202, JSON.stringify(r.body));
    }
    const feedbackEvent = randomUUID();
    for (const [i, body] of [
      { type: 'TypeError', message: "Cannot read properties of undefined (reading 'price')", eventId: feedbackEvent },
      { type: 'RangeError', message: 'Invalid array length' },
    ].entries()) {
      const r = await sendError(url, pro.key, {
        environment: 'production',
        release: '1.1.0',
        stack: `${body.type}: ${body.message}\n    at loadCart (https://shop.example/static/checkout.js:${10 + i}:17)`,
        user: { id: 'u1' },
        ...body,
      });
      assert.equal(r.status, 202, JSON.stringify(r.body));
    }
    for (const level of ['debug', 'info', 'warn', 'error'])
      await post(
        '/ingest/log',
        {
          level,
          message: `checkout ${level}: order ${randomUUID()} took 412 ms`,
          environment: 'production',
          release: '1.1.0',
          context: { orderId: 'o-1', path: LONG_URL },
        },
        `DSN ${pro.key}`,
      );
    for (const [i, page] of [
      '/',
      '/checkout',
      '/cart',
      LONG_URL.split('?')[0].replace('https://shop.example', ''),
    ].entries())
      await post(
        '/ingest/vitals',
        {
          url: `https://shop.example${page}`,
          metrics: {
            LCP: 1800 + i * 700,
            INP: 120 + i * 90,
            CLS: 0.02 * (i + 1),
            FCP: 900 + i * 300,
            TTFB: 200 + i * 80,
          },
          environment: 'production',
          release: '1.1.0',
        },
        `DSN ${pro.key}`,
      );
    await post(
      '/ingest/feedback',
      { message: 'The price vanished when I opened the cart.', email: 'shopper1@example.com', eventId: feedbackEvent },
      `DSN ${pro.key}`,
    );
    await gqlOk(
      url,
      `mutation($p: ID!) { createAlertRule(projectId: $p, kind: NEW_ISSUE, channel: { type: WEBHOOK, url: "https://hooks.example.com/oncall" }) { id } }`,
      { p: projectId },
      pro.token,
    );
    const invited = await gqlOk(
      url,
      `mutation($o: ID!) { inviteMember(organizationId: $o, email: "new-colleague@example.com") { link } }`,
      { o: pro.organization.id },
      pro.token,
    );
    invitationPath = new URL(invited.inviteMember.link).pathname;
    await waitFor(
      'three issues and 27 events',
      async () => {
        const [row] = await tracker!.db.ds.query(
          'SELECT count(*)::int AS issues, coalesce(sum(event_count), 0)::int AS events FROM issues WHERE project_id = $1',
          [projectId],
        );
        return row.issues === 3 && row.events === 27;
      },
      30_000,
    );
    const [cart] = await tracker!.db.ds.query(
      `SELECT id FROM issues WHERE project_id = $1 AND title LIKE 'Error: out of stock%'`,
      [projectId],
    );
    cartIssuePath = `${base}/issues/${cart.id}`;
  }

  before(async () => {
    env = await createTestEnv('postgres+redis');
    tracker = await startTracker(env, { roles: ['ingest', 'worker', 'api', 'web'] });
    url = tracker.url;
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    await seed();
    owner = await signIn(pro.email);
  });
  after(async () => {
    await browser?.close().catch(() => {});
    await tracker?.close().catch(() => {});
    await env?.cleanup().catch(() => {});
  });

  test('signed-out pages pass the page checks', async () => {
    const visitor = await newPage();
    try {
      for (const [name, path] of [
        ['login', '/login'],
        ['signup', '/signup'],
        ['invitation', invitationPath],
      ]) {
        await visitor.page.goto(path);
        await visitor.page.locator('main').waitFor();
        await checkPage(visitor.page, name);
      }
    } finally {
      await visitor.context.close();
    }
    assertInert('signed-out pages');
  });

  test('every project page with data passes the page checks', async () => {
    const { page } = owner;
    for (const [name, path, ready] of [
      ['issues', `${base}/issues`, 'table.issues tbody tr'],
      ['issues-resolved', `${base}/issues?status=resolved`, 'main'],
      ['issue', cartIssuePath, '.frames'],
      ['issue-7d', `${cartIssuePath}?range=7d`, '.frames'],
      ['releases', `${base}/releases`, 'td.health-cell'],
      ['performance', `${base}/performance`, 'main section.card'],
      ['logs', `${base}/logs`, 'main section.card'],
      ['feedback', `${base}/feedback`, 'main section.card'],
      ['monitors', `${base}/monitors`, 'main section.card'],
      ['alerts', `${base}/alerts`, 'main section.card'],
      ['settings', `${base}/settings`, 'main section.card'],
      ['billing', `${base}/billing`, 'main section.card'],
      ['setup', base, '#project-dsn'],
      ['new-project', '/projects/new', 'main form'],
      ['audit-log', `/orgs/${encodeURIComponent(pro.organization.slug)}/audit`, 'table.audit-table tbody tr'],
      ['account', '/account', 'main section.card'],
      ['org-settings', `/orgs/${pro.organization.slug}/settings`, 'main section.card'],
    ] as const) {
      await page.goto(path);
      await page.locator(ready).first().waitFor();
      await checkPage(page, name);
    }
    assertInert('project pages');
  });

  test('source paths read as the developer wrote them on the issue page', async () => {
    const { page } = owner;
    await page.goto(cartIssuePath);
    const locations = await page.locator('.frame-location').allInnerTexts();
    assert.ok(
      locations.some((l) => l.startsWith('src/app/cart.ts:')),
      `locations: ${locations}`,
    );
    assert.ok(!locations.some((l) => /webpack:|\.\.\//.test(l)), `locations: ${locations}`);
  });

  test('at 390 px a long URL wraps at its separators, not inside a word', async () => {
    const { page } = owner;
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.goto(cartIssuePath);
      const link = page.locator('#event-detail a.url-text');
      await link.waitFor();
      // Each piece between two <wbr> is its own text node: none of them may be split over lines.
      const pieces = await link.evaluate((el: any) =>
        [...el.childNodes]
          .filter((n: any) => n.nodeType === 3)
          .map((n: any) => {
            const range = el.ownerDocument.createRange();
            range.selectNodeContents(n);
            return [n.textContent as string, range.getClientRects().length as number] as const;
          }),
      );
      assert.ok(pieces.length > 10, JSON.stringify(pieces));
      assert.deepEqual(
        pieces.filter(([, lines]) => lines !== 1),
        [],
        'a piece split over lines',
      );
      const lines = await link.evaluate((el: any) => el.getClientRects().length as number);
      assert.ok(lines > 1, 'the URL does wrap at this width');
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  test('release health: a release below the minimum sample shows raw counts and "not enough data yet"', async () => {
    const { page } = owner;
    await page.goto(`${base}/releases`);
    const production = page.getByRole('region', { name: 'Releases in production' });
    const fresh = (await production.locator('tr', { hasText: '1.1.0' }).locator('td.health-cell').allInnerTexts()).map(
      (c) => c.replace(/\s+/g, ' ').trim(),
    );
    assert.equal(fresh.length, 4);
    assert.equal(fresh[3], '2 events not enough data yet');
    assert.ok(!fresh.some((c) => /%|vs 1\.0\.0|\d\/h/.test(c)), `no rate or trend: ${JSON.stringify(fresh)}`);
    // 1.0.0 ran three hours with 25 events: a rate.
    const settled = await production.locator('tr', { hasText: '1.0.0' }).locator('td.health-cell').last().innerText();
    assert.match(settled.trim(), /^\d+(\.\d)?/);
    assert.doesNotMatch(settled, /not enough data/);
  });

  test('the issue list and the issue page refresh themselves without a reload', async () => {
    const { page } = owner;
    let documents = 0;
    const onNavigated = (frame: { parentFrame(): unknown }) => {
      if (!frame.parentFrame()) documents++;
    };
    await page.goto(`${base}/issues`);
    await page.locator('table.issues tbody tr').first().waitFor();
    page.on('framenavigated', onNavigated);
    const r = await sendError(url, pro.key, {
      type: 'SyntaxError',
      message: 'Unexpected token < in JSON at position 0',
      environment: 'production',
      stack: 'SyntaxError: Unexpected token <\n    at parse (https://shop.example/static/api.js:3:9)',
    });
    assert.equal(r.status, 202);
    await page.getByRole('link', { name: /SyntaxError: Unexpected token/ }).waitFor({ timeout: 30_000 });

    page.off('framenavigated', onNavigated);
    await page.goto(cartIssuePath);
    const count = async () => (await page.locator('#events-heading').innerText()).replace(/\D/g, '');
    const before = Number(await count());
    page.on('framenavigated', onNavigated);
    await sendError(url, pro.key, {
      type: 'Error',
      message: 'out of stock: mug-42',
      environment: 'production',
      release: '1.0.0',
      stack: 'Error: out of stock: mug-42\n    at a (https://shop.example/static/app.min.js:1:1)',
    });
    await waitFor('the new event counted on the issue page', async () => Number(await count()) === before + 1, 30_000);
    page.off('framenavigated', onNavigated);
    assert.equal(documents, 0, 'no page load: Remix revalidation only');
    assertInert('auto refresh');
  });

  test('the issue chart offers 1 h, 24 h, 7 d and 30 d', async () => {
    const { page } = owner;
    await page.goto(cartIssuePath);
    const ranges = page.getByRole('navigation', { name: 'Chart range' });
    assert.deepEqual(await ranges.getByRole('link').allInnerTexts(), ['1 h', '24 h', '7 d', '30 d']);
    assert.match((await page.locator('svg.events-chart').getAttribute('aria-label')) ?? '', /in the last 24 hours/);
    for (const [label, words, param] of [
      ['1 h', 'the last hour', '1h'],
      ['7 d', 'the last 7 days', '7d'],
      ['30 d', 'the last 30 days', '30d'],
    ]) {
      await ranges.getByRole('link', { name: label }).click();
      await page.waitForURL((u) => u.searchParams.get('range') === param);
      await waitFor(`the ${label} chart`, async () =>
        ((await page.locator('svg.events-chart').getAttribute('aria-label')) ?? '').includes(`in ${words}`),
      );
    }
    // The 30-day chart holds all of the issue's events: 25 seeded, one sent by the refresh test.
    assert.match(
      (await page.locator('svg.events-chart').getAttribute('aria-label')) ?? '',
      /^26 events in the last 30 days/,
    );
  });

  test('the Logs filter bar lays out on one line at 1280 px', async () => {
    const { page } = owner;
    await page.goto(`${base}/logs`);
    // One line: every control's vertical extent overlaps every other's (they are bottom-aligned),
    // and the bar is no taller than one row of labelled inputs.
    const boxes = (await page
      .locator('main form[aria-label="Search logs"] > *:visible')
      .evaluateAll((els) =>
        els.map((e) => [e.getBoundingClientRect().top, e.getBoundingClientRect().bottom]),
      )) as Array<[number, number]>;
    assert.ok(boxes.length >= 5, `filter controls: ${JSON.stringify(boxes)}`);
    const lowestTop = Math.max(...boxes.map(([top]) => top));
    const highestBottom = Math.min(...boxes.map(([, bottom]) => bottom));
    assert.ok(lowestTop < highestBottom, `one line: ${JSON.stringify(boxes)}`);
    const bar = await page.locator('main form[aria-label="Search logs"]').boundingBox();
    assert.ok(bar && bar.height < 110, `bar height ${bar?.height}`);
  });

  test('the DSN and a new secret are shown where the eye is, focused, with copy buttons that copy', async () => {
    const { page, context } = owner;
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url });
    // A new project opens on its setup page with the DSN focused.
    await page.goto('/projects/new');
    await page.getByLabel('Project name').fill('Checkout');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.waitForURL((u) => /^\/projects\/[^/]+$/.test(u.pathname) && u.pathname !== '/projects/new');
    await waitFor(
      'the DSN focused',
      async () => (await page.evaluate('document.activeElement && document.activeElement.id')) === 'project-dsn',
    );
    const dsn = await page.locator('#project-dsn').inputValue();
    await page.getByRole('button', { name: 'Copy DSN' }).click();
    assert.equal(await page.evaluate('navigator.clipboard.readText()'), dsn);
    // Every snippet and install line on the setup page has its copy button.
    const perSnippet = (await page.evaluate(
      `[...document.querySelectorAll('.snippet')].map((s) => [s.querySelectorAll('pre').length, s.querySelectorAll('button.copy-button').length])`,
    )) as Array<[number, number]>;
    assert.ok(perSnippet.length >= 5, JSON.stringify(perSnippet));
    assert.ok(
      perSnippet.every(([blocks, buttons]) => buttons >= blocks),
      `code blocks and copy buttons per snippet: ${JSON.stringify(perSnippet)}`,
    );
    await checkPage(page, 'setup-new-project');

    // A new upload token is focused where it appears, in view, and its copy button copies it.
    await page.goto(`${base}/settings`);
    await page.setViewportSize({ width: 1280, height: 700 });
    const uploads = page.getByRole('region', { name: 'Upload tokens' });
    await uploads.getByLabel('Token name').fill('CI');
    await uploads.getByRole('button', { name: 'Create upload token' }).click();
    await waitFor(
      'the secret focused',
      async () => (await page.evaluate('document.activeElement && document.activeElement.id')) === 'secret-value',
    );
    const secret = await page.locator('#secret-value').inputValue();
    assert.match(secret, /^etu_/);
    const box = await page.locator('#secret-value').boundingBox();
    assert.ok(box && box.y >= 0 && box.y + box.height <= 700, `in view: ${JSON.stringify(box)}`);
    await page.getByRole('button', { name: 'Copy the secret' }).click();
    assert.equal(await page.evaluate('navigator.clipboard.readText()'), secret);
    await page.setViewportSize({ width: 1280, height: 900 });
    await checkPage(page, 'settings-new-secret');
    assertInert('secrets');
  });

  test('on Free without Stripe: no step the plan refuses, and Billing says how an operator changes the plan', async () => {
    const free = await signUpWithProject(url, 'Side project');
    const session = await signIn(free.email);
    await session.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url });
    try {
      const { page } = session;
      const freeBase = `/projects/${encodeURIComponent(free.project.id)}`;
      await page.goto(freeBase);
      await page.locator('#project-dsn').waitFor();
      const setup = await page.locator('main').innerText();
      assert.ok(!setup.includes('/ingest/release'), 'no release registration snippet on Free');
      await page.goto(`${freeBase}/releases`);
      const releases = await page.locator('main').innerText();
      assert.ok(!/Mark one above/.test(releases), 'no "Mark one above" without the form');
      assert.ok(!releases.includes('/ingest/release'), 'no registration by CI on Free');
      await page.getByRole('link', { name: 'Upgrade in Billing' }).waitFor();
      await checkPage(page, 'releases-free');

      await page.goto(`${freeBase}/billing`);
      const command = `npm run tracker -- org:set-plan ${free.organization.slug} pro`;
      await page.getByText(command, { exact: true }).waitFor();
      await page.getByRole('button', { name: 'Copy the command that moves this organization to Pro' }).click();
      assert.equal(await page.evaluate('navigator.clipboard.readText()'), command);
      await checkPage(page, 'billing-free');
    } finally {
      await session.context.close();
    }
    assertInert('free plan');
  });
});
