import assert from 'node:assert/strict';
import { release } from 'node:os';
import { after, before, beforeEach, test } from 'node:test';
import * as Tracker from '@tracker/node';
import type { InternalOptions } from '@tracker/sdk-core';
import { sleep, startReceiver, type Receiver } from '../../core/test/receiver';

let receiver: Receiver;
before(async () => {
  receiver = await startReceiver();
});
after(async () => {
  await Tracker.close(100);
  await receiver.close();
});
beforeEach(() => receiver.reset());

const FAST: InternalOptions = { retryDelaysMs: [100, 300], timeoutMs: 300 };

function start(options: Tracker.NodeOptions & { _internal?: InternalOptions } = {}) {
  Tracker.init({ dsn: `http://et_nodekey@${receiver.origin.slice(7)}/1`, exitOnFatal: false, _internal: FAST, ...options } as Tracker.NodeOptions);
}

test('captureException sends the wire-contract event from the built package', async () => {
  start({ environment: 'staging', release: 'api@1.2.0', tags: { service: 'api' } });
  const error = new TypeError('cannot read x');
  const id = Tracker.captureException(error, { user: { id: 7, email: 'a@example.com' }, tags: { route: '/pay' }, context: { cart: 3 }, fingerprint: ['pay'] });
  assert.equal(await Tracker.flush(), true);
  const [request] = receiver.posts('/ingest/error');
  assert.equal(request.headers.authorization, 'DSN et_nodekey');
  const body = request.body;
  assert.equal(body.eventId, id);
  assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.deepEqual(
    [body.type, body.message, body.stack, body.level, body.handled, body.environment, body.release],
    ['TypeError', 'cannot read x', error.stack, 'error', true, 'staging', 'api@1.2.0'],
  );
  assert.deepEqual(body.tags, { service: 'api', route: '/pay' });
  assert.deepEqual(body.user, { id: 7, email: 'a@example.com' });
  assert.deepEqual(body.context, {
    runtime: { name: 'node', version: process.versions.node },
    os: { name: 'Linux', version: release() },
    cart: 3,
  });
  assert.deepEqual(body.fingerprint, ['pay']);
  assert.deepEqual(body.sdk, { name: 'tracker.node', version: '0.5.0' });
  assert.equal(body.url, undefined);
  assert.ok(!isNaN(Date.parse(body.timestamp)));
});

test('a string fingerprint is sent as the string', async () => {
  start();
  Tracker.captureMessage('payment declined', { fingerprint: 'payment' });
  assert.equal(await Tracker.flush(), true);
  assert.equal(receiver.posts('/ingest/error')[0].body.fingerprint, 'payment');
});

test('a thrown non-Error becomes type Error with its JSON as message', async () => {
  start();
  Tracker.captureException({ code: 'E_TIMEOUT', after: 30 });
  Tracker.captureException('just a string');
  await Tracker.flush();
  const bodies = receiver.posts('/ingest/error').map((r) => r.body);
  assert.deepEqual(bodies.map((b) => [b.type, b.message]), [['Error', '{"code":"E_TIMEOUT","after":30}'], ['Error', 'just a string']]);
});

test('identical errors within 60 s are sent once', async () => {
  start();
  const error = new Error('same failure');
  const first = Tracker.captureException(error);
  const second = Tracker.captureException(error);
  Tracker.captureMessage('same message');
  Tracker.captureMessage('same message');
  await Tracker.flush();
  assert.equal(second, first, 'the duplicate answers with the id already sent');
  assert.equal(receiver.posts('/ingest/error').length, 2);
});

test('the dedup window ends: the same error is sent again afterwards', async () => {
  start({ _internal: { ...FAST, dedupWindowMs: 200 } });
  const error = new Error('again later');
  Tracker.captureException(error);
  await sleep(250);
  Tracker.captureException(error);
  await Tracker.flush();
  assert.equal(receiver.posts('/ingest/error').length, 2);
});

test('a 5xx is retried exactly twice with back-off, then given up and counted', async () => {
  start();
  receiver.setMode('/ingest/error', { status: 500 });
  const before = Tracker.getStats();
  Tracker.captureException(new Error('server down'));
  await Tracker.flush(3_000);
  const attempts = receiver.posts('/ingest/error');
  assert.equal(attempts.length, 3);
  assert.ok(attempts[1].at - attempts[0].at >= 90);
  assert.ok(attempts[2].at - attempts[1].at >= 290);
  assert.ok(new Set(attempts.map((a) => a.body.eventId)).size == 1, 'the same event each time');
  const stats = Tracker.getStats();
  assert.equal(stats.retried - before.retried, 2);
  assert.equal(stats.failed - before.failed, 1);
});

test('a hanging server times out and is retried twice', async () => {
  start();
  receiver.setMode('/ingest/error', 'hang');
  Tracker.captureException(new Error('slow server'));
  await Tracker.flush(5_000);
  assert.equal(receiver.posts('/ingest/error').length, 3);
});

test('a network error is retried twice without reaching the app', async () => {
  Tracker.init({ dsn: 'et_nodekey', endpoint: 'http://127.0.0.1:1/ingest/error', exitOnFatal: false, _internal: FAST } as Tracker.NodeOptions);
  const before = Tracker.getStats();
  const dropsBefore = Tracker.getDroppedCounts();
  assert.doesNotThrow(() => Tracker.captureException(new Error('nowhere')));
  await Tracker.logger.error('nowhere either');
  await Tracker.flush(3_000);
  const stats = Tracker.getStats();
  assert.equal(stats.retried - before.retried, 4);
  assert.equal(stats.failed - before.failed, 2);
  assert.equal(Tracker.getDroppedCounts().network - dropsBefore.network, 2, 'one count per report, not per attempt');
});

test('on 429 the SDK pauses for Retry-After and drops new events meanwhile', async () => {
  start();
  receiver.setMode('/ingest/error', { status: 429, retryAfter: '1' });
  Tracker.captureException(new Error('over quota'));
  await Tracker.flush();
  receiver.setMode('/ingest/error', null);
  Tracker.captureException(new Error('during pause 1'));
  Tracker.captureMessage('during pause 2');
  await Tracker.flush();
  assert.equal(receiver.posts('/ingest/error').length, 1, 'no retry of the 429, nothing sent during the pause');
  await sleep(1_100);
  Tracker.captureException(new Error('after pause'));
  await Tracker.flush();
  await sleep(100);
  assert.deepEqual(receiver.posts('/ingest/error').map((r) => r.body.message), ['over quota', 'after pause']);
});

test('logs go to /ingest/log on the origin, even behind a proxy prefix, and are awaitable', async () => {
  start({ endpoint: `${receiver.origin}/proxy/ingest/error`, environment: 'prod-eu', release: 'r9', tags: { a: 'b' } });
  await Tracker.logger.info('user signed in', { userId: 3 });
  await Tracker.logger.warning('slow');
  await Tracker.logger.debug('d');
  await Tracker.logger.warn('w');
  await Tracker.logger.error('e');
  const logs = receiver.posts('/ingest/log').map((r) => r.body);
  assert.deepEqual(logs.map((l) => l.level), ['info', 'warn', 'debug', 'warn', 'error']);
  assert.deepEqual({ ...logs[0], timestamp: 't' }, { level: 'info', message: 'user signed in', context: { userId: 3 }, environment: 'prod-eu', release: 'r9', tags: { a: 'b' }, timestamp: 't' });
  assert.equal(receiver.posts('/proxy/ingest/log').length, 0);
});

test('feedback goes to the prefixed feedback path, linked to the last event', async () => {
  start({ endpoint: `${receiver.origin}/proxy/ingest/error` });
  const id = Tracker.captureException(new Error('checkout failed'));
  assert.equal(Tracker.lastEventId(), id);
  await Tracker.captureFeedback({ message: 'I could not pay', email: 'u@example.com' });
  await Tracker.captureFeedback({ message: 'explicit', eventId: '00000000-0000-4000-8000-000000000000' });
  const feedback = receiver.posts('/proxy/ingest/feedback').map((r) => r.body);
  assert.deepEqual(feedback, [
    { message: 'I could not pay', email: 'u@example.com', eventId: id },
    { message: 'explicit', eventId: '00000000-0000-4000-8000-000000000000' },
  ]);
});

test('no feedback is sent when the endpoint does not end in /ingest/error', async () => {
  start({ endpoint: `${receiver.origin}/custom-collector` });
  Tracker.captureException(new Error('x'));
  await Tracker.captureFeedback({ message: 'lost on purpose' });
  await Tracker.flush();
  assert.equal(receiver.posts('/custom-collector').length, 1);
  assert.equal(receiver.requests.filter((r) => r.path.includes('feedback')).length, 0);
});

test('Node has no per-minute cap: 70 distinct errors are all sent', async () => {
  // A generous timeout: 70 requests at once on a loaded CI machine can outlast FAST's, and a
  // timed-out request is retried (the server de-duplicates it by eventId; we do the same here).
  start({ _internal: { ...FAST, timeoutMs: 10_000 } });
  const ids = new Set<string>();
  for (let i = 0; i < 70; i++) ids.add(Tracker.captureException(new Error('distinct ' + i)));
  await Tracker.flush(15_000);
  const received = new Set(receiver.posts('/ingest/error').map((r) => r.body.eventId));
  assert.equal(received.size, 70);
  assert.deepEqual([...received].sort(), [...ids].sort());
});

test('a bad or missing DSN is a silent no-op with no process listeners', async () => {
  await Tracker.close(5_000);
  receiver.reset();
  const listeners = process.listenerCount('uncaughtException');
  for (const dsn of ['garbage', '', undefined, 'https://nokey@host/1', 'et_abc']) {
    assert.doesNotThrow(() => Tracker.init({ dsn } as Tracker.NodeOptions));
    assert.doesNotThrow(() => Tracker.captureException(new Error('ignored')));
    assert.doesNotThrow(() => Tracker.captureMessage('ignored'));
    await Tracker.logger.info('ignored');
    await Tracker.captureFeedback({ message: 'ignored' });
  }
  assert.doesNotThrow(() => Tracker.init(undefined as never));
  await sleep(100);
  assert.equal(receiver.requests.length, 0);
  assert.equal(process.listenerCount('uncaughtException'), listeners);
});

test('init twice gives one listener and the new configuration', async () => {
  await Tracker.close(100);
  const uncaught = process.listenerCount('uncaughtException');
  const rejections = process.listenerCount('unhandledRejection');
  start({ environment: 'first' });
  start({ environment: 'second' });
  assert.equal(process.listenerCount('uncaughtException'), uncaught + 1);
  assert.equal(process.listenerCount('unhandledRejection'), rejections + 1);
  Tracker.captureMessage('which environment');
  await Tracker.flush();
  assert.equal(receiver.posts('/ingest/error')[0].body.environment, 'second');
  await Tracker.close(100);
  assert.equal(process.listenerCount('uncaughtException'), uncaught);
});
