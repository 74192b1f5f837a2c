import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';
import { createFetchRequest, createTransport, parseRetryAfter, type Stats } from '../src/index';
import { sleep, startReceiver, type Receiver } from './receiver';

let receiver: Receiver;
before(async () => {
  receiver = await startReceiver();
});
after(() => receiver.close());
beforeEach(() => receiver.reset());

function makeTransport(overrides: { timeoutMs?: number; now?: () => number } = {}) {
  const clock = { now: overrides.now || Date.now };
  const stats: Stats = { sent: 0, failed: 0, retried: 0, dropped: 0, internalErrors: 0 };
  const drops = {
    duplicate: 0,
    rate_cap: 0,
    rate_limited: 0,
    network: 0,
    too_large: 0,
    rejected: 0,
    unserializable: 0,
  };
  const transport = createTransport({
    makeRequest: createFetchRequest(clock),
    clock,
    retryDelaysMs: [100, 300],
    timeoutMs: overrides.timeoutMs || 2_000,
    defaultRetryAfterMs: 60_000,
    stats,
    drops,
  });
  return { transport, stats, drops };
}

test('sends JSON with the DSN credential', async () => {
  const { transport, stats } = makeTransport();
  await transport.send(receiver.origin + '/ingest/error', 'et_key', '{"a":1}');
  const [request] = receiver.posts('/ingest/error');
  assert.equal(request.headers.authorization, 'DSN et_key');
  assert.equal(request.headers['content-type'], 'application/json');
  assert.deepEqual(request.body, { a: 1 });
  assert.equal(stats.sent, 1);
});

test('a 5xx is retried exactly twice, with growing back-off', async () => {
  receiver.setMode('/ingest/error', { status: 503 });
  const { transport, stats, drops } = makeTransport();
  await transport.send(receiver.origin + '/ingest/error', 'et_key', '{}');
  const attempts = receiver.posts('/ingest/error');
  assert.equal(attempts.length, 3);
  const gaps = [attempts[1].at - attempts[0].at, attempts[2].at - attempts[1].at];
  assert.ok(gaps[0] >= 90 && gaps[1] >= 290, `gaps ${gaps}`);
  assert.deepEqual([stats.retried, stats.failed, stats.sent], [2, 1, 0]);
  assert.equal(drops.network, 1);
});

test('a network error is retried twice', async () => {
  const { transport, stats, drops } = makeTransport();
  await transport.send('http://127.0.0.1:1/ingest/error', 'et_key', '{}');
  assert.deepEqual([stats.retried, stats.failed], [2, 1]);
  assert.equal(drops.network, 1);
});

test('a hanging server times out and is retried twice', async () => {
  receiver.setMode('/ingest/error', 'hang');
  const { transport, stats } = makeTransport({ timeoutMs: 150 });
  const started = Date.now();
  await transport.send(receiver.origin + '/ingest/error', 'et_key', '{}');
  assert.equal(receiver.posts('/ingest/error').length, 3);
  assert.ok(Date.now() - started < 2_000);
  assert.deepEqual([stats.retried, stats.failed], [2, 1]);
});

test('a recovered server gets the retried report once', async () => {
  receiver.setMode('/ingest/error', { status: 500 });
  const { transport, stats } = makeTransport();
  const sending = transport.send(receiver.origin + '/ingest/error', 'et_key', '{}');
  await receiver.waitFor(() => receiver.posts('/ingest/error').length == 1);
  receiver.setMode('/ingest/error', null);
  await sending;
  assert.equal(receiver.posts('/ingest/error').length, 2);
  assert.deepEqual([stats.sent, stats.failed], [1, 0]);
});

test('a 4xx other than 429 is not retried', async () => {
  receiver.setMode('/ingest/error', { status: 400 });
  const { transport, stats, drops } = makeTransport();
  await transport.send(receiver.origin + '/ingest/error', 'et_key', '{}');
  assert.equal(receiver.posts('/ingest/error').length, 1);
  assert.deepEqual([stats.retried, stats.failed], [0, 1]);
  assert.equal(drops.rejected, 1);
  receiver.setMode('/ingest/error', { status: 413 });
  await transport.send(receiver.origin + '/ingest/error', 'et_key', '{}');
  assert.equal(receiver.posts('/ingest/error').length, 2, 'a 413 is not retried');
  assert.deepEqual([drops.too_large, drops.rejected], [1, 1]);
});

test('429 pauses that URL for Retry-After, not the others', async () => {
  receiver.setMode('/ingest/error', { status: 429, retryAfter: '1' });
  const { transport } = makeTransport();
  const url = receiver.origin + '/ingest/error';
  await transport.send(url, 'et_key', '{}');
  assert.equal(receiver.posts('/ingest/error').length, 1, 'a 429 is not retried');
  assert.equal(transport.isPaused(url), true);
  assert.equal(transport.isPaused(receiver.origin + '/ingest/feedback'), false);
  await sleep(1_050);
  assert.equal(transport.isPaused(url), false);
});

test('flush waits for reports in flight, bounded by its timeout', async () => {
  receiver.setMode('/ingest/error', 'hang');
  const { transport } = makeTransport({ timeoutMs: 5_000 });
  void transport.send(receiver.origin + '/ingest/error', 'et_key', '{}');
  const started = Date.now();
  assert.equal(await transport.flush(200), false);
  assert.ok(Date.now() - started < 1_000);
  receiver.setMode('/ingest/error', null);
  const { transport: quick } = makeTransport();
  void quick.send(receiver.origin + '/ingest/error', 'et_key', '{}');
  assert.equal(await quick.flush(2_000), true);
});

test('an HTTP-date Retry-After pauses until that date on the clock passed in', async () => {
  let now = Date.parse('2030-01-01T00:00:00Z');
  receiver.setMode('/ingest/error', { status: 429, retryAfter: new Date(now + 30_000).toUTCString() });
  const { transport, drops } = makeTransport({ now: () => now });
  const url = receiver.origin + '/ingest/error';
  await transport.send(url, 'et_key', '{}');
  assert.equal(drops.rate_limited, 1);
  now += 29_999;
  assert.equal(transport.isPaused(url), true);
  now += 1;
  assert.equal(transport.isPaused(url), false);
});

test('Retry-After reads seconds and HTTP dates', () => {
  assert.equal(parseRetryAfter('30', 0), 30_000);
  assert.equal(parseRetryAfter(new Date(61_000).toUTCString(), 1_000), 60_000);
  assert.equal(parseRetryAfter(null, 0), undefined);
  assert.equal(parseRetryAfter('soon', 0), undefined);
});
