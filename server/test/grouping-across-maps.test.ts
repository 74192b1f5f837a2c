import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setOrganizationPlan } from '@tracker/core';
import { createTempDir } from '@tracker/core/testing';
import { build } from 'esbuild';
import type { Tracker } from '../src';
import {
  MODES,
  createTestEnv,
  gqlOk,
  sendError,
  signUpWithProject,
  startTracker,
  waitFor,
  type TestEnv,
} from './helpers';

const FIXTURE = resolve(__dirname, '../../core/test/fixtures/symbolication/src');

const EVENTS = `query($p: ID!) { issues(projectId: $p, first: 5) { nodes { id eventCount
  events(first: 10) { nodes { eventId release context frames { function minified { function } } } } } } }`;

interface Build {
  stack: string;
  map: string;
}

/**
 * One esbuild bundle per release, each slightly different (as successive builds are: the banner
 * moves every position), run under plain Node for a real minified stack.
 */
async function buildRelease(dir: string, release: string): Promise<Build> {
  const out = join(dir, release, 'main.js');
  await build({
    entryPoints: [join(FIXTURE, 'main.ts')],
    bundle: true,
    minify: true,
    sourcemap: true,
    platform: 'node',
    banner: { js: `/* build ${release} */`.padEnd(20 + release.length * 7, ' ') },
    outfile: out,
    logLevel: 'silent',
  });
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const stack: string = JSON.parse(execFileSync(process.execPath, [out], { env, encoding: 'utf8' })).stack;
  return { stack, map: readFileSync(`${out}.map`, 'utf8') };
}

/**
 * Decision 042: one bug, one issue, whether its release's maps were uploaded before its events,
 * after them, or never; and an issue page that names the files without maps.
 */
for (const mode of MODES) {
  describe(`grouping across source maps (${mode})`, () => {
    let env: TestEnv;
    let tracker: Tracker;
    const dir = createTempDir();
    const builds = new Map<string, Build>();

    before(async () => {
      for (const r of ['1.0.0', '2.0.0', '3.0.0']) builds.set(r, await buildRelease(dir.path, r));
      env = await createTestEnv(mode);
      tracker = await startTracker(env);
    });
    after(async () => {
      await tracker?.close();
      await env?.cleanup();
      dir.remove();
    });

    async function project() {
      const account = await signUpWithProject(tracker.url);
      await setOrganizationPlan(tracker.db.ds, account.organization.slug, 'pro');
      const upload = (
        await gqlOk(
          tracker.url,
          `mutation($p: ID!) { createUploadToken(projectId: $p, name: "ci") { token } }`,
          { p: account.project.id },
          account.token,
        )
      ).createUploadToken.token as string;
      let sent = 0;
      return {
        async uploadMaps(release: string) {
          const r = await fetch(`${tracker.url}/ingest/sourcemaps`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${upload}` },
            body: JSON.stringify({ release, files: [{ filename: 'main.js.map', map: builds.get(release)!.map }] }),
          });
          assert.equal(r.status, 200, await r.text());
        },
        /** Sends the release's stack and waits until it is stored; returns every issue with its events. */
        async send(release: string) {
          const r = await sendError(tracker.url, account.key, {
            type: 'RangeError',
            message: 'No price for discontinued-mug',
            environment: 'production',
            release,
            stack: builds.get(release)!.stack,
          });
          assert.equal(r.status, 202, JSON.stringify(r.body));
          sent += 1;
          return waitFor(`${sent} events stored`, async () => {
            const issues = (await gqlOk(tracker.url, EVENTS, { p: account.project.id }, account.token)).issues.nodes;
            const stored = issues.reduce((n: number, i: { eventCount: number }) => n + i.eventCount, 0);
            return stored >= sent ? issues : undefined;
          });
        },
      };
    }

    test('maps for 1.0.0, none for 2.0.0, maps for 3.0.0 uploaded after its first event: one issue', async () => {
      const p = await project();
      await p.uploadMaps('1.0.0');
      const [first] = await p.send('1.0.0');
      assert.equal(first.events.nodes[0].frames[0].function, 'lookupPrice', 'de-minified');

      const afterNoMaps = await p.send('2.0.0');
      assert.equal(afterNoMaps.length, 1, 'the release without maps joins the issue of its bug');
      const unmapped = afterNoMaps[0].events.nodes.find((e: { release: string }) => e.release === '2.0.0');
      assert.equal(unmapped.frames[0].minified, null, 'no map: stays minified');
      assert.deepEqual(unmapped.context._meta.sourceMaps, {
        release: '2.0.0',
        releaseHasMaps: false,
        missing: [join(dir.path, '2.0.0', 'main.js')],
      });

      assert.equal((await p.send('3.0.0')).length, 1, 'before its maps');
      await p.uploadMaps('3.0.0');
      const last = await p.send('3.0.0');
      assert.equal(last.length, 1, 'after its maps');
      assert.equal(last[0].eventCount, 4);
      const mapped = last[0].events.nodes.filter((e: any) => e.release === '3.0.0' && e.frames[0].minified !== null);
      assert.equal(mapped.length, 1, 'the late upload is used');
      assert.equal(mapped[0].frames[0].function, 'lookupPrice');
      assert.equal(mapped[0].context?._meta?.sourceMaps, undefined, 'no note where the maps were found');
    });

    test('minified events first, then the first de-minified one: still one issue', async () => {
      const p = await project();
      assert.equal((await p.send('1.0.0')).length, 1);
      assert.equal((await p.send('2.0.0')).length, 1, 'two builds without maps: one issue');
      await p.uploadMaps('3.0.0');
      const issues = await p.send('3.0.0');
      assert.equal(issues.length, 1);
      assert.equal(issues[0].eventCount, 3);
      assert.ok(issues[0].events.nodes.some((e: any) => e.frames[0].function === 'lookupPrice'));
    });
  });
}
