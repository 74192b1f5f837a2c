import assert from 'node:assert/strict';
import { beforeEach, test } from 'node:test';
import {
  captureException,
  captureFeedback,
  captureMessage,
  flush,
  getStats,
  initClient,
  lastEventId,
  logger,
  sendVitals,
  type MakeRequest,
  type TransportRequest,
} from '../src/index';

const platform = { name: 'tracker.test', version: '9.9.9', capped: true, url: () => 'https://page.example/a' };
let sent: TransportRequest[] = [];
let clock = { t: 0, now() { return this.t; } };
const makeRequest: MakeRequest = async (request) => {
  sent.push(request);
  return { status: 202 };
};
const bodies = (path: string) => sent.filter((r) => r.url.endsWith(path)).map((r) => JSON.parse(r.body));

beforeEach(() => {
  sent = [];
  clock = { t: 5_000_000, now() { return this.t; } };
  initClient(
    { dsn: 'https://et_key@ingest.example/1', endpoint: 'https://app.example/proxy/ingest/error', environment: 'staging', release: 'r1', tags: { team: 'a', region: 'eu' }, _internal: { makeRequest, clock } },
    platform,
  );
});

test('an error event follows the wire contract', async () => {
  const error = new RangeError('out of range');
  const id = captureException(error, {
    tags: { region: 'us' },
    context: { orderId: 7 },
    user: { id: 'u1', email: 'u@example.com', plan: 'pro' },
    fingerprint: ['checkout'],
    release: 'r2',
  });
  await flush();
  const [body] = bodies('/proxy/ingest/error');
  assert.equal(body.eventId, id);
  assert.equal(lastEventId(), id);
  assert.deepEqual(
    { ...body, timestamp: typeof body.timestamp },
    {
      eventId: id,
      type: 'RangeError',
      message: 'out of range',
      stack: error.stack,
      level: 'error',
      handled: true,
      fingerprint: ['checkout'],
      context: { orderId: 7 },
      user: { id: 'u1', email: 'u@example.com', plan: 'pro' },
      url: 'https://page.example/a',
      environment: 'staging',
      release: 'r2',
      tags: { team: 'a', region: 'us' },
      timestamp: 'string',
      sdk: { name: 'tracker.test', version: '9.9.9' },
    },
  );
  assert.ok(!isNaN(Date.parse(body.timestamp)));
  assert.equal(sent[0].key, 'et_key');
});

test('captureMessage sends type Message at the given level', async () => {
  captureMessage('disk almost full', { level: 'warning', url: 'https://other.example/' });
  await flush();
  const [body] = bodies('/ingest/error');
  assert.deepEqual([body.type, body.message, body.level, body.url, body.stack], ['Message', 'disk almost full', 'warning', 'https://other.example/', undefined]);
});

test('a duplicate within the window returns the first event id and is not sent', async () => {
  const error = new Error('same');
  const first = captureException(error);
  assert.equal(captureException(error), first);
  const again = captureMessage('x');
  assert.notEqual(first, again);
  assert.equal(captureMessage('x'), again);
  assert.equal(lastEventId(), again);
  await flush();
  assert.equal(bodies('/ingest/error').length, 2);
  clock.t += 60_000;
  assert.notEqual(captureMessage('x'), again);
});

test('a string fingerprint is sent as given; it and the one-entry array are one duplicate', async () => {
  const first = captureMessage('card declined', { fingerprint: 'checkout' });
  assert.equal(captureMessage('card declined', { fingerprint: ['checkout'] }), first);
  assert.notEqual(captureMessage('card declined', { fingerprint: ['check', 'out'] }), first);
  await flush();
  assert.deepEqual(
    bodies('/ingest/error').map((b) => b.fingerprint),
    ['checkout', ['check', 'out']],
  );
});

test("the platform's context goes with every event; the call's own keys win", async () => {
  initClient(
    { dsn: 'et_key', endpoint: 'https://x.example/ingest/error', _internal: { makeRequest, clock } },
    { ...platform, context: () => ({ runtime: { name: 'node', version: '20.20.2' }, userAgent: 'UA/1' }) },
  );
  captureMessage('one');
  captureMessage('two', { context: { userAgent: 'Custom/2', orderId: 7 } });
  await flush();
  assert.deepEqual(
    bodies('/ingest/error').map((b) => b.context),
    [
      { runtime: { name: 'node', version: '20.20.2' }, userAgent: 'UA/1' },
      { runtime: { name: 'node', version: '20.20.2' }, userAgent: 'Custom/2', orderId: 7 },
    ],
  );
});

test('logs go to the origin with environment, release and tags', async () => {
  await logger.warning('slow query', { ms: 900 });
  await logger.debug('tick');
  const [warn, debug] = bodies('/ingest/log');
  assert.equal(sent[0].url, 'https://app.example/ingest/log');
  assert.deepEqual({ ...warn, timestamp: 0 }, { level: 'warn', message: 'slow query', context: { ms: 900 }, environment: 'staging', release: 'r1', tags: { team: 'a', region: 'eu' }, timestamp: 0 });
  assert.equal(debug.level, 'debug');
});

test('feedback keeps the prefix and links to the last event unless told otherwise', async () => {
  const id = captureException(new Error('for feedback'));
  await captureFeedback({ message: 'it broke', email: 'u@example.com' });
  await captureFeedback({ message: 'other', eventId: 'abc' });
  assert.equal(sent[1].url, 'https://app.example/proxy/ingest/feedback');
  assert.deepEqual(bodies('/ingest/feedback'), [
    { message: 'it broke', email: 'u@example.com', eventId: id },
    { message: 'other', eventId: 'abc' },
  ]);
});

test('vitals carry url, metrics, environment, release and tags', async () => {
  await sendVitals('https://page.example/a', { LCP: 1200, CLS: 0.1 });
  assert.equal(sent[0].url, 'https://app.example/ingest/vitals');
  assert.deepEqual(bodies('/ingest/vitals')[0], { url: 'https://page.example/a', metrics: { LCP: 1200, CLS: 0.1 }, environment: 'staging', release: 'r1', tags: { team: 'a', region: 'eu' } });
});

test('a capped platform sends 60 errors and 60 logs per minute', async () => {
  for (let i = 0; i < 70; i++) captureException(new Error('e' + i));
  for (let i = 0; i < 70; i++) void logger.info('l' + i);
  await flush();
  assert.equal(bodies('/ingest/error').length, 60);
  assert.equal(bodies('/ingest/log').length, 60);
  clock.t += 60_000;
  captureException(new Error('later'));
  await flush();
  assert.equal(bodies('/ingest/error').length, 61);
});

test('nothing the host passes makes the SDK throw', async () => {
  const circular: any = {};
  circular.self = circular;
  const before = getStats();
  assert.doesNotThrow(() => captureException(circular, { context: circular }));
  assert.doesNotThrow(() => captureMessage(undefined as never, { context: { big: 10n } as never }));
  assert.doesNotThrow(() => captureException(Object.create(null)));
  const hostile = new Proxy({}, { get() { throw new Error('trap'); }, getPrototypeOf() { throw new Error('trap'); } });
  assert.doesNotThrow(() => captureException(hostile));
  await assert.doesNotReject(logger.info('x', circular));
  await assert.doesNotReject(captureFeedback(undefined as never));
  await flush();
  const circularEvent = bodies('/ingest/error')[0];
  assert.deepEqual(circularEvent.context, { unserializable: true });
  assert.ok(getStats().sent > before.sent);
});

test('a transport that throws is counted, not propagated', async () => {
  initClient({ dsn: 'et_key', endpoint: 'https://x.example/ingest/error', _internal: { makeRequest: () => { throw new Error('boom'); }, retryDelaysMs: [1, 1] } }, platform);
  const before = getStats();
  assert.doesNotThrow(() => captureException(new Error('y')));
  await flush();
  const after = getStats();
  assert.equal(after.failed - before.failed, 1);
  assert.equal(after.retried - before.retried, 2);
});

test('a bad DSN makes every call a silent no-op', async () => {
  assert.equal(initClient({ dsn: 'not-a-dsn', _internal: { makeRequest } }, platform), false);
  captureException(new Error('nope'));
  captureMessage('nope');
  await logger.error('nope');
  await captureFeedback({ message: 'nope' });
  await sendVitals('https://x/', { LCP: 1 });
  assert.equal(sent.length, 0);
  assert.equal(initClient(undefined as never, platform), false);
});
