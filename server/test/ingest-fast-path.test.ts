import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { Tracker } from '../src';
import { createTestEnv, sendError, signUpWithProject, startTracker, type TestEnv } from './helpers';

/**
 * The fast path (ingest/src/http/fast-path.ts) answers plain `POST /ingest/error` requests
 * before fastify sees them. It must answer exactly as the fastify route does. The same request
 * goes once with `Content-Length` (fast path) and once chunked (which the fast path leaves to
 * fastify), and the answers are compared.
 */

interface Answer {
  status: number;
  headers: Record<string, string | undefined>;
  body: any;
}

const COMPARED_HEADERS = [
  'content-type',
  'access-control-allow-origin',
  'access-control-expose-headers',
  'retry-after',
];

function post(
  baseUrl: string,
  headers: Record<string, string>,
  body: string | Buffer,
  chunked: boolean,
): Promise<Answer> {
  const url = new URL('/ingest/error', baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: chunked ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const picked: Record<string, string | undefined> = {};
          for (const h of COMPARED_HEADERS) picked[h] = res.headers[h] as string | undefined;
          resolve({ status: res.statusCode!, headers: picked, body: text ? JSON.parse(text) : undefined });
        });
      },
    );
    req.on('error', reject);
    if (chunked) {
      // Two writes without a length: node sends Transfer-Encoding: chunked.
      const half = Math.floor(body.length / 2);
      req.write(typeof body === 'string' ? body.slice(0, half) : body.subarray(0, half));
      req.end(typeof body === 'string' ? body.slice(half) : body.subarray(half));
    } else {
      req.end(body);
    }
  });
}

const VALID = { type: 'TypeError', message: 'x is undefined', environment: 'production' };

describe('ingest fast path answers exactly like the fastify route', () => {
  let env: TestEnv;
  let tracker: Tracker;
  let key: string;

  before(async () => {
    env = await createTestEnv('postgres+redis');
    tracker = await startTracker(env);
    key = (await signUpWithProject(tracker.url)).key;
    // The fast path only takes keys this process already knows: warm the cache.
    assert.equal((await sendError(tracker.url, key, VALID)).status, 202);
  });

  after(async () => {
    await tracker?.close();
    await env?.cleanup();
  });

  const cases: Array<[string, string, Record<string, string>?]> = [
    ['a canonical event', JSON.stringify(VALID)],
    [
      'a canonical event with its own id',
      JSON.stringify({ ...VALID, eventId: '7d3f1a52-3c5b-4a34-9f1e-0b6f5a1d2c3e' }),
    ],
    ['an event zod has to normalise', JSON.stringify({ ...VALID, level: 'warning', tags: { a: 'b' }, release: null })],
    ['charset in the content type', JSON.stringify(VALID), { 'content-type': 'application/json; charset=utf-8' }],
    ['malformed JSON', '{"type": "TypeError", "message":'],
    ['a JSON array', '[1, 2]'],
    ['a JSON string', '"hello"'],
    ['a missing field', JSON.stringify({ type: 'TypeError', environment: 'production' })],
    ['a mistyped field', JSON.stringify({ ...VALID, message: 42 })],
    ['a bad event id', JSON.stringify({ ...VALID, eventId: 'not-a-uuid' })],
    ['a bad level', JSON.stringify({ ...VALID, level: 'catastrophic' })],
    ['a __proto__ key', '{"type":"TypeError","message":"m","environment":"p","__proto__":{"polluted":true}}'],
    [
      'a constructor.prototype key',
      '{"type":"TypeError","message":"m","environment":"p","constructor":{"prototype":{"x":1}}}',
    ],
    ['a large valid event', JSON.stringify({ ...VALID, context: { blob: 'x'.repeat(200_000) } })],
  ];

  for (const [name, body, extra] of cases) {
    test(name, async () => {
      const headers = { 'content-type': 'application/json', authorization: `DSN ${key}`, ...extra };
      const takenBefore = tracker.ingestFastPath!.taken;
      const fast = await post(tracker.url, headers, body, false);
      assert.equal(tracker.ingestFastPath!.taken, takenBefore + 1, 'the fast path took the request');
      const slow = await post(tracker.url, headers, body, true);
      assert.equal(tracker.ingestFastPath!.taken, takenBefore + 1, 'fastify took the chunked one');
      if (fast.status === 202) {
        // Each answer carries its own event id (or the one given).
        assert.match(fast.body.id, /^[0-9a-f-]{36}$/);
        assert.match(slow.body.id, /^[0-9a-f-]{36}$/);
        fast.body.id = slow.body.id = '<id>';
      }
      assert.deepEqual(fast, slow);
    });
  }

  test('requests it does not take reach fastify untouched', async () => {
    const before = tracker.ingestFastPath!.taken;
    const body = JSON.stringify(VALID);
    const h = { 'content-type': 'application/json', authorization: `DSN ${key}` };
    // Unknown key, no credential, other content type, query string: fastify answers.
    assert.equal(
      (await post(tracker.url, { ...h, authorization: `DSN et_${'0'.repeat(32)}` }, body, false)).status,
      401,
    );
    assert.equal((await post(tracker.url, { 'content-type': 'application/json' }, body, false)).status, 401);
    assert.equal((await post(tracker.url, { ...h, 'content-type': 'text/plain' }, body, false)).status, 415);
    const res = await fetch(`${tracker.url}/ingest/error?x=1`, { method: 'POST', headers: h, body });
    assert.equal(res.status, 202);
    await res.arrayBuffer();
    assert.equal(tracker.ingestFastPath!.taken, before);
  });

  test('a rate-limit refusal is the same on both paths, Retry-After included', async () => {
    const acct = await signUpWithProject(tracker.url);
    await tracker.db.ds.query('UPDATE project_keys SET rate_limit_per_second = 1 WHERE public_key = $1', [acct.key]);
    const headers = { 'content-type': 'application/json', authorization: `DSN ${acct.key}` };
    // The first request looks the key up (fastify); the next ones find it cached.
    for (let attempt = 0; attempt < 5; attempt++) {
      await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 5));
      await post(tracker.url, headers, JSON.stringify(VALID), true);
      const fast = await post(tracker.url, headers, JSON.stringify(VALID), false);
      const slow = await post(tracker.url, headers, JSON.stringify(VALID), true);
      if (fast.status !== 429 || slow.status !== 429) continue; // straddled a second: try again
      assert.deepEqual(fast, slow);
      assert.equal(fast.headers['retry-after'], '1');
      assert.equal(fast.body.error.code, 'RATE_LIMITED');
      return;
    }
    assert.fail('never saw two refusals within one second');
  });

  test('events accepted by the fast path are processed like any other', async () => {
    const acct = await signUpWithProject(tracker.url);
    await sendError(tracker.url, acct.key, VALID); // warm the key
    const headers = { 'content-type': 'application/json', authorization: `DSN ${acct.key}` };
    const before = tracker.ingestFastPath!.taken;
    for (let i = 0; i < 5; i++) {
      assert.equal(
        (await post(tracker.url, headers, JSON.stringify({ ...VALID, user: { id: `u${i}` } }), false)).status,
        202,
      );
    }
    assert.equal(tracker.ingestFastPath!.taken, before + 5);
    const deadline = Date.now() + 15_000;
    for (;;) {
      const rows: Array<{ event_count: number; user_count: number }> = await tracker.db.ds.query(
        `SELECT i.event_count, i.user_count FROM issues i JOIN projects p ON p.id = i.project_id
          JOIN project_keys k ON k.project_id = p.id WHERE k.public_key = $1`,
        [acct.key],
      );
      if (rows.length === 1 && Number(rows[0].event_count) === 6) {
        assert.equal(Number(rows[0].user_count), 5);
        break;
      }
      assert.ok(Date.now() < deadline, `issue not processed: ${JSON.stringify(rows)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  });

  test('bodies beyond ASCII, invalid UTF-8 included, are stored alike by both paths', async () => {
    // The fast path enqueues the bytes it received (never re-encoded); fastify's route enqueues
    // the decoded text. The worker must store the same event from either.
    const headers = { 'content-type': 'application/json', authorization: `DSN ${key}` };
    const bodies = [
      Buffer.from(JSON.stringify({ ...VALID, message: 'héllo → 日本 😀', tags: { city: 'Zürich' } })),
      Buffer.concat([
        Buffer.from('{"type":"TypeError","environment":"production","message":"bad '),
        Buffer.from([0xc3, 0x28, 0x80, 0xe6, 0x97]), // invalid sequences, a truncated one last
        Buffer.from(' bytes"}'),
      ]),
    ];
    const ids: Array<[string, string]> = [];
    for (const body of bodies) {
      const takenBefore = tracker.ingestFastPath!.taken;
      const fast = await post(tracker.url, headers, body, false);
      const slow = await post(tracker.url, headers, body, true);
      assert.equal(tracker.ingestFastPath!.taken, takenBefore + 1);
      assert.equal(fast.status, 202);
      assert.equal(slow.status, 202);
      ids.push([fast.body.id, slow.body.id]);
    }
    const stored = async (id: string) => {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const rows: Array<Record<string, unknown>> = await tracker.db.ds.query(
          'SELECT message, type, environment, tags FROM events WHERE event_id = $1',
          [id],
        );
        if (rows.length === 1) return rows[0];
        assert.ok(Date.now() < deadline, `event ${id} not stored`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    const [fastText, slowText] = await Promise.all(ids[0].map(stored));
    assert.equal(fastText.message, 'héllo → 日本 😀');
    assert.deepEqual(fastText, slowText);
    const [fastBad, slowBad] = await Promise.all(ids[1].map(stored));
    assert.equal(fastBad.message, `bad ${Buffer.from([0xc3, 0x28, 0x80, 0xe6, 0x97]).toString('utf8')} bytes`);
    assert.deepEqual(fastBad, slowBad);
  });
});
