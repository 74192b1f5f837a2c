import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setOrganizationPlan } from '@tracker/core';
import { CHROMIUM_ARGS, CHROMIUM_PATH, createTempDir, freePort } from '@tracker/core/testing';
import { chromium, type Browser } from 'playwright-core';
import type { Tracker } from '../src';
import { createTestEnv, gqlOk, signUpWithProject, startTracker, waitFor, type TestEnv } from './helpers';

/**
 * `@tracker/next` on a real Next.js 16 App Router app (sdk/next/test/fixtures/app): built once
 * with `next build` (browser source maps on), its maps uploaded by the app's postbuild script
 * (`tracker-upload-sourcemaps`) to a Tracker started here, then served by `next start` and
 * driven over HTTP and from Chromium. Everything is read back from that Tracker.
 */
const APP = resolve(__dirname, '../../sdk/next/test/fixtures/app');
const NEXT_BIN = require.resolve('next/dist/bin/next', { paths: [APP] });
const UPLOADER = resolve(__dirname, '../../sdk/next/bin/tracker-upload-sourcemaps.mjs');
const RELEASE = `next-e2e@${Date.now()}`;
const BUILD_TIMEOUT_MS = 240_000;

const ISSUES = `query($p: ID!) { issues(projectId: $p, first: 100) { nodes { id title type
  latestEvent { eventId message environment release url
    frames { filename function lineno colno inApp minified { filename lineno colno } } } } } }`;

interface Run {
  code: number | null;
  out: string;
}

type Env = Record<string, string | undefined>;

/** The parent's environment without anything that would configure the app or the uploader. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: Env = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^(TRACKER_|NEXT_|VERCEL|NODE_OPTIONS$|NODE_ENV$)/.test(name)) env[name] = value;
  }
  return { ...env, NEXT_TELEMETRY_DISABLED: '1', ...extra } as unknown as NodeJS.ProcessEnv;
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Run> {
  const child = spawn(command, args, { cwd, env });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  return new Promise((done, fail) => {
    child.on('error', fail);
    child.on('close', (code) => done({ code, out }));
  });
}

function filesUnder(dir: string, suffix: string): string[] {
  if (!existsSync(dir)) return [];
  return (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith(suffix)).map((f) => join(dir, f));
}

/** The 1-based line of the first line of `file` containing `text`. */
function lineOf(file: string, text: string): number {
  const index = readFileSync(file, 'utf8')
    .split('\n')
    .findIndex((line) => line.includes(text));
  assert.ok(index >= 0, `${text} in ${file}`);
  return index + 1;
}

describe('@tracker/next on a real Next.js app (next build, postbuild upload, next start)', () => {
  let env: TestEnv;
  let tracker: Tracker;
  let account: Awaited<ReturnType<typeof signUpWithProject>>;
  let dsn: string;
  let app: string;
  let server: ChildProcess | undefined;
  let serverLog = '';
  let browser: Browser;
  let build: Run;
  let skipped: Run & { mapsBefore: number; mapsAfter: number; scriptsBefore: number; scriptsAfter: number };
  let upload: Run & { mapsBefore: number; mapsAfter: number };
  const copy = createTempDir('tracker-next-copy-');

  before(
    async () => {
      env = await createTestEnv('postgres+redis');
      tracker = await startTracker(env);
      account = await signUpWithProject(tracker.url, 'Next app');
      await setOrganizationPlan(tracker.db.ds, account.organization.slug, 'pro');
      const uploadToken: string = (
        await gqlOk(
          tracker.url,
          `mutation($p: ID!) { createUploadToken(projectId: $p, name: "next-ci") { token } }`,
          { p: account.project.id },
          account.token,
        )
      ).createUploadToken.token;
      // The DSN as the dashboard shows it, pointed at the address the test Tracker listens on.
      const parsed = new URL(account.dsn);
      parsed.host = new URL(tracker.url).host;
      dsn = parsed.toString();

      rmSync(join(APP, '.next'), { recursive: true, force: true });
      build = await run(
        process.execPath,
        [NEXT_BIN, 'build'],
        APP,
        cleanEnv({ NODE_ENV: 'production', NEXT_PUBLIC_TRACKER_DSN: dsn, NEXT_PUBLIC_TRACKER_RELEASE: RELEASE }),
      );
      assert.equal(build.code, 0, build.out);

      // The skip path, on a copy of this very build output (a second `next build` would double
      // the test's time): no token, so nothing is sent, and the maps are deleted all the same.
      cpSync(join(APP, '.next'), join(copy.path, '.next'), { recursive: true });
      const mapsBefore = filesUnder(join(copy.path, '.next'), '.js.map').length;
      const scriptsBefore = filesUnder(join(copy.path, '.next'), '.js').length;
      const skip = await run(
        process.execPath,
        [UPLOADER],
        copy.path,
        cleanEnv({ TRACKER_DSN: dsn, NEXT_PUBLIC_TRACKER_RELEASE: RELEASE }),
      );
      skipped = {
        ...skip,
        mapsBefore,
        mapsAfter: filesUnder(join(copy.path, '.next'), '.js.map').length,
        scriptsBefore,
        scriptsAfter: filesUnder(join(copy.path, '.next'), '.js').length,
      };

      // The app's own postbuild script, as `npm run build` would run it after `next build`.
      const uploadBefore = filesUnder(join(APP, '.next'), '.js.map').length;
      const uploaded = await run(
        'npm',
        ['run', 'postbuild:app'],
        APP,
        cleanEnv({ TRACKER_AUTH_TOKEN: uploadToken, TRACKER_DSN: dsn, NEXT_PUBLIC_TRACKER_RELEASE: RELEASE }),
      );
      upload = { ...uploaded, mapsBefore: uploadBefore, mapsAfter: filesUnder(join(APP, '.next'), '.js.map').length };
      assert.equal(upload.code, 0, upload.out);

      const port = await freePort();
      app = `http://127.0.0.1:${port}`;
      server = spawn(process.execPath, [NEXT_BIN, 'start', '-p', String(port), '-H', '127.0.0.1'], {
        cwd: APP,
        env: cleanEnv({ NODE_ENV: 'production', TRACKER_DSN: dsn, NEXT_PUBLIC_TRACKER_RELEASE: RELEASE }),
      });
      server.stdout!.on('data', (d) => (serverLog += d));
      server.stderr!.on('data', (d) => (serverLog += d));
      await waitFor(
        `next start on ${app}\n${serverLog}`,
        async () => (await fetch(app).catch(() => null))?.status === 200,
        60_000,
      );
      browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    },
    { timeout: BUILD_TIMEOUT_MS },
  );

  after(async () => {
    await browser?.close();
    const next = server;
    if (next && next.exitCode === null) {
      const exited = new Promise((r) => next.once('exit', r));
      next.kill('SIGTERM');
      await exited;
    }
    await tracker?.close();
    await env?.cleanup();
    copy.remove();
    rmSync(join(APP, '.next'), { recursive: true, force: true });
  });

  async function issueWith(message: string) {
    return waitFor(`an issue for "${message}"\n${serverLog}`, async () => {
      const r = await gqlOk(tracker.url, ISSUES, { p: account.project.id }, account.token);
      return r.issues.nodes.find((i: any) => i.latestEvent?.message === message);
    });
  }

  /** Tags and context are not in the GraphQL schema; the stored row is read directly. */
  async function storedEvent(message: string) {
    const rows = await tracker.db.ds.query(
      `SELECT event_id, level, environment, release, url, tags, context, "user", sdk FROM events
       WHERE project_id = $1 AND message = $2`,
      [account.project.id, message],
    );
    assert.ok(rows.length >= 1, `a stored event for ${message}`);
    return rows[0];
  }

  const SECRET_HEADERS = {
    cookie: 'session=SECRET-COOKIE-VALUE',
    authorization: 'Bearer SECRET-AUTH-VALUE',
    'x-api-key': 'SECRET-API-KEY',
  };

  test('next build passes with the wrapper typed against Next (instrumentation.ts) and writes browser maps', () => {
    assert.match(build.out, /Compiled successfully/);
    assert.doesNotMatch(build.out, /Node\.js API is used/, 'no Node API warnings: the edge build is the no-op one');
    assert.ok(upload.mapsBefore > 0 && skipped.mapsBefore === upload.mapsBefore);
  });

  test('the postbuild upload sends the maps for the release and removes them from .next', async () => {
    assert.match(upload.out, new RegExp(`uploaded \\d+ source maps for release ${RELEASE.replace(/[.@]/g, '\\$&')}`));
    assert.equal(upload.mapsAfter, 0, 'no map left in .next');
    // A map a browser chunk names is not served any more.
    const chunks = filesUnder(join(APP, '.next/static/chunks'), '.js');
    const named = chunks
      .map((f) => /sourceMappingURL=(\S+)\s*$/.exec(readFileSync(f, 'utf8'))?.[1])
      .find((name) => name && !name.startsWith('data:'));
    assert.ok(named, 'a chunk still names its map (the .js files are unchanged)');
    assert.equal((await fetch(`${app}/_next/static/chunks/${named}`)).status, 404);
  });

  test('the skip path: without a token nothing is uploaded, the maps are deleted, the scripts kept', () => {
    assert.equal(skipped.code, 0, skipped.out);
    assert.match(skipped.out, /skipped the upload of \d+ source maps: TRACKER_AUTH_TOKEN is not set/);
    assert.ok(skipped.mapsBefore > 0);
    assert.equal(skipped.mapsAfter, 0);
    assert.equal(skipped.scriptsAfter, skipped.scriptsBefore);
  });

  test('an error thrown in a server component arrives through onRequestError, with context and no headers', async () => {
    const res = await fetch(`${app}/server-error?token=SECRET-QUERY`, { headers: SECRET_HEADERS });
    assert.equal(res.status, 500);
    const issue = await issueWith('server component boom');
    assert.equal(issue.latestEvent.release, RELEASE);
    assert.equal(issue.latestEvent.environment, 'e2e');
    const row = await storedEvent('server component boom');
    assert.equal(row.context.next.routeType, 'render');
    assert.equal(row.context.next.routePath, '/server-error');
    assert.equal(row.context.next.routerKind, 'App Router');
    assert.match(row.context.next.renderSource, /react-server-components|server-rendering/);
    assert.equal(row.context.next.path, '/server-error');
    assert.equal(row.context.next.method, 'GET');
    assert.equal(row.tags['next.route_type'], 'render');
    assert.equal(row.sdk.name, 'tracker.node');
    assert.doesNotMatch(JSON.stringify(row), /SECRET|cookie|authorization/i);
  });

  test('an error thrown in a route handler arrives through onRequestError, with context and no headers', async () => {
    const res = await fetch(`${app}/api/route-error`, { headers: SECRET_HEADERS });
    assert.equal(res.status, 500);
    await issueWith('route handler boom');
    const row = await storedEvent('route handler boom');
    assert.deepEqual(
      [row.context.next.routeType, row.context.next.routePath, row.context.next.routerKind, row.context.next.path],
      ['route', '/api/route-error', 'App Router', '/api/route-error'],
    );
    assert.equal(row.release, RELEASE);
    assert.doesNotMatch(JSON.stringify(row), /SECRET|cookie|authorization/i);
  });

  test('an error thrown in a server action arrives through onRequestError, with context and no cookies', async () => {
    const context = await browser.newContext();
    try {
      await context.addCookies([{ name: 'session', value: 'SECRET-COOKIE-ACTION', url: app }]);
      const page = await context.newPage();
      await page.goto(`${app}/action-error`, { waitUntil: 'networkidle' });
      await page.click('#submit');
      await issueWith('server action boom');
    } finally {
      await context.close();
    }
    const row = await storedEvent('server action boom');
    assert.deepEqual(
      [row.context.next.routeType, row.context.next.routePath, row.context.next.method],
      ['action', '/action-error', 'POST'],
    );
    assert.doesNotMatch(JSON.stringify(row), /SECRET|cookie|next-action/i);
  });

  test('captureMessage from route code reaches the SDK that register() started', async () => {
    const res = await fetch(`${app}/api/capture`);
    assert.equal(res.status, 200);
    const { id } = (await res.json()) as { id: string };
    await issueWith('manual server message');
    const row = await storedEvent('manual server message');
    assert.equal(row.event_id, id);
    assert.equal(row.tags.from, 'route');
    assert.equal(row.environment, 'e2e');
  });

  test('a client error after hydration arrives from Chromium, de-minified to the .tsx file and line', async () => {
    const page = await browser.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    try {
      await page.goto(`${app}/`);
      await page.waitForSelector('#boom[data-hydrated="yes"]');
      await page.click('#boom');
      const issue = await issueWith('client boom: clicked');
      assert.ok(pageErrors.includes('client boom: clicked'), 'the error was really uncaught in the page');
      const event = issue.latestEvent;
      assert.equal(event.release, RELEASE, 'NEXT_PUBLIC_TRACKER_RELEASE reached the browser build');
      assert.equal(event.environment, 'e2e');
      assert.equal(event.url, `${app}/`);
      const top = event.frames.find((f: any) => f.minified);
      assert.ok(top, `a de-minified frame: ${JSON.stringify(event.frames)}`);
      assert.match(top.filename, /client-boom\.tsx$/);
      assert.equal(top.lineno, lineOf(join(APP, 'app/client-boom.tsx'), 'throw new Error(`client boom'));
      assert.match(top.minified.filename, /\/_next\/static\/chunks\/[^/]+\.js$/);
      assert.equal(event.frames.indexOf(top), 0, 'the innermost frame is the throwing one');
    } finally {
      await page.close();
    }
  });

  test('the older-Next variant: <TrackerInit> in a layout configures the SDK in the browser', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${app}/legacy`);
      await page.waitForSelector('#boom[data-hydrated="yes"]');
      // Same error as on `/`: the SDK would de-duplicate it for 60 s, but this is a new page load.
      await page.click('#boom');
      const fromLegacy = () =>
        tracker.db.ds.query(`SELECT environment FROM events WHERE project_id = $1 AND url = $2`, [
          account.project.id,
          `${app}/legacy`,
        ]);
      await waitFor('the /legacy event', async () => (await fromLegacy()).length > 0);
      await new Promise((r) => setTimeout(r, 1_000));
      // One SDK in the page: the error is reported once, with the layout's configuration.
      assert.deepEqual(
        (await fromLegacy()).map((r: { environment: string }) => r.environment),
        ['legacy-layout'],
      );
    } finally {
      await page.close();
    }
  });

  test('a Web Vitals report arrives when the page is hidden', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${app}/vitals?utm_source=SECRET-QUERY`);
      await page.waitForSelector('#boom[data-hydrated="yes"]');
      await page.mouse.click(5, 5);
      await new Promise((r) => setTimeout(r, 500));
      const visible = await tracker.db.ds.query(`SELECT 1 FROM vitals_reports WHERE project_id = $1 AND url = $2`, [
        account.project.id,
        `${app}/vitals`,
      ]);
      assert.equal(visible.length, 0, 'nothing while the page is visible');
      await page.goto('about:blank');
    } finally {
      await page.close();
    }
    const rows = await waitFor('a vitals report', async () => {
      const r = await tracker.db.ds.query(
        `SELECT url, lcp, fcp, ttfb, cls, inp, environment, release FROM vitals_reports WHERE project_id = $1 AND url = $2`,
        [account.project.id, `${app}/vitals`],
      );
      return r.length > 0 && r;
    });
    assert.equal(rows.length, 1);
    const [report] = rows;
    assert.deepEqual([report.environment, report.release], ['e2e', RELEASE]);
    assert.ok(report.fcp > 0 && report.ttfb >= 0, JSON.stringify(report));
  });
});
