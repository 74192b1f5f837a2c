import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { get } from 'node:http';
import { release } from 'node:os';
import { after, before, beforeEach, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import * as Server from '@tracker/next/server';
import { sleep, startReceiver, type Receiver } from '../../core/test/receiver';

// The built `@tracker/next/server`. Its state (whether register() started the SDK) lives for the
// process, so the tests run in order: edge and missing-DSN cases first, then the Node.js runtime.
let receiver: Receiver;
// What Next's edge runtime resolves `@tracker/next/server` to (the `edge-light` condition).
let Edge: typeof Server;
const saved = { NEXT_RUNTIME: process.env.NEXT_RUNTIME, TRACKER_DSN: process.env.TRACKER_DSN };
before(async () => {
  receiver = await startReceiver();
  Edge = await import(new URL('../dist/server.edge.mjs', import.meta.url).href);
});
after(async () => {
  await Server.close(100);
  await receiver.close();
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});
beforeEach(() => receiver.reset());

/** `new Error(message, { cause })` of ES2022, which the SDK's TypeScript lib level does not type. */
const withCause = <E extends Error>(error: E, cause: unknown): E => Object.assign(error, { cause });
const dsn = () => `http://et_nextkey@${receiver.origin.slice('http://'.length)}/1`;
const REQUEST = {
  path: '/orders/42?token=secret-query#frag',
  method: 'POST',
  headers: { cookie: 'session=secret-cookie', authorization: 'Bearer secret-auth' },
};
const CONTEXT = {
  routerKind: 'App Router',
  routePath: '/orders/[id]',
  routeType: 'render',
  renderSource: 'react-server-components',
  revalidateReason: undefined,
  renderType: 'dynamic',
};
const listeners = () => [process.listenerCount('uncaughtException'), process.listenerCount('unhandledRejection')];

test('NEXT_RUNTIME=edge: register() does nothing and onRequestError sends nothing, even with TRACKER_DSN', async () => {
  process.env.NEXT_RUNTIME = 'edge';
  process.env.TRACKER_DSN = dsn();
  const before = listeners();
  Server.register();
  Server.register({ dsn: dsn() });
  Server.onRequestError(new Error('edge boom'), REQUEST, CONTEXT);
  Server.captureMessage('not started');
  await sleep(200);
  assert.deepEqual(listeners(), before, 'no process hooks in the edge runtime');
  assert.equal(receiver.requests.length, 0);
  assert.equal(Server.getStats().sent, 0);
});

test('the edge build (export condition edge-light) has every export of the Node build and sends nothing', async () => {
  assert.deepEqual(Object.keys(Edge).sort(), Object.keys(Server).sort());
  process.env.NEXT_RUNTIME = 'edge';
  process.env.TRACKER_DSN = dsn();
  Edge.register();
  Edge.onRequestError(new Error('edge boom'), REQUEST, CONTEXT);
  assert.equal(Edge.captureException(new Error('x')), '');
  await Edge.logger.info('nothing');
  assert.equal(await Edge.flush(), true);
  await sleep(100);
  assert.equal(receiver.requests.length, 0);
});

test('Node.js runtime without TRACKER_DSN: register() and onRequestError do nothing', async () => {
  process.env.NEXT_RUNTIME = 'nodejs';
  delete process.env.TRACKER_DSN;
  const before = listeners();
  Server.register();
  Server.onRequestError(new Error('no dsn'), REQUEST, CONTEXT);
  await sleep(200);
  assert.deepEqual(listeners(), before);
  assert.equal(receiver.requests.length, 0);
});

test('Node.js runtime with TRACKER_DSN: onRequestError reports route context, never headers or the query', async () => {
  process.env.NEXT_RUNTIME = 'nodejs';
  process.env.TRACKER_DSN = dsn();
  // No register() first: an app exporting only onRequestError still reports.
  const error = Object.assign(new Error('render boom'), { digest: '123456' });
  Server.onRequestError(error, REQUEST, CONTEXT);
  assert.equal(await Server.flush(), true);
  const [sent] = receiver.posts('/ingest/error');
  assert.ok(sent, 'the event was sent');
  assert.equal(sent.body.message, 'render boom');
  assert.deepEqual(sent.body.context, {
    // The Node SDK's own (the server derives the runtime and os.name tags from them).
    runtime: { name: 'node', version: process.versions.node },
    os: { name: 'Linux', version: release() },
    next: {
      routerKind: 'App Router',
      routePath: '/orders/[id]',
      routeType: 'render',
      renderSource: 'react-server-components',
      renderType: 'dynamic',
      method: 'POST',
      path: '/orders/42',
      digest: '123456',
    },
  });
  assert.deepEqual(sent.body.tags, {
    'next.route_type': 'render',
    'next.router_kind': 'App Router',
    'next.route': '/orders/[id]',
  });
  assert.doesNotMatch(JSON.stringify(sent.body), /secret/);
});

test('register() options win, the release falls back like the uploader, and manual capture shares the SDK', async () => {
  process.env.NEXT_RUNTIME = 'nodejs';
  process.env.TRACKER_DSN = 'http://et_other@127.0.0.1:1/9';
  process.env.NEXT_PUBLIC_TRACKER_RELEASE = 'web@7';
  try {
    Server.register({ dsn: dsn(), environment: 'staging' });
  } finally {
    delete process.env.NEXT_PUBLIC_TRACKER_RELEASE;
  }
  const duplicates = Server.getDroppedCounts().duplicate;
  Server.captureMessage('manual');
  Server.captureMessage('manual');
  Server.onRequestError(new Error('after register'), REQUEST, { ...CONTEXT, routeType: 'action' });
  assert.equal(await Server.flush(), true);
  assert.equal(
    Server.getDroppedCounts().duplicate - duplicates,
    1,
    'the repeat is counted by the SDK register() started',
  );
  const events = receiver.posts('/ingest/error').map((r) => r.body);
  assert.deepEqual(
    events.map((e) => [e.message, e.environment, e.release]),
    [
      ['manual', 'staging', 'web@7'],
      ['after register', 'staging', 'web@7'],
    ],
  );
  assert.equal(receiver.posts('/ingest/error')[0].headers.authorization, 'DSN et_nextkey');
});

test('exitOnFatal defaults to false: an uncaught exception is reported and Next keeps serving', async () => {
  const script = `
    const Server = await import('@tracker/next/server');
    Server.register();
    setTimeout(() => { throw new Error('uncaught in a request'); }, 10);
    setTimeout(async () => { await Server.flush(); console.log('still alive'); process.exit(0); }, 500);
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: fileURLToPath(new URL('.', import.meta.url)),
    env: { ...process.env, NEXT_RUNTIME: 'nodejs', TRACKER_DSN: dsn(), NODE_OPTIONS: '' },
  });
  let stdout = '';
  child.stdout.on('data', (d) => (stdout += d));
  const code = await new Promise((resolve) => child.on('close', resolve));
  assert.equal(code, 0);
  assert.match(stdout, /still alive/);
  const [sent] = receiver.posts('/ingest/error');
  assert.deepEqual([sent.body.message, sent.body.level, sent.body.handled], ['uncaught in a request', 'fatal', false]);
});

test('inherits the Node SDK\'s evidence: console and HTTP breadcrumbs, causes, source lines; request without headers or query', async () => {
  process.env.NEXT_RUNTIME = 'nodejs';
  Server.register({ dsn: dsn() });
  const app = await startReceiver();
  try {
    app.serve('/product', 'ok', 'text/plain');
    const write = process.stderr.write;
    process.stderr.write = (() => true) as typeof process.stderr.write;
    try {
      console.error('render failed for', 'product 7');
    } finally {
      process.stderr.write = write;
    }
    await (await fetch(app.origin + '/product?session=secret-fetch')).text();
    await new Promise<void>((resolve) => get(app.origin + '/missing', (res) => res.resume().on('end', resolve)));
    const error = withCause(new Error('render boom with evidence'), new TypeError('upstream 503'));
    Server.onRequestError(error, REQUEST, CONTEXT);
    assert.equal(await Server.flush(), true);
  } finally {
    await app.close();
  }
  const sent = receiver.posts('/ingest/error').map((r) => r.body).find((b) => b.message == 'render boom with evidence');
  const host = new URL(app.origin).host;
  assert.deepEqual(
    sent.breadcrumbs.slice(-3).map(({ timestamp: _timestamp, ...rest }: { timestamp: string }) => rest),
    [
      { category: 'console', level: 'error', message: 'render failed for product 7' },
      { category: 'fetch', level: 'info', data: { method: 'GET', host, path: '/product', status: 200 } },
      { category: 'http', level: 'warning', data: { method: 'GET', host, path: '/missing', status: 404 } },
    ],
  );
  assert.deepEqual(sent.causes.map((c: { type: string; message: string }) => [c.type, c.message]), [['TypeError', 'upstream 503']]);
  const thisFile = fileURLToPath(import.meta.url);
  assert.ok(
    sent.contextLines.some((c: { filename: string; contextLine: string }) => c.filename == thisFile && c.contextLine.includes('render boom with evidence')),
    JSON.stringify(sent.contextLines.map((c: { filename: string }) => c.filename)),
  );
  // Where it was (context.next, for servers without the field) and as `request`; never headers.
  assert.deepEqual(sent.request, { method: 'POST', url: '/orders/42' });
  assert.deepEqual([sent.context.next.method, sent.context.next.path], ['POST', '/orders/42']);
  // (The source lines of this file do hold the word: they are the test's own code.)
  assert.doesNotMatch(JSON.stringify([sent.breadcrumbs, sent.request, sent.context]), /secret/);
});
