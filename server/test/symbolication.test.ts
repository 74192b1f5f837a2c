import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setOrganizationPlan } from '@tracker/core';
import { CHROMIUM_ARGS, CHROMIUM_PATH, createTempDir } from '@tracker/core/testing';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import type { Tracker } from '../src';
import { createTestEnv, gqlOk, sendError, signUpWithProject, startTracker, waitFor, type TestEnv } from './helpers';

const FIXTURE = resolve(__dirname, '../../core/test/fixtures/symbolication/src');

const ISSUES = `query($p: ID!) { issues(projectId: $p, first: 50) { nodes { id title culprit
  latestEvent { release frames { filename function lineno colno inApp minified { filename function lineno colno }
    context { pre line post } } } } } }`;

interface Frame {
  filename: string;
  function: string | null;
  lineno: number | null;
  colno: number | null;
  minified: { filename: string; function: string | null; lineno: number | null } | null;
  context: { pre: string[]; line: string; post: string[] } | null;
}

/**
 * A real bundle, minified by esbuild with its real map: an error thrown in it, captured from
 * Node and from Chromium, comes back through GraphQL with the original file, line and function;
 * the same stack under a release without maps stays minified.
 */
describe('source maps: real minified bundles, Node and Chromium stacks', () => {
  let env: TestEnv;
  let tracker: Tracker;
  let url: string;
  let account: Awaited<ReturnType<typeof signUpWithProject>>;
  let uploadToken: string;
  const dir = createTempDir();
  let page: Server;
  let pageOrigin: string;

  before(async () => {
    await build({
      entryPoints: [join(FIXTURE, 'main.ts')],
      bundle: true,
      minify: true,
      sourcemap: true,
      platform: 'node',
      outfile: join(dir.path, 'node/main.js'),
      logLevel: 'silent',
    });
    await build({
      entryPoints: [resolve(__dirname, 'fixtures/browser-entry.js')],
      bundle: true,
      minify: true,
      sourcemap: true,
      platform: 'browser',
      format: 'iife',
      outfile: join(dir.path, 'web/app.min.js'),
      logLevel: 'silent',
    });
    page = createServer((req, res) => {
      if (req.url === '/static/app.min.js') {
        res.writeHead(200, { 'content-type': 'text/javascript' }).end(readFileSync(join(dir.path, 'web/app.min.js')));
      } else {
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end('<button id="buy">Buy</button><script src="/static/app.min.js"></script>');
      }
    });
    await new Promise<void>((r) => page.listen(0, '127.0.0.1', r));
    pageOrigin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;

    env = await createTestEnv('postgres+redis');
    tracker = await startTracker(env);
    url = tracker.url;
    account = await signUpWithProject(url);
    await setOrganizationPlan(tracker.db.ds, account.organization.slug, 'pro');
    uploadToken = (
      await gqlOk(
        url,
        `mutation($p: ID!) { createUploadToken(projectId: $p, name: "ci") { token } }`,
        { p: account.project.id },
        account.token,
      )
    ).createUploadToken.token;
    const upload = await fetch(`${url}/ingest/sourcemaps`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${uploadToken}` },
      body: JSON.stringify({
        release: '1.0.0',
        files: [
          { filename: 'main.js.map', map: readFileSync(join(dir.path, 'node/main.js.map'), 'utf8') },
          { filename: 'app.min.js.map', map: readFileSync(join(dir.path, 'web/app.min.js.map'), 'utf8') },
        ],
      }),
    });
    assert.equal(upload.status, 200, await upload.text());
  });
  after(async () => {
    await tracker?.close();
    await env?.cleanup();
    await new Promise<void>((r) => page.close(() => r()));
    dir.remove();
  });

  async function send(stack: string, release: string, type = 'RangeError') {
    const r = await sendError(url, account.key, {
      type,
      message: 'No price for discontinued-mug',
      environment: 'production',
      release,
      stack,
    });
    assert.equal(r.status, 202, JSON.stringify(r.body));
    return r.body.id as string;
  }

  async function framesOf(release: string, filenameHint: string): Promise<Frame[]> {
    return waitFor(`the ${release} event from ${filenameHint}`, async () => {
      const r = await gqlOk(url, ISSUES, { p: account.project.id }, account.token);
      for (const issue of r.issues.nodes) {
        const e = issue.latestEvent;
        if (e?.release !== release) continue;
        const frames: Frame[] = e.frames;
        if (frames.some((f) => (f.minified?.filename ?? f.filename).includes(filenameHint))) return frames;
      }
      return undefined;
    });
  }

  function assertOriginal(frames: Frame[], minifiedFile: string) {
    const top = frames[0];
    assert.match(top.filename, /prices\.ts$/, JSON.stringify(top));
    assert.equal(top.function, 'lookupPrice');
    assert.equal(top.lineno, 14);
    assert.ok(top.minified, 'the minified frame is kept beside it');
    assert.ok(top.minified!.filename.endsWith(minifiedFile));
    assert.equal(top.minified!.lineno, 1, 'minified bundles are one line');
    assert.match(top.context!.line, /throw new RangeError/);
    assert.ok(top.context!.pre.length > 0);
    const names = frames.filter((f) => f.minified).map((f) => `${f.filename.split('/').pop()}:${f.function}`);
    assert.ok(names.includes('prices.ts:priceInCents'), names.join(' '));
    assert.ok(names.includes('cart.ts:lineTotalInCents'), names.join(' '));
    assert.ok(names.includes('cart.ts:checkout'), names.join(' '));
  }

  test('Node: the stack of a minified bundle comes back with original file, line and function', async () => {
    const out = execFileSync(process.execPath, [join(dir.path, 'node/main.js')], { encoding: 'utf8' });
    const stack: string = JSON.parse(out).stack;
    assert.doesNotMatch(stack, /lookupPrice/, 'the bundle really is minified');
    await send(stack, '1.0.0');
    assertOriginal(await framesOf('1.0.0', 'main.js'), 'main.js');
  });

  test('Chromium: the stack of the same code in a browser comes back de-minified', async () => {
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    try {
      const tab = await browser.newPage();
      await tab.goto(`${pageOrigin}/`);
      await tab.click('#buy');
      const stack = (await tab.evaluate(() => (globalThis as { capturedStack?: string }).capturedStack)) as string;
      assert.match(stack, /app\.min\.js:1:\d+/);
      await send(stack, '1.0.0');
      assertOriginal(await framesOf('1.0.0', 'app.min.js'), 'app.min.js');
    } finally {
      await browser.close();
    }
  });

  test('a release without maps stays minified, and is accepted', async () => {
    const out = execFileSync(process.execPath, [join(dir.path, 'node/main.js')], { encoding: 'utf8' });
    await send(JSON.parse(out).stack, '2.0.0');
    const frames = await framesOf('2.0.0', 'main.js');
    assert.ok(frames[0].filename.endsWith('main.js'));
    assert.equal(frames[0].minified, null);
    assert.notEqual(frames[0].function, 'lookupPrice');
  });

  test('grouping uses de-minified frames: the Node and Chromium stacks of 1.0.0 share culprit', async () => {
    const r = await gqlOk(url, ISSUES, { p: account.project.id }, account.token);
    const culprits = r.issues.nodes.filter((i: any) => i.latestEvent.release === '1.0.0').map((i: any) => i.culprit);
    assert.ok(culprits.length >= 1);
    for (const c of culprits) assert.match(c, /prices\.ts/);
  });
  test("a cause's minified stack is de-minified too (issue 29), and the event groups as its top error", async () => {
    const out = execFileSync(process.execPath, [join(dir.path, 'node/main.js')], { encoding: 'utf8' });
    const stack: string = JSON.parse(out).stack;
    const r = await sendError(url, account.key, {
      type: 'Error',
      message: 'Checkout failed (cause test)',
      environment: 'production',
      release: '1.0.0',
      stack: 'Error: Checkout failed (cause test)\n    at submit (/srv/app/checkout.js:3:7)',
      causes: [{ type: 'RangeError', message: 'No price for discontinued-mug', stack }],
    });
    assert.equal(r.status, 202, JSON.stringify(r.body));
    const e = await waitFor('the chained event', async () => {
      const answer = await gqlOk(
        url,
        `query($id: ID!) { event(id: $id) { exceptions { type frames { filename function lineno inApp minified { filename function lineno colno } context { pre line post } } } } }`,
        { id: r.body.id },
        account.token,
      );
      return answer.event ?? undefined;
    });
    assert.deepEqual(
      e.exceptions.map((x: { type: string }) => x.type),
      ['Error', 'RangeError'],
    );
    assert.equal(e.exceptions[0].frames[0].function, 'submit');
    assertOriginal(e.exceptions[1].frames, 'main.js');
  });
});
