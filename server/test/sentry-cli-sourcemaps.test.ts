import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CHROMIUM_ARGS, CHROMIUM_PATH, createTempDir } from '@tracker/core/testing';
import { sentryEsbuildPlugin } from '@sentry/esbuild-plugin';
import { uploadSourceMaps } from '@tracker/next';
import { chromium, type Browser } from 'playwright-core';
import type { Tracker } from '../src';
import { MODES, createTestEnv, gqlOk, startTracker, waitFor, type TestEnv } from './helpers';
import {
  CALLER_LINES,
  THROW_LINE,
  buildApp,
  cliTenant,
  runSentryCli,
  startAppSite,
  throwInBrowser,
} from './sentry-cli-harness';

const EVENTS = `query($p: ID!) { issues(projectId: $p, first: 10) { nodes { id title
  events(first: 20) { nodes { eventId release frames { filename function lineno colno inApp
    context { pre line post } minified { filename function } } } } } } }`;

const PASSWORD = 'correct horse battery'; // signUpWithProject's

/**
 * Issue 30, part 1 and 2 with the real tools, unchanged: an esbuild bundle whose maps are
 * uploaded by `sentry-cli sourcemaps inject` + `sourcemaps upload` (3.8.0, debug IDs only, no
 * release) or by @sentry/esbuild-plugin (5.4.0, with a release), then @sentry/browser 11 in
 * Chromium throws from that bundle; the issue shows the original file, lines, functions and
 * source lines through GraphQL and on the issue page.
 */
for (const mode of MODES) {
  describe(`sentry-cli and the esbuild plugin upload maps that de-minify @sentry/browser events (${mode})`, () => {
    let env: TestEnv;
    let tracker: Tracker;
    let browser: Browser;
    const dir = createTempDir();

    before(async () => {
      env = await createTestEnv(mode);
      tracker = await startTracker(env, { roles: ['ingest', 'worker', 'api', 'web'] });
      browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, timeout: 30_000 });
    });
    after(async () => {
      await browser?.close().catch(() => undefined);
      await tracker?.close().catch(() => undefined);
      await env?.cleanup().catch(() => undefined);
      dir.remove();
    });

    async function eventOf(projectId: string, token: string, sdkEventId: string) {
      const id = sdkEventId.replace(/-/g, '');
      return waitFor(`event ${sdkEventId}`, async () => {
        const issues = (await gqlOk(tracker.url, EVENTS, { p: projectId }, token)).issues.nodes;
        for (const issue of issues)
          for (const e of issue.events.nodes) if (e.eventId.replace(/-/g, '') === id) return { issue, event: e };
        return undefined;
      });
    }

    function assertDeminified(frames: any[], where: string) {
      const [top, caller, outer] = frames;
      assert.equal(top.function, 'validateCard', `${where}: the throwing function`);
      assert.match(top.filename, /checkout\.ts$/, `${where}: the original file`);
      assert.equal(top.lineno, THROW_LINE, `${where}: the original line`);
      assert.match(top.context.line, /throw new TypeError\(`card declined/, `${where}: the source line`);
      assert.ok(
        top.context.pre.some((l: string) => /function validateCard/.test(l)),
        `${where}: lines before`,
      );
      assert.ok(top.minified, `${where}: the minified frame is kept`);
      assert.equal(caller.function, 'chargeCard', `${where}: its caller`);
      assert.equal(caller.lineno, CALLER_LINES.chargeCard);
      assert.equal(outer.function, 'checkout', `${where}: the outer function`);
      assert.equal(outer.lineno, CALLER_LINES.checkout);
    }

    test('sentry-cli 3.8 sourcemaps inject + upload (debug IDs, no release): an event before the upload stays minified, the next is de-minified, on the issue page too', async () => {
      const t = await cliTenant(tracker.url);
      const out = join(dir.path, 'cli', 'dist');
      await buildApp(out);
      const cli = { url: tracker.url, token: t.uploadToken, org: t.org, project: t.projectSlug, home: dir.path };
      const injected = await runSentryCli(['sourcemaps', 'inject', out], cli);
      assert.match(injected, /debug ?id/i, injected);
      const site = await startAppSite(out);
      try {
        const app = { dsn: t.dsn, release: 'shop@1.0.0' };
        const before = await throwInBrowser(browser, site.origin, app);
        assert.equal(before.flushed, true);
        const minified = await eventOf(t.project.id, t.token, before.eventId);
        assert.equal(minified.event.frames[0].minified, null, 'no map yet: minified');

        const uploaded = await runSentryCli(['sourcemaps', 'upload', out], cli);
        assert.match(uploaded, /File processing complete|Nothing to upload/, uploaded);

        const after = await throwInBrowser(browser, site.origin, app);
        const { issue, event } = await eventOf(t.project.id, t.token, after.eventId);
        assertDeminified(event.frames, 'GraphQL');
        assert.equal(issue.title.includes('card declined'), true);

        // The rendered issue page, signed in as the user.
        const context = await browser.newContext({ baseURL: tracker.url });
        try {
          const page = await context.newPage();
          await page.goto('/login');
          await page.getByLabel('Email').fill(t.email);
          await page.getByLabel('Password').fill(PASSWORD);
          await page.getByRole('button', { name: /sign in|log in/i }).click();
          await page.waitForURL((u) => u.pathname !== '/login');
          await page.goto(`/projects/${t.project.id}/issues/${issue.id}?event=${event.eventId}`);
          const text = (await page.locator('main').innerText()).replace(/\s+/g, ' ');
          assert.match(text, /validateCard/, 'the original function on the page');
          assert.match(text, /checkout\.ts/, 'the original file on the page');
          assert.match(
            text,
            /throw new TypeError\(`card declined for \$\{cents\} cents`\)/,
            'the source line on the page',
          );
          assert.match(text, /chargeCard/);
        } finally {
          await context.close().catch(() => undefined);
        }
      } finally {
        await site.close();
      }
    });

    test('tracker-upload-sourcemaps sends the debug IDs sentry-cli injected: found by ID under another release name', async () => {
      const t = await cliTenant(tracker.url);
      const out = join(dir.path, 'ours', 'dist');
      await buildApp(out);
      const cli = { url: tracker.url, token: t.uploadToken, org: t.org, project: t.projectSlug, home: dir.path };
      await runSentryCli(['sourcemaps', 'inject', out], cli);
      const result = await uploadSourceMaps({
        dir: out,
        release: 'build-77',
        dsn: t.dsn,
        authToken: t.uploadToken,
        logger: null,
      });
      assert.equal(result.stored, 1);
      const site = await startAppSite(out);
      try {
        // The page runs under a release that has no maps: only the debug ID can find this one.
        const sent = await throwInBrowser(browser, site.origin, { dsn: t.dsn, release: 'shop@3.0.0' });
        const { event } = await eventOf(t.project.id, t.token, sent.eventId);
        assertDeminified(event.frames, 'our uploader');
      } finally {
        await site.close();
      }
    });

    test('@sentry/esbuild-plugin 5.4 uploads during the build (with a release): the event is de-minified', async () => {
      const t = await cliTenant(tracker.url);
      const out = join(dir.path, 'plugin', 'dist');
      const errors: unknown[] = [];
      await buildApp(out, [
        sentryEsbuildPlugin({
          url: tracker.url,
          org: t.org,
          project: t.projectSlug,
          authToken: t.uploadToken,
          telemetry: false,
          release: { name: 'shop@2.0.0', create: false, finalize: false, inject: false },
          sourcemaps: { assets: [join(out, '**')] },
          errorHandler: (error) => void errors.push(error),
        }),
      ]);
      assert.deepEqual(errors.map(String), [], 'the plugin reported no error');
      const site = await startAppSite(out);
      try {
        const sent = await throwInBrowser(browser, site.origin, { dsn: t.dsn, release: 'shop@2.0.0' });
        const { event } = await eventOf(t.project.id, t.token, sent.eventId);
        assertDeminified(event.frames, 'plugin');
      } finally {
        await site.close();
      }
    });
  });
}
