import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as Tracker from '@tracker/node';
import type { InternalOptions } from '@tracker/sdk-core';
import { startReceiver, type Receiver } from '../../core/test/receiver';

// Issue 29 on Node: breadcrumbs of console and outgoing HTTP, the cause chain, the source lines
// of in-app frames, and the request, against the built package and real local servers.
let receiver: Receiver;
let app: Receiver;
let dir: string;
before(async () => {
  [receiver, app] = await Promise.all([startReceiver(), startReceiver()]);
  dir = mkdtempSync(join(tmpdir(), 'tracker-node-evidence-'));
});
after(async () => {
  await Tracker.close(100);
  await Promise.all([receiver.close(), app.close()]);
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  receiver.reset();
  app.reset();
});

/** `new Error(message, { cause })` of ES2022, which the SDK's TypeScript lib level does not type. */
const withCause = <E extends Error>(error: E, cause: unknown): E => Object.assign(error, { cause });
const FAST: InternalOptions = { retryDelaysMs: [50, 100], timeoutMs: 2_000 };
const dsn = () => `http://et_nodekey@${receiver.origin.slice(7)}/1`;
function start(options: Tracker.NodeOptions = {}) {
  Tracker.init({ dsn: dsn(), exitOnFatal: false, _internal: FAST, ...options } as Tracker.NodeOptions);
}
const events = () => receiver.posts('/ingest/error').map((r) => r.body);
/** A port nothing listens on: a closed server's. */
async function closedPort(): Promise<number> {
  const spare = await startReceiver();
  await spare.close();
  return Number(new URL(spare.origin).port);
}
function httpGet(url: string): Promise<number> {
  return new Promise((resolve) => {
    get(url, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    }).on('error', () => resolve(0));
  });
}
/** The console wrapper calls the real console: kept quiet so the test output stays readable. */
function quiet(fn: () => void): void {
  const write = process.stderr.write;
  process.stderr.write = (() => true) as typeof process.stderr.write;
  try {
    fn();
  } finally {
    process.stderr.write = write;
  }
}

/** Writes `source` to `name` under the temporary folder; returns its path. */
function writeSource(name: string, source: string): string {
  const path = join(dir, name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, source);
  return path;
}

const APP_SOURCE = [
  '// line 1',
  '// line 2',
  '// line 3',
  '// line 4',
  '// line 5',
  '// line 6',
  'export function fail(reason) {',
  "  const error = new Error('app failed: ' + reason);",
  '  throw error;',
  '}',
  '// line 11',
  '// line 12',
  '// line 13',
  '// line 14',
  '// line 15',
].join('\n');
const APP_LINE_8 = "  const error = new Error('app failed: ' + reason);";

test("console warnings and errors, http and fetch requests arrive as breadcrumbs, oldest first; the SDK's own requests never", async () => {
  start();
  // A failing report of the SDK's own first: retried and dropped, it must leave no trace but "tracker".
  receiver.setMode('/ingest/error', { status: 503 });
  Tracker.captureMessage('lost report');
  await Tracker.flush(2_000);
  receiver.setMode('/ingest/error', null);
  app.serve('/page', 'ok', 'text/plain');
  app.setMode('/api/orders', { status: 500 });
  const closed = await closedPort();

  quiet(() => {
    console.warn('disk almost full: %d%%', 93);
    console.error(new TypeError('bad config'), 'extra');
  });
  assert.equal(await httpGet(app.origin + '/page?token=secret-http'), 200);
  assert.equal(await httpGet(app.origin + '/missing'), 404);
  assert.equal(await httpGet(`http://127.0.0.1:${closed}/down`), 0);
  const response = await fetch(app.origin + '/api/orders?token=secret-fetch', { method: 'POST', body: '{}' });
  assert.equal(response.status, 500);
  await response.text();
  await assert.rejects(fetch(`http://127.0.0.1:${closed}/gone`));
  Tracker.captureException(new Error('checkout failed'));
  assert.equal(await Tracker.flush(), true);

  const event = events().find((e) => e.message == 'checkout failed');
  const crumbs = event.breadcrumbs.map(({ timestamp, ...rest }: { timestamp: string }) => {
    assert.ok(!isNaN(Date.parse(timestamp)), timestamp);
    return rest;
  });
  const host = new URL(app.origin).host;
  assert.deepEqual(crumbs.slice(-8), [
    { category: 'tracker', message: 'Message: lost report', level: 'error' },
    { category: 'console', message: 'disk almost full: %d%% 93', level: 'warning' },
    { category: 'console', message: 'TypeError: bad config extra', level: 'error' },
    { category: 'http', level: 'info', data: { method: 'GET', host, path: '/page', status: 200 } },
    { category: 'http', level: 'warning', data: { method: 'GET', host, path: '/missing', status: 404 } },
    {
      category: 'http',
      level: 'error',
      data: { method: 'GET', host: `127.0.0.1:${closed}`, path: '/down', status: 0 },
    },
    { category: 'fetch', level: 'error', data: { method: 'POST', host, path: '/api/orders', status: 500 } },
    {
      category: 'fetch',
      level: 'error',
      data: { method: 'GET', host: `127.0.0.1:${closed}`, path: '/gone', status: 0 },
    },
  ]);
  const text = JSON.stringify(event.breadcrumbs);
  assert.doesNotMatch(text, /secret/, 'no query string');
  assert.doesNotMatch(text, /\/ingest\//, "none of the SDK's own requests, failed or not");
  assert.ok(receiver.posts('/ingest/error').length >= 4, 'the SDK did send (and retry) its own requests');
});

test('the console prints exactly what it printed without the SDK', async () => {
  const script = (withSdk: boolean) => `
    ${withSdk ? `const T = await import('@tracker/node'); T.init({ dsn: 'et_k', endpoint: 'http://127.0.0.1:9/ingest/error', exitOnFatal: false });` : ''}
    console.warn('a %s b %d', 'x', 4, { deep: { er: [1, 2] } });
    console.error(new RangeError('shown with its stack'));
    const result = console.error('returns');
    console.log(String(result));
  `;
  const run = (withSdk: boolean) =>
    new Promise<string>((resolve) => {
      const child = spawn(process.execPath, ['--input-type=module', '-e', script(withSdk)], {
        cwd: fileURLToPath(new URL('.', import.meta.url)),
        env: { ...process.env, NODE_OPTIONS: '' },
      });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      child.on('close', () => resolve(out));
    });
  const [plain, instrumented] = await Promise.all([run(false), run(true)]);
  // The stack's own lines differ only in where the script's code sits.
  const normalize = (text: string) => text.replace(/\n\s+at .*/g, '');
  assert.match(plain, /a x b 4 \{ deep: \{ er: \[ 1, 2 \] \} \}/);
  assert.equal(normalize(instrumented), normalize(plain));
});

test('the buffer keeps the last 50; breadcrumbs: false sends none and records none', async () => {
  start();
  quiet(() => {
    for (let i = 0; i < 60; i++) console.warn('warning ' + i);
  });
  Tracker.captureMessage('after sixty warnings');
  start({ breadcrumbs: false });
  quiet(() => console.warn('not recorded'));
  await httpGet(app.origin + '/not-recorded');
  Tracker.captureMessage('breadcrumbs off');
  start();
  Tracker.captureMessage('on again, history gone');
  assert.equal(await Tracker.flush(), true);
  const [sixty, off, again] = ['after sixty warnings', 'breadcrumbs off', 'on again, history gone'].map((m) =>
    events().find((e) => e.message == m),
  );
  assert.equal(sixty.breadcrumbs.length, 50);
  assert.deepEqual([sixty.breadcrumbs[0].message, sixty.breadcrumbs[49].message], ['warning 10', 'warning 59']);
  assert.equal(off.breadcrumbs, undefined);
  assert.equal(again.breadcrumbs, undefined, 'turning them off forgot the history');
});

test('the cause chain is sent, five deep at most, ending at a cycle or a non-Error cause', async () => {
  start();
  const root = new RangeError('socket closed');
  const middle = withCause(new Error('query failed'), root);
  Tracker.captureException(withCause(new Error('checkout failed'), middle));
  const looped: Error & { cause?: unknown } = new Error('loop a');
  looped.cause = withCause(new Error('loop b'), looped);
  Tracker.captureException(looped);
  let deep: unknown = new Error('level 8');
  for (let i = 7; i >= 1; i--) deep = withCause(new Error('level ' + i), deep);
  Tracker.captureException(deep);
  Tracker.captureException(withCause(new Error('with a plain cause'), { code: 'E_DB' }));
  Tracker.captureException(withCause(new Error('with a string cause'), 'timeout'));
  assert.equal(await Tracker.flush(), true);
  const causes = (message: string) => events().find((e) => e.message == message).causes;
  const top = causes('checkout failed');
  assert.deepEqual(
    top.map((c: { type: string; message: string }) => [c.type, c.message]),
    [
      ['Error', 'query failed'],
      ['RangeError', 'socket closed'],
    ],
  );
  assert.equal(top[1].stack, root.stack);
  assert.deepEqual(
    causes('loop a').map((c: { message: string }) => c.message),
    ['loop b'],
  );
  assert.deepEqual(
    causes('level 1').map((c: { message: string }) => c.message),
    ['level 2', 'level 3', 'level 4', 'level 5', 'level 6'],
  );
  assert.deepEqual(causes('with a plain cause'), [{ type: 'Object', message: '[object Object]' }]);
  assert.deepEqual(causes('with a string cause'), [{ type: 'string', message: 'timeout' }]);
});

test('source lines of in-app frames (ES module and CommonJS), spelled as in the stack; none for node_modules', async () => {
  start();
  const esm = writeSource('app/service.mjs', APP_SOURCE);
  const cjs = writeSource('app/legacy.cjs', APP_SOURCE.replace('export function fail', 'exports.fail = function fail'));
  const dep = writeSource('node_modules/dep/index.mjs', APP_SOURCE);
  const { fail } = await import(pathToFileURL(esm).href);
  const { fail: failCjs } = createRequire(import.meta.url)(cjs);
  const { fail: failDep } = await import(pathToFileURL(dep).href);
  const capture = (fn: (reason: string) => void, reason: string, cause?: unknown) => {
    try {
      fn(reason);
    } catch (error) {
      if (cause) (error as Error & { cause?: unknown }).cause = cause;
      Tracker.captureException(error);
    }
  };
  let causeError: unknown;
  try {
    failCjs('as a cause');
  } catch (error) {
    causeError = error;
  }
  capture(fail, 'esm', causeError);
  capture(failDep, 'dependency');
  assert.equal(await Tracker.flush(), true);

  const esmEvent = events().find((e) => e.message == 'app failed: esm');
  const esmUrl = pathToFileURL(esm).href;
  assert.match(esmEvent.stack, new RegExp(`${esmUrl}:8:`));
  const own = esmEvent.contextLines.find((c: { filename: string }) => c.filename == esmUrl);
  assert.deepEqual(own, {
    filename: esmUrl,
    lineno: 8,
    preContext: ['// line 3', '// line 4', '// line 5', '// line 6', 'export function fail(reason) {'],
    contextLine: "  const error = new Error('app failed: ' + reason);",
    postContext: ['  throw error;', '}', '// line 11', '// line 12', '// line 13'],
  });
  // The cause's frame: a CommonJS file, whose stack prints a plain path.
  const fromCause = esmEvent.contextLines.find((c: { filename: string }) => c.filename == cjs);
  assert.deepEqual([fromCause.lineno, fromCause.contextLine], [8, APP_LINE_8]);
  // This test file is in-app too: its frame is there, under the name the stack gives it.
  const testFile = fileURLToPath(import.meta.url);
  assert.ok(esmEvent.contextLines.some((c: { filename: string }) => c.filename.includes(testFile.split('/').pop()!)));

  const depEvent = events().find((e) => e.message == 'app failed: dependency');
  assert.match(depEvent.stack, /node_modules\/dep\/index\.mjs:8:/);
  assert.ok(depEvent.contextLines.length > 0, 'the test file frames still have lines');
  assert.ok(
    !depEvent.contextLines.some((c: { filename: string }) => c.filename.includes('node_modules')),
    JSON.stringify(depEvent.contextLines.map((c: { filename: string }) => c.filename)),
  );
  assert.ok(!JSON.stringify(depEvent.contextLines).includes('node:'), 'nor node internals');
});

test('a long line is cut to 200 characters around the column; a file over 1 MB is not read', async () => {
  start();
  const long = writeSource(
    'app/minified.mjs',
    `export function fail(){${' '.repeat(1_000)}throw new Error('minified')${';'.repeat(500)}}\n`,
  );
  const big = writeSource(
    'app/big.mjs',
    `export function fail(){ throw new Error('big') }\n//${'x'.repeat(Tracker.MAX_SOURCE_FILE_BYTES)}\n`,
  );
  for (const file of [long, big]) {
    const { fail } = await import(pathToFileURL(file).href);
    try {
      fail();
    } catch (error) {
      Tracker.captureException(error);
    }
  }
  assert.equal(await Tracker.flush(), true);
  const lines = (message: string, file: string) =>
    events()
      .find((e) => e.message == message)
      .contextLines.filter((c: { filename: string }) => c.filename == pathToFileURL(file).href);
  const [cut] = lines('minified', long);
  assert.equal(cut.contextLine.length, 200);
  assert.match(cut.contextLine, /throw new Error\('minified'\)/);
  assert.deepEqual(lines('big', big), []);
});

test('a deleted source file is skipped; the other frames keep their lines', async () => {
  start();
  const gone = writeSource('app/deleted.mjs', APP_SOURCE);
  const { fail } = await import(pathToFileURL(gone).href);
  rmSync(gone);
  try {
    fail('file gone');
  } catch (error) {
    Tracker.captureException(error);
  }
  assert.equal(await Tracker.flush(), true);
  const names = events()[0].contextLines.map((c: { filename: string }) => c.filename);
  assert.ok(!names.some((name: string) => name.includes('deleted.mjs')), names.join());
  assert.ok(names.includes(fileURLToPath(import.meta.url)), names.join());
});

test('a disk that does not answer in time delays the event by the bound only, then the lines come from cache', async () => {
  const appFile = writeSource('app/slow.mjs', APP_SOURCE);
  const child = spawn(process.execPath, [fileURLToPath(new URL('./fixtures/slow-disk.mjs', import.meta.url))], {
    env: {
      ...process.env,
      NODE_OPTIONS: '',
      UV_THREADPOOL_SIZE: '1',
      TRACKER_TEST_ENDPOINT: receiver.origin + '/ingest/error',
      APP_FILE: pathToFileURL(appFile).href,
    },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const code = await new Promise((resolve) => child.on('close', resolve));
  assert.equal(code, 0, stderr);
  const { sentAfterMs, sentBeforePoolFree } = JSON.parse(stdout);
  assert.ok(sentBeforePoolFree, 'the event did not wait for the busy thread pool');
  assert.ok(sentAfterMs >= Tracker.CONTEXT_LINES_TIMEOUT_MS - 5 && sentAfterMs < 600, `sent after ${sentAfterMs} ms`);
  const [late, cached] = events();
  assert.equal(late.message, 'app failed: while the pool is busy');
  assert.equal(late.contextLines, undefined);
  assert.equal(cached.message, 'app failed: after the pool is free');
  assert.ok(
    cached.contextLines.some(
      (c: { filename: string; contextLine: string }) =>
        c.filename == pathToFileURL(appFile).href && c.contextLine == APP_LINE_8,
    ),
  );
});

test('request: method and URL without its query, credentials headers left out', async () => {
  start();
  Tracker.captureException(new Error('in a handler'), {
    request: {
      method: 'POST',
      url: 'https://shop.example/orders/42?token=secret-query',
      headers: { 'user-agent': 'curl/8', cookie: 'session=secret-cookie', Authorization: 'Bearer secret-auth' },
      data: { items: 2 },
    },
  });
  assert.equal(await Tracker.flush(), true);
  assert.deepEqual(events()[0].request, {
    method: 'POST',
    url: 'https://shop.example/orders/42',
    headers: { 'user-agent': 'curl/8' },
    data: { items: 2 },
  });
});
