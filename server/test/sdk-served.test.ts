// Issue 16: the instance serves its SDKs. The tarballs are packed here with `npm pack` (as the
// server's build does), served by a real Tracker on both runtimes, installed into scratch
// projects from the served URLs, and used: the Node SDK and the browser SDK's script and ES
// module (loaded cross-origin in Chromium with SRI) send events that are stored.
import { CHROMIUM_ARGS, CHROMIUM_PATH, createTempDir, type TempDir } from '@tracker/core/testing';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { queryRows } from '@tracker/core';
import { chromium, type Browser } from 'playwright-core';
import type { Tracker } from '../src';
import { packSdks } from '../src/sdk-dist/pack-sdks';
import { readTar } from '../src/sdk-dist/tar';
import { createTestEnv, MODES, signUpWithProject, startTracker, waitFor, type TestEnv } from './helpers';

const run = promisify(execFile);
const INSTALL_TIMEOUT_MS = 120_000;
const VERSION = (
  JSON.parse(readFileSync(require.resolve('@tracker/browser/package.json'), 'utf8')) as { version: string }
).version;

/** The files of a packed tarball, by path inside it (`package/…`). */
function filesOf(tgz: Buffer): Map<string, Buffer> {
  return new Map(readTar(gunzipSync(tgz)).map((e) => [e.name, e.data]));
}

let packDir: TempDir;
let packed: ReturnType<typeof packSdks>;
before(() => {
  packDir = createTempDir('tracker-sdk-pack-');
  packed = packSdks(packDir.path);
});
after(() => packDir?.remove());

test('npm pack of every SDK: no dependency on the private sdk-core, and the browser builds inside', () => {
  for (const [file, path] of Object.entries(packed)) {
    const files = filesOf(readFileSync(path));
    const pkg = JSON.parse(files.get('package/package.json')!.toString()) as Record<string, Record<string, string>>;
    assert.equal(pkg.dependencies?.['@tracker/sdk-core'], undefined, file);
    assert.equal(pkg.peerDependencies?.['@tracker/sdk-core'], undefined, file);
    for (const [name, data] of files) {
      if (/\.(c|m)?js$|\.d\.(c|m)?ts$/.test(name)) assert.doesNotMatch(data.toString(), /@tracker\/sdk-core/, name);
    }
  }
  const browser = filesOf(readFileSync(packed['tracker-browser.tgz']));
  assert.ok(browser.has('package/dist/tracker.min.js'));
  // Self-contained: no import of a bare name, so a browser can load it by URL.
  const esm = browser.get('package/dist/tracker.mjs')!.toString();
  assert.doesNotMatch(esm, /\bfrom\s*["'][^."'/]|import\s*\(\s*["'][^."'/]/);
});

for (const mode of MODES) {
  describe(`GET /sdk/ (${mode})`, () => {
    let env: TestEnv;
    let tracker: Tracker;
    before(async () => {
      env = await createTestEnv(mode);
      tracker = await startTracker(env, {}, { sdkDir: packDir.path });
    });
    after(async () => {
      await tracker?.close();
      await env?.cleanup();
    });

    test('the script: JavaScript, CORS for any origin, a short cache, an ETag, br and gzip', async () => {
      const expected = filesOf(readFileSync(packed['tracker-browser.tgz'])).get('package/dist/tracker.min.js')!;
      const plain = await fetch(`${tracker.url}/sdk/tracker.min.js`, { headers: { 'accept-encoding': 'identity' } });
      assert.equal(plain.status, 200);
      assert.equal(plain.headers.get('content-type'), 'text/javascript; charset=utf-8');
      assert.equal(plain.headers.get('access-control-allow-origin'), '*');
      assert.equal(plain.headers.get('cross-origin-resource-policy'), 'cross-origin');
      assert.equal(plain.headers.get('cache-control'), 'public, max-age=300, must-revalidate');
      assert.equal(plain.headers.get('vary'), 'Accept-Encoding');
      assert.equal(plain.headers.get('content-encoding'), null);
      assert.deepEqual(Buffer.from(await plain.arrayBuffer()), expected, 'the bytes npm would install');
      const etag = plain.headers.get('etag')!;
      assert.match(etag, /^"[\w-]+"$/);

      const again = await fetch(`${tracker.url}/sdk/tracker.min.js`, {
        headers: { 'accept-encoding': 'identity', 'if-none-match': etag },
      });
      assert.equal(again.status, 304);
      assert.equal((await again.arrayBuffer()).byteLength, 0);

      // fetch() would decode the body itself: read the raw bytes through node:http instead.
      const raw = (encoding: string) =>
        new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
          const req = require('node:http').get(
            `${tracker.url}/sdk/tracker.min.js`,
            { headers: { 'accept-encoding': encoding } },
            (res: import('node:http').IncomingMessage) => {
              const chunks: Buffer[] = [];
              res.on('data', (c: Buffer) => chunks.push(c));
              res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
            },
          );
          req.on('error', reject);
        });
      const br = await raw('gzip, deflate, br');
      assert.equal(br.headers['content-encoding'], 'br');
      assert.deepEqual(brotliDecompressSync(br.body), expected);
      assert.notEqual(br.headers.etag, etag, 'each encoding has its own strong ETag');
      const gz = await raw('gzip;q=1, br;q=0');
      assert.equal(gz.headers['content-encoding'], 'gzip');
      assert.deepEqual(gunzipSync(gz.body), expected);
    });

    test('versioned URLs are immutable for a year; another version or file is a 404', async () => {
      for (const file of [
        'tracker.min.js',
        'tracker.mjs',
        'tracker-browser.tgz',
        'tracker-node.tgz',
        'tracker-next.tgz',
      ]) {
        const res = await fetch(`${tracker.url}/sdk/${VERSION}/${file}`);
        assert.equal(res.status, 200, file);
        assert.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable', file);
        assert.equal(res.headers.get('access-control-allow-origin'), '*', file);
        await res.arrayBuffer();
      }
      const mjs = await fetch(`${tracker.url}/sdk/${VERSION}/tracker.mjs`);
      assert.equal(mjs.headers.get('content-type'), 'text/javascript; charset=utf-8');
      await mjs.arrayBuffer();
      const old = await fetch(`${tracker.url}/sdk/0.0.1/tracker.min.js`);
      assert.equal(old.status, 404);
      assert.equal(((await old.json()) as { error: { code: string } }).error.code, 'NOT_FOUND');
      const unknown = await fetch(`${tracker.url}/sdk/../package.json`);
      assert.equal(unknown.status, 404);
      await unknown.arrayBuffer();
      const other = await fetch(`${tracker.url}/sdk/index.cjs`);
      assert.equal(other.status, 404);
      await other.arrayBuffer();
    });

    test('tarballs are gzip, and @tracker/next depends on this instance’s browser and node tarballs', async () => {
      const node = await fetch(`${tracker.url}/sdk/tracker-node.tgz`);
      assert.equal(node.headers.get('content-type'), 'application/gzip');
      assert.deepEqual(Buffer.from(await node.arrayBuffer()), readFileSync(packed['tracker-node.tgz']));

      const next = await fetch(`${tracker.url}/sdk/tracker-next.tgz`);
      assert.equal(next.status, 200);
      const body = Buffer.from(await next.arrayBuffer());
      const files = filesOf(body);
      const pkg = JSON.parse(files.get('package/package.json')!.toString()) as { dependencies: Record<string, string> };
      const publicUrl = tracker.sdk!.setupInfo().publicUrl;
      assert.deepEqual(pkg.dependencies, {
        '@tracker/browser': `${publicUrl}/sdk/${VERSION}/tracker-browser.tgz`,
        '@tracker/node': `${publicUrl}/sdk/${VERSION}/tracker-node.tgz`,
      });
      // Every other file is the packed one, byte for byte; and the bytes are stable per URL.
      const original = filesOf(readFileSync(packed['tracker-next.tgz']));
      assert.deepEqual([...files.keys()], [...original.keys()]);
      for (const [name, data] of original)
        if (name !== 'package/package.json') assert.deepEqual(files.get(name), data, name);
      const second = Buffer.from(await (await fetch(`${tracker.url}/sdk/tracker-next.tgz`)).arrayBuffer());
      assert.deepEqual(second, body);
    });

    test('the setup information names versioned URLs on the public URL and the SRI hash of the served bytes', async () => {
      const info = tracker.sdk!.setupInfo();
      const script = Buffer.from(await (await fetch(`${tracker.url}/sdk/${VERSION}/tracker.min.js`)).arrayBuffer());
      const module = Buffer.from(await (await fetch(`${tracker.url}/sdk/${VERSION}/tracker.mjs`)).arrayBuffer());
      const sri = (b: Buffer) => `sha384-${createHash('sha384').update(b).digest('base64')}`;
      assert.equal(info.scriptIntegrity, sri(script));
      assert.equal(info.moduleIntegrity, sri(module));
      assert.equal(info.scriptUrl, `${info.publicUrl}/sdk/${VERSION}/tracker.min.js`);
      assert.match(info.publicUrl, /^http:\/\/localhost:\d+$/, 'the DSNs’ origin (TRACKER_PUBLIC_URL)');
      assert.equal(info.tarballs.node, `${info.publicUrl}/sdk/${VERSION}/tracker-node.tgz`);
    });
  });
}

describe('the served tarballs installed and used (embedded)', () => {
  let env: TestEnv;
  let tracker: Tracker;
  let scratch: TempDir;
  let browser: Browser | undefined;
  let page: Server | undefined;
  before(async () => {
    env = await createTestEnv('embedded');
    tracker = await startTracker(env, {}, { sdkDir: packDir.path });
    scratch = createTempDir('tracker-sdk-install-');
    writeFileSync(join(scratch.path, 'package.json'), JSON.stringify({ name: 'scratch', private: true }));
  });
  after(async () => {
    await browser?.close().catch(() => undefined);
    await new Promise<void>((resolve) => (page ? page.close(() => resolve()) : resolve()));
    await tracker?.close();
    await env?.cleanup();
    scratch?.remove();
  });

  const rows = <T = any>(sql: string, params: unknown[]) => queryRows<T>(tracker.db.ds, sql, params);
  const eventsOf = (projectId: string) =>
    rows<{ message: string; sdk: { name: string } }>('SELECT message, sdk FROM events WHERE project_id = $1', [
      projectId,
    ]);

  /** npm install from the instance's URLs; nothing comes from the registry. */
  async function npmInstall(...urls: string[]) {
    await run(
      'npm',
      ['install', ...urls, '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'],
      {
        cwd: scratch.path,
        timeout: INSTALL_TIMEOUT_MS,
      },
    );
  }
  const nodeIn = (args: string[]) => run(process.execPath, args, { cwd: scratch.path, timeout: 30_000 });

  test(
    '@tracker/next installs from its URL (pulling browser and node from the instance) and its entry points load',
    { timeout: INSTALL_TIMEOUT_MS + 30_000 },
    async () => {
      await npmInstall(`${tracker.url}/sdk/tracker-next.tgz`);
      const lock = JSON.parse(readFileSync(join(scratch.path, 'package-lock.json'), 'utf8')) as {
        packages: Record<string, { resolved?: string; version?: string }>;
      };
      assert.equal(lock.packages['node_modules/@tracker/browser']?.resolved, tracker.sdk!.setupInfo().tarballs.browser);
      assert.equal(lock.packages['node_modules/@tracker/node']?.resolved, tracker.sdk!.setupInfo().tarballs.node);
      // the browser SDK has no runtime dependency since it measures Web Vitals itself (decision 016)
      assert.equal(lock.packages['node_modules/web-vitals'], undefined, 'nothing from the registry');
      const { stdout } = await nodeIn([
        '--input-type=module',
        '-e',
        `const root = await import('@tracker/next');
       const server = await import('@tracker/next/server');
       const client = await import('@tracker/next/client');
       const { createRequire } = await import('node:module');
       const require = createRequire(process.cwd() + '/');
       const cjs = require('@tracker/next/server');
       console.log(JSON.stringify([typeof root.uploadSourceMaps, typeof server.register, typeof server.onRequestError, typeof client.init, typeof cjs.register]));`,
      ]);
      assert.deepEqual(JSON.parse(stdout), ['function', 'function', 'function', 'function', 'function']);
      const bin = await nodeIn([join(scratch.path, 'node_modules/.bin/tracker-upload-sourcemaps'), '--version']);
      assert.match(bin.stdout, new RegExp(VERSION.replace(/\./g, '\\.')));
    },
  );

  /**
   * The Setup page's two Node snippets (web/app/components/setup-instructions.tsx), run as a user
   * pastes them: `require` in a default (CommonJS) project, `import` in one with "type": "module".
   */
  const NODE_PROJECTS = [
    {
      name: 'commonjs',
      type: undefined,
      code: (dsn: string) => `const Tracker = require('@tracker/node');

Tracker.init({
  dsn: ${JSON.stringify(dsn)},
  release: '1.0.0',
});
const id = Tracker.captureException(new Error('sent from a CommonJS project'));
Tracker.flush(5000).then((ok) => { console.log(JSON.stringify({ id, ok, path: require.resolve('@tracker/node') })); return Tracker.close(); });`,
    },
    {
      name: 'esm',
      type: 'module',
      code: (dsn: string) => `import * as Tracker from '@tracker/node';

Tracker.init({
  dsn: ${JSON.stringify(dsn)},
  release: '1.0.0',
});
const id = Tracker.captureException(new Error('sent from an ES module project'));
const ok = await Tracker.flush(5000);
console.log(JSON.stringify({ id, ok, path: import.meta.resolve('@tracker/node') }));
await Tracker.close();`,
    },
  ];

  test(
    '@tracker/node installed from its URL into a CommonJS and an ES module project: both send an error that is stored',
    { timeout: 2 * INSTALL_TIMEOUT_MS + 60_000 },
    async () => {
      const a = await signUpWithProject(tracker.url, 'Installed node');
      for (const project of NODE_PROJECTS) {
        const dir = createTempDir(`tracker-sdk-node-${project.name}-`);
        try {
          const pkg = {
            name: `scratch-${project.name}`,
            private: true,
            ...(project.type ? { type: project.type } : {}),
          };
          writeFileSync(join(dir.path, 'package.json'), JSON.stringify(pkg));
          await run(
            'npm',
            [
              'install',
              `${tracker.url}/sdk/${VERSION}/tracker-node.tgz`,
              '--prefer-offline',
              '--no-audit',
              '--no-fund',
              '--ignore-scripts',
              '--loglevel=error',
            ],
            { cwd: dir.path, timeout: INSTALL_TIMEOUT_MS },
          );
          writeFileSync(join(dir.path, 'index.js'), project.code(a.dsn));
          const { stdout } = await run(process.execPath, ['index.js'], { cwd: dir.path, timeout: 30_000 });
          const out = JSON.parse(stdout) as { ok: boolean; path: string };
          assert.equal(out.ok, true, project.name);
          assert.match(
            out.path,
            new RegExp(`tracker-sdk-node-${project.name}-[^/]*/node_modules/@tracker/node/`),
            project.name,
          );
          assert.match(out.path, project.type ? /index\.mjs$/ : /index\.cjs$/, 'the build of its own module system');
        } finally {
          dir.remove();
        }
      }
      const stored = await waitFor('both events', async () => {
        const found = await eventsOf(a.project.id);
        return found.length >= 2 && found;
      });
      assert.deepEqual(stored.map((e) => [e.message, e.sdk.name]).sort(), [
        ['sent from a CommonJS project', 'tracker.node'],
        ['sent from an ES module project', 'tracker.node'],
      ]);
    },
  );

  test(
    'the browser SDK’s script and ES module, loaded cross-origin with SRI, send events that are stored',
    { timeout: 60_000 },
    async () => {
      const a = await signUpWithProject(tracker.url, 'Script tag');
      const info = tracker.sdk!.setupInfo();
      const pages: Record<string, string> = {
        '/script.html': `<!doctype html><script src="${info.scriptUrl}" integrity="${info.scriptIntegrity}" crossorigin="anonymous"></script>
        <script>Tracker.init({ dsn: ${JSON.stringify(a.dsn)}, environment: 'iife' }); Tracker.captureMessage('from the script tag'); window.done = Tracker.flush(5000);</script>`,
        '/module.html': `<!doctype html><link rel="modulepreload" href="${info.moduleUrl}" integrity="${info.moduleIntegrity}" crossorigin="anonymous">
        <script type="module">import * as Tracker from ${JSON.stringify(info.moduleUrl)};
        Tracker.init({ dsn: ${JSON.stringify(a.dsn)}, environment: 'esm' }); Tracker.captureMessage('from the ES module'); window.done = Tracker.flush(5000);</script>`,
        '/tampered-module.html': `<!doctype html><link rel="modulepreload" href="${info.moduleUrl}" integrity="sha384-${Buffer.alloc(48).toString('base64')}" crossorigin="anonymous">
        <script type="module">import(${JSON.stringify(info.moduleUrl)}).then((m) => { window.loaded = typeof m.init; }, () => { window.loaded = 'refused'; });</script>`,
        '/tampered.html': `<!doctype html><script src="${info.scriptUrl}" integrity="sha384-${Buffer.alloc(48).toString('base64')}" crossorigin="anonymous"></script>`,
      };
      page = createServer((req, res) => {
        const html = pages[req.url ?? ''];
        res.writeHead(html ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
        res.end(html ?? '');
      });
      await new Promise<void>((resolve) => page!.listen(0, '127.0.0.1', resolve));
      // The page on 127.0.0.1, the instance on localhost: every request crosses origins.
      const pageOrigin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
      assert.notEqual(new URL(info.scriptUrl).origin, pageOrigin);

      browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, timeout: 20_000 });
      const context = await browser.newContext();
      const tab = await context.newPage();
      tab.setDefaultTimeout(15_000);
      const errors: string[] = [];
      tab.on('pageerror', (err) => errors.push(err.message));
      for (const path of ['/script.html', '/module.html']) {
        await tab.goto(pageOrigin + path);
        await tab.waitForFunction(() => (globalThis as { done?: unknown }).done !== undefined);
        assert.equal(await tab.evaluate(() => (globalThis as unknown as { done: Promise<boolean> }).done), true, path);
      }
      assert.deepEqual(errors, []);

      const stored = await waitFor('both events', async () => {
        const found = await eventsOf(a.project.id);
        return found.length >= 2 && found;
      });
      assert.deepEqual(stored.map((e) => e.message).sort(), ['from the ES module', 'from the script tag']);
      assert.ok(
        stored.every((e) => e.sdk.name === 'tracker.browser'),
        JSON.stringify(stored.map((e) => e.sdk)),
      );

      // A file that does not match the hash is not run at all.
      await tab.goto(pageOrigin + '/tampered.html');
      assert.equal(await tab.evaluate(() => typeof (globalThis as { Tracker?: unknown }).Tracker), 'undefined');
      // The same for the ES module: the preload's integrity covers the import that follows it.
      await tab.goto(pageOrigin + '/tampered-module.html');
      await tab.waitForFunction(() => (globalThis as { loaded?: unknown }).loaded !== undefined);
      assert.equal(await tab.evaluate(() => (globalThis as { loaded?: unknown }).loaded), 'refused');
    },
  );
});
