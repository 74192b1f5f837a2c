// Issue 31 §3: every release row of the Releases page links to the release's own page, with the
// issues new, regressed and resolved in it, its deploys per environment with health, and its
// source maps. Embedded runtime, the built server in its own process as `npm start` runs it, new
// organizations on Pro. axe-core and screenshots at 1280 and 390 px.
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@tracker/core/testing';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { copyFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startChildServer, type ChildServer } from './child-server';
import { watchedPages } from './dashboard-browser';
import { gqlOk, sendError, signUpWithProject, waitFor } from './helpers';
import { checkPage, WALK_ARTIFACTS } from './page-checks';
import { sentryApi } from './sentry-api-helpers';

const PASSWORD = 'correct horse battery';
/** `@`, `/` and `+`: the characters a version in a URL must survive. */
const V = 'shop@2.0/rc+1';
const MAP = JSON.stringify({ version: 3, file: 'main.js', sources: ['src/cart.ts'], names: [], mappings: 'AAAA' });
const ISSUES = `query($p: ID!) { issues(projectId: $p, first: 20) { nodes { id title status isRegression } } }`;

let dir: string;
let server: ChildServer;
let browser: Browser | undefined;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tracker-release-detail-'));
  server = await startChildServer({ TRACKER_DATA_DIR: dir, TRACKER_DEFAULT_PLAN: 'pro' }, 'ingest,worker,api,web', {
    built: true,
    startTimeoutMs: 120_000,
  });
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, timeout: 30_000 });
});
after(async () => {
  await browser?.close().catch(() => undefined);
  await server?.kill();
  await rm(dir, { recursive: true, force: true });
});

const { newPage, assertInert } = watchedPages(
  () => browser!,
  () => server.url,
);

type Account = Awaited<ReturnType<typeof signUpWithProject>>;

async function post(path: string, token: string, body: unknown): Promise<number> {
  const r = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  await r.text();
  return r.status;
}

async function sendAndWait(a: Account, title: string, release: string, environment = 'production') {
  const r = await sendError(server.url, a.key, {
    type: 'Error',
    message: title,
    environment,
    release,
    eventId: randomUUID(),
  });
  assert.equal(r.status, 202);
  return waitFor(
    `issue ${title}`,
    async () => {
      const issues = (await gqlOk(server.url, ISSUES, { p: a.project.id }, a.token)).issues.nodes;
      return issues.find((i: { title: string }) => i.title === `Error: ${title}`) ?? null;
    },
    60_000,
  );
}

const resolve = (a: Account, id: string) =>
  gqlOk(server.url, `mutation($id: ID!) { resolveIssue(id: $id) { status } }`, { id }, a.token);

async function signIn(page: Page, email: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: /sign in|log in/i }).click();
  await page.waitForURL((u) => u.pathname !== '/login');
}

test('a release row opens the release page with its issues, deploys, health and source maps', async () => {
  const a = await signUpWithProject(server.url, 'Shop');
  const upload = (
    await gqlOk(
      server.url,
      `mutation($p: ID!) { createUploadToken(projectId: $p, name: "CI") { token } }`,
      { p: a.project.id },
      a.token,
    )
  ).createUploadToken.token as string;
  assert.equal(await post('/ingest/release', upload, { version: '1.0', environment: 'production' }), 200);
  const fixed = await sendAndWait(a, 'cart total is NaN', '1.0');
  await resolve(a, fixed.id); // resolved in 1.0
  assert.equal(await post('/ingest/release', upload, { version: V, environment: 'production' }), 200);
  // sentry-cli's `deploys new -e staging`: the newest deploy of the project.
  const deploy = await sentryApi(
    server.url,
    'POST',
    `/api/0/organizations/${a.organization.slug}/releases/${encodeURIComponent(V)}/deploys/`,
    upload,
    { environment: 'staging' },
  );
  assert.equal(deploy.status, 201, deploy.text);
  const fresh = await sendAndWait(a, 'checkout button missing', V);
  const done = await sendAndWait(a, 'coupon rejected', V, 'staging');
  await resolve(a, done.id); // resolved in V (staging, the newest deploy)
  // The old issue comes back with V: a regression.
  assert.equal(
    (
      await sendError(server.url, a.key, {
        type: 'Error',
        message: 'cart total is NaN',
        environment: 'production',
        release: V,
      })
    ).status,
    202,
  );
  await waitFor(
    'the regression',
    async () =>
      (await gqlOk(server.url, ISSUES, { p: a.project.id }, a.token)).issues.nodes.some(
        (i: { id: string; isRegression: boolean }) => i.id === fixed.id && i.isRegression,
      ),
    60_000,
  );
  assert.equal(
    await post('/ingest/sourcemaps', upload, { release: V, files: [{ filename: 'main.js.map', map: MAP }] }),
    200,
  );

  const { page, context } = await newPage();
  try {
    await signIn(page, a.email);
    await page.goto(`/projects/${a.project.id}/releases`);
    await page.getByRole('region', { name: 'Releases in production' }).getByRole('link', { name: V }).click();
    await page.waitForURL((u) => u.pathname.endsWith(`/releases/${encodeURIComponent(V)}`));
    await page.getByRole('heading', { name: `Release ${V}` }).waitFor();

    const section = (name: RegExp) => page.locator('section.card').filter({ has: page.getByRole('heading', { name }) });
    const rows = async (name: RegExp) => section(name).locator('tbody tr').allInnerTexts();
    const newRows = await rows(/^New in this release/);
    assert.equal(newRows.length, 2, newRows.join('\n'));
    assert.ok(newRows.some((r) => r.includes('Error: checkout button missing') && r.includes('production')));
    assert.ok(newRows.some((r) => r.includes('Error: coupon rejected') && r.includes('staging')));
    const regressed = await rows(/^Regressed in this release/);
    assert.equal(regressed.length, 1);
    assert.match(regressed[0], /Error: cart total is NaN[\s\S]*open[\s\S]*production/);
    const resolved = await rows(/^Resolved in this release/);
    assert.equal(resolved.length, 1);
    assert.match(resolved[0], /Error: coupon rejected[\s\S]*resolved[\s\S]*staging/);
    // Deploys: staging (the sentry-cli deploy) first, each with the health figures of a Pro plan.
    const deploys = await rows(/^Deploys and health/);
    assert.deepEqual(
      deploys.map((r) => r.split(/[\t\n]/)[0].trim()),
      ['staging', 'production'],
    );
    assert.equal(
      await section(/^Deploys and health/)
        .locator('td.health-cell')
        .count(),
      8,
    );
    const maps = await rows(/^Source maps/);
    assert.equal(maps.length, 1);
    assert.match(maps[0], new RegExp(`main\\.js\\.map\\s+${Buffer.byteLength(MAP)} B`));
    // An issue link leads to the issue.
    await section(/^New in this release/)
      .getByRole('link', { name: 'Error: checkout button missing' })
      .click();
    await page.waitForURL((u) => u.pathname.endsWith(`/issues/${fresh.id}`));
    await page.goBack();
    await page.getByRole('heading', { name: `Release ${V}` }).waitFor();

    await checkPage(page, 'release-detail');
    for (const label of ['desktop', 'mobile']) {
      copyFileSync(
        join(WALK_ARTIFACTS, `release-detail-${label}.png`),
        join(__dirname, `../../docs/screenshots/release-detail-${label}.png`),
      );
    }

    // A version the project never registered: a clear 404, and the way back.
    const missing = await page.goto(`/projects/${a.project.id}/releases/${encodeURIComponent('9.9/9')}`);
    assert.equal(missing?.status(), 404);
    await page.getByText('No release 9.9/9 in this project.').waitFor();
    await page.getByRole('link', { name: 'Back to Releases' }).waitFor();
    await checkPage(page, 'release-detail-missing');
    assertInert('release detail');
  } finally {
    await context.close();
  }

  // Another organization's member gets the same answer as for a project that does not exist.
  const b = await signUpWithProject(server.url, 'Other');
  const other = await newPage();
  try {
    await signIn(other.page, b.email);
    const theirs = await other.page.goto(`/projects/${a.project.id}/releases/${encodeURIComponent(V)}`);
    assert.equal(theirs?.status(), 404);
    const text = await other.page.locator('main').innerText();
    assert.ok(!text.includes(V) && !text.includes('checkout button missing'), text);
    const none = await other.page.goto(`/projects/${randomUUID()}/releases/${encodeURIComponent(V)}`);
    assert.equal(none?.status(), 404);
    assert.equal(await other.page.locator('main').innerText(), text);
  } finally {
    await other.context.close();
  }
});
