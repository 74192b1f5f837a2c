import assert from 'node:assert/strict';
import { beforeEach, test } from 'node:test';
import {
  captureException,
  captureMessage,
  DEDUP_WINDOW_MS,
  flush,
  getDroppedCounts,
  getStats,
  initClient,
  logger,
  RATE_WINDOW_MS,
  type DroppedCounts,
  type MakeRequest,
  type TransportResponse,
} from '../src/index';

/**
 * Every report the SDK gives up on is counted once, under the reason it was dropped for, and
 * every time-dependent rule (de-duplication window, per-page rate cap, 429 pause) runs on the
 * clock passed in: these tests move a fake clock, never sleep.
 */

const platform = { name: 'tracker.test', version: '9.9.9', capped: true };
let clock = { t: 0, now: () => clock.t };
let sent = 0;
let answer: () => TransportResponse | Promise<TransportResponse> = () => ({ status: 202 });
const makeRequest: MakeRequest = async () => {
  sent++;
  return answer();
};

let before: DroppedCounts;
let droppedBefore = 0;
/** What each reason counted since the test began. */
function counted(): Partial<DroppedCounts> {
  const now = getDroppedCounts();
  const diff: Partial<DroppedCounts> = {};
  for (const reason of Object.keys(now) as Array<keyof DroppedCounts>) {
    if (now[reason] !== before[reason]) diff[reason] = now[reason] - before[reason];
  }
  return diff;
}

beforeEach(() => {
  sent = 0;
  answer = () => ({ status: 202 });
  clock = { t: 5_000_000, now: () => clock.t };
  initClient(
    {
      dsn: 'et_key',
      endpoint: 'https://ingest.example/ingest/error',
      _internal: { makeRequest, clock, retryDelaysMs: [1, 1] },
    },
    platform,
  );
  before = getDroppedCounts();
  droppedBefore = getStats().dropped;
});

test('nothing is counted while every report is delivered', async () => {
  captureException(new Error('a'));
  await logger.info('b');
  await flush();
  assert.equal(sent, 2);
  assert.deepEqual(counted(), {});
});

test('a duplicate within the window is counted as duplicate; after the window it is sent', async () => {
  const error = new Error('same');
  captureException(error);
  captureException(error);
  captureException(error);
  clock.t += DEDUP_WINDOW_MS - 1;
  captureException(error);
  await flush();
  assert.equal(sent, 1);
  assert.deepEqual(counted(), { duplicate: 3 });
  clock.t += 1;
  captureException(error);
  await flush();
  assert.equal(sent, 2);
  assert.deepEqual(counted(), { duplicate: 3 });
});

test('errors and logs over the per-page cap are counted as rate_cap until the window slides', async () => {
  for (let i = 0; i < 70; i++) captureException(new Error('e' + i));
  for (let i = 0; i < 65; i++) void logger.info('l' + i);
  await flush();
  assert.equal(sent, 120);
  assert.deepEqual(counted(), { rate_cap: 15 });
  assert.equal(getStats().dropped - droppedBefore, 15, 'stats.dropped counts them too');
  clock.t += RATE_WINDOW_MS - 1;
  captureException(new Error('still capped'));
  clock.t += 1;
  captureException(new Error('a new window'));
  await flush();
  assert.equal(sent, 121);
  assert.deepEqual(counted(), { rate_cap: 16 });
});

test('a 429 and what is made during its Retry-After pause are counted as rate_limited', async () => {
  answer = () => ({ status: 429, retryAfterMs: 30_000 });
  captureMessage('over quota');
  await flush();
  answer = () => ({ status: 202 });
  captureMessage('during the pause');
  captureException(new Error('also during the pause'));
  clock.t += 29_999;
  captureMessage('at the end of the pause');
  await flush();
  assert.equal(sent, 1, 'sent during the pause');
  assert.deepEqual(counted(), { rate_limited: 4 });
  // The pause is per URL: logs still go out.
  await logger.info('a log');
  assert.equal(sent, 2);
  clock.t += 1;
  captureMessage('after the pause');
  await flush();
  assert.equal(sent, 3);
  assert.deepEqual(counted(), { rate_limited: 4 });
});

test('no answer, or a 5xx, after the last retry is counted once per report as network', async () => {
  answer = () => Promise.reject(new TypeError('fetch failed'));
  captureMessage('offline');
  await flush();
  assert.equal(sent, 3, 'two retries');
  answer = () => ({ status: 503 });
  captureMessage('server down');
  await flush();
  assert.equal(sent, 6);
  assert.deepEqual(counted(), { network: 2 });
});

test('a 413 is counted as too_large and another 4xx as rejected, neither retried', async () => {
  answer = () => ({ status: 413 });
  captureMessage('x'.repeat(2_000_000));
  await flush();
  answer = () => ({ status: 401 });
  captureMessage('bad key');
  await flush();
  assert.equal(sent, 2);
  assert.deepEqual(counted(), { too_large: 1, rejected: 1 });
});

test('a report that cannot be encoded is counted as unserializable', async () => {
  const user: Record<string, unknown> = { id: 'u1' };
  user.self = user;
  captureException(new Error('circular user'), { user });
  await flush();
  assert.equal(sent, 0);
  assert.deepEqual(counted(), { unserializable: 1 });
});
