import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@tracker/core/testing';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { Tracker } from '../src';
import { STEP_TIMEOUT_MS } from './dashboard-browser';
import { createTestEnv, MODES, signUpWithProject, startTracker, type TestEnv } from './helpers';

// Issue 28, part 4: `/login?redirectTo=…` must never send the browser to another origin, for a
// user who signs in there and for one already signed in (the loader redirects at once). Each
// target is written as an attacker would put it in a link (already URL-encoded), and followed by
// a real Chromium, which is the judge of how a Location header is read: it drops tabs and
// newlines and reads `\` as `/`. Chromium resolves evil.example to a server of the test on
// loopback (there is no outside network), so a browser that went there ends on a page at that
// origin, and the server counts the visit.

const PASSWORD = 'correct horse battery';

/** `redirectTo` values as they appear in the query string of a phishing link. */
const HOSTILE_TARGETS = [
  '%2F%09%2Fevil.example%2Fphish', // the report's: a tab after the first slash
  '/%09/evil.example/phish',
  '%2F%0A%2Fevil.example%2Fphish', // a newline
  '%2F%0D%2Fevil.example%2Fphish',
  '%09%2F%2Fevil.example%2Fphish', // a tab before the slashes
  '%2F%5Cevil.example%2Fphish', // /\evil.example
  '%2F%5C%2Fevil.example%2Fphish', // /\/evil.example
  '%5C%5Cevil.example%2Fphish', // \\evil.example
  '%2F%2Fevil.example%2Fphish', // //evil.example
  '//evil.example/phish',
  '%2F%2F%2Fevil.example%2Fphish',
  '%2F.%2F%2Fevil.example%2Fphish', // /.//evil.example: the URL parser's path is //evil.example
  '%2F..%2F%2Fevil.example%2Fphish',
  'https%3A%2F%2Fevil.example%2Fphish',
  'http:%2Fevil.example%2Fphish',
  '%252F%252Fevil.example%252Fphish', // encoded twice: one decoding leaves a path on our origin
  '%2F%255Cevil.example', // an encoded backslash stays a path segment
];

for (const mode of MODES) {
  describe(`the sign-in redirect stays on our origin in Chromium (${mode})`, () => {
    let env: TestEnv | undefined;
    let tracker: Tracker | undefined;
    let browser: Browser | undefined;
    let origin: string;
    let email: string;
    let signedIn: BrowserContext;
    let evil: Server | undefined;
    const visitedEvil: string[] = [];

    async function newContext(): Promise<BrowserContext> {
      const context = await browser!.newContext({ baseURL: origin });
      context.setDefaultTimeout(STEP_TIMEOUT_MS);
      context.setDefaultNavigationTimeout(STEP_TIMEOUT_MS);
      return context;
    }

    async function signIn(page: Page, query: string): Promise<void> {
      await page.goto(`/login?redirectTo=${query}`);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      // A failed redirect leaves the page on /login (the caller says so): wait a while, not forever.
      await page
        .waitForURL((u) => u.origin !== origin || u.pathname !== '/login', { timeout: 5_000 })
        .catch(() => undefined);
      // A target on our origin may redirect again (`/` → the project's issues): let it settle.
      await page.waitForLoadState('load');
    }

    before(async () => {
      env = await createTestEnv(mode);
      tracker = await startTracker(env, { roles: ['ingest', 'worker', 'api', 'web'] });
      origin = new URL(tracker.url).origin;
      evil = createServer((req, res) => {
        visitedEvil.push(`${req.headers.host}${req.url}`);
        res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>phished</h1>');
      });
      await new Promise<void>((resolve) => evil!.listen(0, '127.0.0.1', resolve));
      const evilPort = (evil.address() as AddressInfo).port;
      // A route of playwright's would not see it: the browser follows a 302 without asking it.
      const resolverRule = `--host-resolver-rules=MAP evil.example:80 127.0.0.1:${evilPort}`;
      browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, resolverRule] });
      email = (await signUpWithProject(tracker.url, 'Redirects')).email;
      signedIn = await newContext();
      const page = await signedIn.newPage();
      await signIn(page, encodeURIComponent('/'));
      await page.close();
    });
    after(async () => {
      await browser?.close().catch(() => {});
      evil?.close();
      await tracker?.close().catch(() => {});
      await env?.cleanup().catch(() => {});
    });

    test('the routing of evil.example works: a plain link there is followed', async () => {
      // Without this, a test whose browser never reached evil.example would pass for the wrong reason.
      const context = await newContext();
      const page = await context.newPage();
      await page.goto('http://evil.example/phish');
      assert.equal(new URL(page.url()).origin, 'http://evil.example');
      await context.close();
      visitedEvil.length = 0;
    });

    test('a signed-out user who signs in ends on our origin, whatever the target', async () => {
      const context = await newContext();
      const escaped: string[] = [];
      for (const query of HOSTILE_TARGETS) {
        const page = await context.newPage();
        await signIn(page, query);
        const ended = new URL(page.url());
        // Still on /login means the sign-in went nowhere (the action failed): not an answer either.
        if (ended.origin !== origin || ended.pathname === '/login')
          escaped.push(`redirectTo=${query} ended on ${page.url()}`);
        await page.close();
        await context.clearCookies();
      }
      assert.deepEqual(escaped, []);
      assert.deepEqual(visitedEvil, []);
      await context.close();
    });

    test('a user already signed in is redirected at once, and ends on our origin', async () => {
      const escaped: string[] = [];
      for (const query of HOSTILE_TARGETS) {
        const page = await signedIn.newPage();
        await page.goto(`/login?redirectTo=${query}`);
        await page.waitForLoadState('load');
        if (new URL(page.url()).origin !== origin) escaped.push(`redirectTo=${query} ended on ${page.url()}`);
        await page.close();
      }
      assert.deepEqual(escaped, []);
      assert.deepEqual(visitedEvil, []);
    });

    test('a target on our origin is still honoured, with its query', async () => {
      const page = await signedIn.newPage();
      await page.goto(`/login?redirectTo=${encodeURIComponent('/projects/new?from=login')}`);
      await page.waitForURL((u) => u.pathname === '/projects/new');
      assert.equal(new URL(page.url()).search, '?from=login');
      await page.close();
      const context = await newContext();
      const fresh = await context.newPage();
      await signIn(fresh, encodeURIComponent('/projects/new?from=login'));
      assert.equal(new URL(fresh.url()).pathname, '/projects/new');
      await context.close();
    });
  });
}
