import assert from 'node:assert/strict';
import { beforeEach, test } from 'node:test';
import {
  addBreadcrumb,
  captureException,
  captureMessage,
  flush,
  initClient,
  isOwnRequest,
  readCauses,
  type MakeRequest,
  type TransportRequest,
} from '../src/index';

let sent: TransportRequest[] = [];
const makeRequest: MakeRequest = async (request) => {
  sent.push(request);
  return { status: 202 };
};
const events = () => sent.filter((r) => r.url.includes('/ingest/error')).map((r) => JSON.parse(r.body));
const platform = { name: 'tracker.test', version: '9.9.9' };
const start = (options: Record<string, unknown> = {}) =>
  initClient(
    {
      dsn: 'https://et_key@ingest.example/1',
      endpoint: 'https://app.example/proxy/ingest/error?v=1',
      _internal: { makeRequest },
      ...options,
    },
    platform,
  );

beforeEach(() => {
  sent = [];
  start({ breadcrumbs: false });
  start();
});

test("a breadcrumb's URLs lose their query; texts are cut at 1,024 characters; captures are recorded after they are sent", async () => {
  addBreadcrumb({
    category: 'navigation',
    message: 'm'.repeat(2_000),
    data: { from: 'https://a.example/p?token=1#frag', to: '/q?x=2', long: 'x'.repeat(3_000), n: 4, ok: true },
  });
  captureMessage('first');
  captureException(new TypeError('second'));
  await flush();
  const [first, second] = events();
  assert.equal(first.breadcrumbs.length, 1);
  const [crumb] = first.breadcrumbs;
  assert.equal(crumb.message.length, 1_024);
  assert.deepEqual(
    { ...crumb.data, long: crumb.data.long.length },
    { from: 'https://a.example/p#frag', to: '/q', long: 1_024, n: 4, ok: true },
  );
  assert.deepEqual(
    second.breadcrumbs
      .slice(1)
      .map((c: { category: string; message: string; level: string }) => [c.category, c.message, c.level]),
    [['tracker', 'Message: first', 'error']],
  );
});

test("a platform's prepare step completes the event, and flush waits for it", async () => {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  initClient(
    { dsn: 'https://et_key@ingest.example/1', _internal: { makeRequest } },
    {
      ...platform,
      prepare: async (event, options) => {
        await gate;
        event.prepared = (options.tags || {}).step;
      },
    },
  );
  captureException(new Error('prepared'), { tags: { step: 'two' } });
  const flushed = flush(2_000);
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(events().length, 0, 'not sent before prepare settles');
  release();
  assert.equal(await flushed, true);
  assert.equal(events()[0].prepared, 'two');
});

test("the SDK's own endpoints are recognized, with or without a query", () => {
  assert.equal(isOwnRequest('https://app.example/proxy/ingest/error'), true);
  assert.equal(isOwnRequest('https://app.example/proxy/ingest/feedback?x'), true);
  assert.equal(isOwnRequest('https://app.example/ingest/log'), true);
  assert.equal(isOwnRequest('https://app.example/ingest/vitals'), true);
  assert.equal(isOwnRequest('https://app.example/api/orders'), false);
  assert.equal(isOwnRequest('https://ingest.example/ingest/error'), false, 'the DSN host is not the endpoint here');
});

test('readCauses: a throwing getter or toString ends the chain with what was read', () => {
  const bad = Object.create(null);
  const error = Object.assign(new Error('top'), { cause: Object.assign(new Error('middle'), { cause: bad }) });
  assert.deepEqual(
    readCauses(error)!.map((c) => c.message),
    ['middle'],
  );
  const trap = new Error('trap');
  Object.defineProperty(trap, 'cause', {
    get: () => {
      throw new Error('getter');
    },
  });
  assert.equal(readCauses(trap), undefined);
  assert.equal(readCauses('just a string'), undefined);
  assert.equal(readCauses(new Error('no cause')), undefined);
});
