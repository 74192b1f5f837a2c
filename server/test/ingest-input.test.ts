import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { Tracker } from '../src';
import { createTestEnv, sendError, signUpWithProject, startTracker, type TestEnv } from './helpers';

// The edge behaves the same in both modes (only the queue behind it differs, and the queue
// is covered by the end-to-end and durability suites), so this runs once, on PostgreSQL + Redis.
describe('ingest refuses bad input with the right status and an error body, and keeps serving', () => {
  let env: TestEnv;
  let tracker: Tracker;
  let url: string;
  let key: string;
  const valid = { type: 'Error', message: 'ok', environment: 'production' };

  before(async () => {
    env = await createTestEnv('postgres+redis');
    tracker = await startTracker(env, { roles: ['ingest', 'api'] });
    url = tracker.url;
    key = (await signUpWithProject(url)).key;
  });
  after(async () => {
    await tracker.close();
    await env.cleanup();
  });

  function expectError(r: { status: number; body: any }, status: number, code: string, message?: RegExp) {
    assert.equal(r.status, status, JSON.stringify(r.body));
    assert.equal(r.body.error.code, code);
    assert.equal(typeof r.body.error.message, 'string');
    if (message) assert.match(r.body.error.message, message);
  }

  test('no credential, a malformed one, and an unknown key are 401', async () => {
    const none = await fetch(`${url}/ingest/error`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(valid),
    });
    expectError({ status: none.status, body: await none.json() }, 401, 'UNAUTHENTICATED', /missing Authorization/);
    expectError(
      await sendError(url, key, valid, { authorization: `Bearer ${key}` }),
      401,
      'UNAUTHENTICATED',
      /malformed/,
    );
    expectError(await sendError(url, 'et_' + '0'.repeat(32), valid), 401, 'UNAUTHENTICATED', /unknown or disabled/);
  });

  test('malformed JSON, a non-object body and an empty body are 400', async () => {
    expectError(await sendError(url, key, '{"type": "Error",'), 400, 'BAD_USER_INPUT', /malformed JSON/);
    expectError(await sendError(url, key, '[1,2]'), 400, 'BAD_USER_INPUT', /must be a JSON object/);
    expectError(await sendError(url, key, 'null'), 400, 'BAD_USER_INPUT');
    expectError(await sendError(url, key, ''), 400, 'BAD_USER_INPUT');
  });

  test('missing or mistyped fields are 400 naming the field', async () => {
    expectError(
      await sendError(url, key, { message: 'm', environment: 'p' }),
      400,
      'BAD_USER_INPUT',
      /^type: is required/,
    );
    expectError(await sendError(url, key, { ...valid, environment: 42 }), 400, 'BAD_USER_INPUT', /^environment:/);
    expectError(await sendError(url, key, { ...valid, level: 'catastrophic' }), 400, 'BAD_USER_INPUT', /^level:/);
    expectError(
      await sendError(url, key, { ...valid, eventId: 'not-a-uuid' }),
      400,
      'BAD_USER_INPUT',
      /^eventId: must be a UUID/,
    );
    expectError(await sendError(url, key, { ...valid, timestamp: 'yesterday' }), 400, 'BAD_USER_INPUT', /^timestamp:/);
    expectError(await sendError(url, key, { ...valid, user: 'bob' }), 400, 'BAD_USER_INPUT', /^user:/);
    expectError(
      await sendError(url, key, { ...valid, fingerprint: 42 }),
      400,
      'BAD_USER_INPUT',
      /^fingerprint: must be a string or a non-empty array of strings/,
    );
    expectError(await sendError(url, key, { ...valid, fingerprint: [] }), 400, 'BAD_USER_INPUT', /^fingerprint:/);
    // A wrong type is not "is required" (zod 4 reports no input by default).
    expectError(await sendError(url, key, { ...valid, message: 7 }), 400, 'BAD_USER_INPUT', /^message: .*number/);
    // The wire contract (docs/wire.md) types fingerprint as a string; an array is accepted too.
    assert.equal((await sendError(url, key, { ...valid, fingerprint: 'checkout' })).status, 202);
    assert.equal((await sendError(url, key, { ...valid, fingerprint: ['checkout', 'eu'] })).status, 202);
  });

  test('a wrong content type is 415', async () => {
    const r = await fetch(`${url}/ingest/error`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', authorization: `DSN ${key}` },
      body: JSON.stringify(valid),
    });
    expectError({ status: r.status, body: await r.json() }, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  test('a 5 MB body is 413, announced or streamed, and the server stops reading at the limit', async () => {
    const big = JSON.stringify({ ...valid, message: 'x'.repeat(5 * 1024 * 1024) });
    expectError(await sendError(url, key, big), 413, 'PAYLOAD_TOO_LARGE', /1 MB/);

    // Chunked, no Content-Length: the answer must come while we are still able to send more.
    const { status, sentBytes } = await new Promise<{ status: number; sentBytes: number }>((resolve, reject) => {
      const req = httpRequest(`${url}/ingest/error`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `DSN ${key}`, 'transfer-encoding': 'chunked' },
      });
      let sent = 0;
      let answered = false;
      req.on('response', (res) => {
        answered = true;
        res.resume();
        resolve({ status: res.statusCode!, sentBytes: sent });
        req.destroy();
      });
      req.on('error', (err) => (answered ? undefined : reject(err)));
      const chunk = Buffer.alloc(64 * 1024, 'x');
      req.write('{"type":"Error","environment":"p","message":"');
      const pump = () => {
        if (answered) return;
        if (sent >= 5 * 1024 * 1024) return req.end('"}');
        sent += chunk.length;
        req.write(chunk, () => setTimeout(pump, 2));
      };
      pump();
    });
    assert.equal(status, 413);
    assert.ok(sentBytes < 5 * 1024 * 1024, `server read the whole body (${sentBytes} bytes) before answering`);
  });

  test('CORS: preflight from any origin allows Authorization and Content-Type; answers carry the origin header', async () => {
    const pre = await fetch(`${url}/ingest/error`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://shop.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    assert.equal(pre.status, 204);
    assert.equal(pre.headers.get('access-control-allow-origin'), '*');
    assert.match(pre.headers.get('access-control-allow-headers')!, /Authorization/);
    assert.match(pre.headers.get('access-control-allow-headers')!, /Content-Type/);
    assert.match(pre.headers.get('access-control-allow-methods')!, /POST/);
    const r = await sendError(url, key, valid, { origin: 'https://shop.example.com' });
    assert.equal(r.status, 202);
    assert.equal(r.headers.get('access-control-allow-origin'), '*');
    const denied = await sendError(url, 'et_' + '1'.repeat(32), valid);
    assert.equal(denied.headers.get('access-control-allow-origin'), '*', 'errors are readable cross-origin too');
  });

  test('an unknown ingest path is a JSON 404, and after all of the above the server still accepts', async () => {
    const r = await fetch(`${url}/ingest/nope`, { method: 'POST' });
    assert.equal(r.status, 404);
    assert.equal(((await r.json()) as any).error.code, 'NOT_FOUND');
    const ok = await sendError(url, key, valid);
    assert.equal(ok.status, 202);
    assert.equal((await fetch(`${url}/healthz`)).status, 200);
    const ready = await fetch(`${url}/readyz`);
    // `redis`: its persistence as read (docs/reliability.md), which depends on the machine's Redis.
    const { redis, ...rest } = (await ready.json()) as {
      redis: { restarts: number; persistence: { appendonly: string } };
    };
    assert.deepEqual(rest, {
      status: 'ready',
      database: 'postgres',
      queue: 'redis',
      checks: { database: 'ok', queue: 'ok' },
    });
    assert.equal(redis.restarts, 0);
    assert.match(redis.persistence.appendonly, /^(yes|no|unknown)$/);
  });
});
