import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import zlib from 'node:zlib';
import { queryRows } from '@tracker/core';
import { createTracker, type Tracker } from '../src';
import { createTestEnv, gqlOk, MODES, signUpWithProject, startTracker, waitFor, type TestEnv } from './helpers';
import { buildEnvelope, errorEvent, item, sentryEventId, uuidOf, type ItemSpec } from './sentry-envelope';

type Account = Awaited<ReturnType<typeof signUpWithProject>>;

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

async function post(
  url: string,
  path: string,
  body: Buffer | string,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const res = await fetch(`${url}${path}`, { method: 'POST', headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: kept as text for the assertion message
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

function numberOf(a: Account): string {
  return new URL(a.dsn).pathname.split('/').pop()!;
}

const MB = 1024 * 1024;

for (const mode of MODES) {
  describe(`Sentry envelope and store endpoints (${mode})`, () => {
    let env: TestEnv;
    let tracker: Tracker;
    let url: string;
    let a: Account;
    let b: Account;
    let envelopePath: string;

    before(async () => {
      env = await createTestEnv(mode);
      tracker = await startTracker(env);
      url = tracker.url;
      a = await signUpWithProject(url);
      b = await signUpWithProject(url, 'Other');
      envelopePath = `/api/${numberOf(a)}/envelope/?sentry_key=${a.key}&sentry_version=7`;
    });
    after(async () => {
      await tracker?.close();
      await env?.cleanup();
    });

    const send = (items: ItemSpec[], header: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
      post(url, envelopePath, buildEnvelope(header, items), { 'content-type': 'text/plain;charset=UTF-8', ...headers });

    const storedEvent = (eventId: string) =>
      waitFor(`event ${eventId}`, async () => {
        const rows = await queryRows<Record<string, any>>(
          tracker.db.ds,
          `SELECT e.*, i.title FROM events e JOIN issues i ON i.id = e.issue_id WHERE e.event_id = $1`,
          [eventId],
        );
        return rows[0];
      });

    test('projects have distinct numbers and the DSN ends in the number', () => {
      assert.match(a.dsn, /^http:\/\/et_[0-9a-f]{32}@localhost:\d+\/[1-9]\d*$/);
      assert.notEqual(numberOf(a), numberOf(b));
    });

    test('maps an error event: chained exception, frames innermost first, level, tags, user, request, contexts', async () => {
      const id = sentryEventId();
      const r = await send([item('event', errorEvent(id, { fingerprint: ['{{default}}', 42] }))], { event_id: id });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.deepEqual(r.body, { id });
      assert.equal(r.headers.get('access-control-allow-origin'), '*');
      const e = await storedEvent(uuidOf(id));
      assert.equal(e.type, 'TypeError');
      assert.equal(e.message, "Cannot read properties of undefined (reading 'id')");
      assert.equal(e.level, 'error');
      assert.equal(e.environment, 'staging');
      assert.equal(e.release, 'shop@1.2.3');
      assert.equal(e.handled, false);
      assert.equal(e.url, 'https://shop.example.com/cart');
      assert.deepEqual(
        e.frames.map((f: any) => [f.function, f.lineno, f.colno, f.inApp]),
        [
          ['loadCart', 7, 42, true],
          ['main', 3, 20, true],
          [null, 1, 10, false],
        ],
      );
      assert.equal(e.frames[0].filename, 'https://shop.example.com/static/app.js');
      // The event's own `browser` tag kept; `browser.name` derived from its `contexts.browser` (decision 046).
      assert.deepEqual(e.tags, { browser: 'Chrome', 'browser.name': 'Chrome', build: '1234', flag: 'true' });
      assert.equal(e.user.id, '42');
      assert.equal(e.user.email, 'ada@example.com');
      assert.equal(e.user.username, 'ada');
      assert.equal(e.context.browser.name, 'Chrome');
      assert.deepEqual(e.context.extra, { cartSize: 3 });
      // The chain (issue 29): the earlier exception is the thrown one's cause, with its own frames.
      assert.equal(e.context.causes, undefined);
      assert.deepEqual(
        e.causes.map((c: any) => [c.type, c.message]),
        [['RangeError', 'index out of range']],
      );
      assert.equal(e.request.url, 'https://shop.example.com/cart');
      assert.equal(e.context.request, undefined);
      assert.deepEqual(e.sdk, { name: 'sentry.javascript.browser', version: '10.0.0' });
      assert.deepEqual(e.fingerprint, ['{{ default }}', '42']);
      assert.match(
        e.stack,
        /^TypeError: Cannot read[^\n]*\n {4}at loadCart \(https:\/\/shop\.example\.com\/static\/app\.js:7:42\)/,
      );
    });

    test('a message event: logentry params interpolated, levels mapped, RFC 3339 timestamp, tags as pairs', async () => {
      const id = sentryEventId();
      const at = new Date(Date.now() - 60_000).toISOString().replace('Z', '');
      const r = await send([
        item('event', {
          event_id: id,
          level: 'warn',
          timestamp: at, // no zone: UTC
          logentry: { message: 'user %s paid %d', params: ['ada', 12] },
          tags: [
            ['region', 'eu'],
            ['shard', 3],
          ],
          user: { id: 'u-1' },
        }),
      ]);
      assert.equal(r.status, 200);
      const e = await storedEvent(uuidOf(id));
      assert.equal(e.type, 'Message');
      assert.equal(e.message, 'user ada paid 12');
      assert.equal(e.level, 'warning');
      assert.equal(e.environment, 'production');
      assert.equal(new Date(e.timestamp).toISOString(), `${at}Z`);
      assert.deepEqual(e.tags, { region: 'eu', shard: '3' });
      for (const [level, ours] of [
        ['critical', 'fatal'],
        ['debug', 'info'],
        ['log', 'info'],
        ['fatal', 'fatal'],
        ['warning', 'warning'],
      ]) {
        const other = sentryEventId();
        assert.equal((await send([item('event', { event_id: other, level, message: `level ${level}` })])).status, 200);
        assert.equal((await storedEvent(uuidOf(other))).level, ours, level);
      }
    });

    test('the same error sent twice groups into one issue with one user', async () => {
      const first = sentryEventId();
      const second = sentryEventId();
      await send([item('event', errorEvent(first, { release: 'grouping@1' }))]);
      await send([item('event', errorEvent(second, { release: 'grouping@1' }))]);
      const [x, y] = [await storedEvent(uuidOf(first)), await storedEvent(uuidOf(second))];
      assert.equal(x.issue_id, y.issue_id);
      const issue = await gqlOk(
        url,
        `query($id: ID!) { issue(id: $id) { eventCount userCount } }`,
        { id: x.issue_id },
        a.token,
      );
      assert.equal(issue.issue.userCount, 1);
      assert.ok(issue.issue.eventCount >= 2);
    });

    test('the store endpoint takes one event; any content type or none; with or without the trailing slash', async () => {
      for (const [path, headers] of [
        [
          `/api/${numberOf(a)}/store/`,
          { 'x-sentry-auth': `Sentry sentry_version=7, sentry_key=${a.key}, sentry_client=raven/1` },
        ],
        [
          `/api/${numberOf(a)}/store`,
          { authorization: `Sentry sentry_key=${a.key}`, 'content-type': 'application/octet-stream' },
        ],
      ] as const) {
        const id = sentryEventId();
        const r = await post(url, path, JSON.stringify(errorEvent(id)), headers);
        assert.equal(r.status, 200, JSON.stringify(r.body));
        assert.deepEqual(r.body, { id });
        await storedEvent(uuidOf(id));
      }
      // An envelope without a trailing slash, no content type (Node's SDK), key in the header.
      const id = sentryEventId();
      const r = await post(url, `/api/${numberOf(a)}/envelope`, buildEnvelope({}, [item('event', errorEvent(id))]), {
        'x-sentry-auth': `Sentry sentry_key=${a.key}`,
      });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      await storedEvent(uuidOf(id));
    });

    test('the key from the tunnel header dsn; 401 without a key or with keys that disagree; 403 unknown or another project', async () => {
      const path = `/api/${numberOf(a)}/envelope/`;
      const body = (header: Record<string, unknown>) =>
        buildEnvelope(header, [item('event', errorEvent(sentryEventId()))]);
      const tunnelled = await post(url, path, body({ dsn: a.dsn }));
      assert.equal(tunnelled.status, 200, JSON.stringify(tunnelled.body));

      const missing = await post(url, path, body({}));
      assert.equal(missing.status, 401);
      assert.equal(missing.body.error.code, 'UNAUTHENTICATED');
      assert.match(missing.headers.get('x-sentry-error') ?? '', /no DSN key/);
      assert.equal(missing.headers.get('access-control-allow-origin'), '*');
      assert.match(missing.headers.get('access-control-expose-headers') ?? '', /X-Sentry-Rate-Limits/);

      const disagree = await post(url, `${path}?sentry_key=${a.key}`, body({ dsn: b.dsn }));
      assert.equal(disagree.status, 401);

      const unknown = await post(url, `${path}?sentry_key=et_${'0'.repeat(32)}`, body({}));
      assert.equal(unknown.status, 403);
      assert.equal(unknown.body.error.code, 'FORBIDDEN');
      assert.ok(!JSON.stringify(unknown.body).includes('0'.repeat(32)), 'the key is not echoed');
      const garbage = await post(url, `${path}?sentry_key=nonsense`, body({}));
      assert.equal(garbage.status, 403);
      const otherProject = await post(url, `/api/${numberOf(b)}/envelope/?sentry_key=${a.key}`, body({}));
      assert.equal(otherProject.status, 403);
      const noProject = await post(
        url,
        `/api/999999/store/?sentry_key=${a.key}`,
        JSON.stringify(errorEvent(sentryEventId())),
      );
      assert.equal(noProject.status, 403);
    });

    test('CORS preflight answers any origin and the headers asked for', async () => {
      const res = await fetch(`${url}/api/${numberOf(a)}/envelope/`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://shop.example.com',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type, x-sentry-auth',
        },
      });
      assert.equal(res.status, 204);
      assert.equal(res.headers.get('access-control-allow-origin'), '*');
      assert.match(res.headers.get('access-control-allow-methods') ?? '', /POST/);
      assert.match(res.headers.get('access-control-allow-headers') ?? '', /x-sentry-auth/i);
    });

    test('feedback (captureFeedback) and user_report (captureUserFeedback) are stored and linked to their event', async () => {
      const id = sentryEventId();
      await send([item('event', errorEvent(id, { release: 'feedback@1' }))]);
      const e = await storedEvent(uuidOf(id));
      const feedbackId = sentryEventId();
      const r1 = await send([
        item('feedback', {
          event_id: feedbackId,
          type: 'feedback',
          contexts: {
            feedback: {
              message: 'The cart is empty',
              contact_email: 'ada@example.com',
              name: 'Ada',
              associated_event_id: id,
            },
          },
        }),
      ]);
      assert.equal(r1.status, 200, JSON.stringify(r1.body));
      const r2 = await send([
        item('user_report', { event_id: id, name: 'Bob', email: 'bob@example.com', comments: 'Broken again' }),
      ]);
      assert.equal(r2.status, 200, JSON.stringify(r2.body));
      assert.deepEqual(r2.body, {});
      const rows = await waitFor('two feedback rows', async () => {
        const found = await queryRows<{ id: string; message: string; email: string; issue_id: string }>(
          tracker.db.ds,
          `SELECT id, message, email, issue_id FROM feedback WHERE event_id = $1 ORDER BY message`,
          [uuidOf(id)],
        );
        return found.length === 2 && found.every((f) => f.issue_id) ? found : undefined;
      });
      assert.deepEqual(
        rows.map((f) => [f.message, f.email, f.issue_id]),
        [
          ['Broken again', 'bob@example.com', e.issue_id],
          ['The cart is empty', 'ada@example.com', e.issue_id],
        ],
      );
      assert.ok(rows.some((f) => f.id === uuidOf(feedbackId)));
    });

    test('logs (the v9+ log container and the older otel_log) are stored with their attributes', async () => {
      const now = Date.now() / 1000;
      const r = await send([
        item(
          'log',
          {
            items: [
              {
                timestamp: now,
                level: 'warn',
                body: 'disk almost full',
                trace_id: 'abc123',
                severity_number: 13,
                attributes: {
                  'sentry.environment': { value: 'prod-eu', type: 'string' },
                  'sentry.release': { value: 'logs@1', type: 'string' },
                  free_mb: { value: 12, type: 'integer' },
                },
              },
              { timestamp: now, level: 'trace', body: 'tick' },
              { timestamp: now, level: 'fatal', body: 'gone' },
            ],
          },
          { item_count: 3, content_type: 'application/vnd.sentry.items.log+json' },
        ),
        item('otel_log', {
          severityText: 'info',
          body: { stringValue: 'from otel' },
          attributes: [{ key: 'shard', value: { intValue: 7 } }],
          timeUnixNano: String(Math.round(now * 1e9)),
        }),
      ]);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const logs = await waitFor('four logs', async () => {
        const rows = await queryRows<{
          level: string;
          message: string;
          environment: string;
          release: string;
          context: any;
        }>(
          tracker.db.ds,
          `SELECT level, message, environment, release, context FROM logs WHERE project_id = $1 ORDER BY message`,
          [a.project.id],
        );
        return rows.length >= 4 ? rows : undefined;
      });
      const by = new Map(logs.map((l) => [l.message, l]));
      assert.equal(by.get('disk almost full')?.level, 'warn');
      assert.equal(by.get('disk almost full')?.environment, 'prod-eu');
      assert.equal(by.get('disk almost full')?.release, 'logs@1');
      assert.equal(by.get('disk almost full')?.context.free_mb, 12);
      assert.equal(by.get('disk almost full')?.context.trace_id, 'abc123');
      assert.equal(by.get('tick')?.level, 'debug');
      assert.equal(by.get('gone')?.level, 'error');
      assert.equal(by.get('from otel')?.context.shard, 7);
    });

    test('client reports, transactions, attachments and unknown items are read past; the envelope answers 200', async () => {
      const id = sentryEventId();
      const r = await send([
        // Sessions are kept since issue 30 (sentry-sessions.test.ts): a broken one is dropped alone.
        item('session', { sid: 'x', status: 'ok' }),
        item('client_report', { timestamp: Date.now() / 1000, discarded_events: [] }),
        item('transaction', { type: 'transaction', spans: [] }),
        item('attachment', Buffer.from([0, 1, 2, 10, 10, 255, 0]), { filename: 'core.dmp' }),
        item('replay_recording', Buffer.alloc(1000, 10)),
        item('something_new', 'not even json'),
        item('event', errorEvent(id)),
        item('profile', { frames: [] }),
      ]);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.deepEqual(r.body, { id });
      await storedEvent(uuidOf(id));
      const onlyDropped = await send([
        item('client_report', { discarded_events: [] }),
        // check_in is kept since issue 33 (monitors.e2e); replay_event is still read past.
        item('replay_event', { replay_id: 'r' }),
      ]);
      assert.equal(onlyDropped.status, 200);
      assert.deepEqual(onlyDropped.body, {});
      // A check-in without a monitor is a record we cannot use, so alone it is a 400 that says why.
      const badCheckIn = await send([item('check_in', { check_in_id: 'c' })]);
      assert.equal(badCheckIn.status, 400);
      assert.match(JSON.stringify(badCheckIn.body), /check_in/);
    });

    test('bad input: 400 or 413 or a dropped item, never a 5xx, never a valid item lost beside a bad one', async () => {
      const path = envelopePath;
      const ok = (id: string) => JSON.stringify(errorEvent(id));
      const cases: Array<{ name: string; body: Buffer | string; status: number; kept?: string[] }> = [];
      cases.push({ name: 'empty body', body: '', status: 400 });
      cases.push({ name: 'envelope header not JSON', body: 'not json\n{"type":"event"}\n{}', status: 400 });
      cases.push({ name: 'envelope header only', body: '{}', status: 200 });
      const t1 = sentryEventId();
      const full = buildEnvelope({}, [item('event', errorEvent(t1))]);
      cases.push({ name: 'truncated mid-item', body: full.subarray(0, full.length - 40), status: 400 });
      const t2 = sentryEventId();
      const t3 = sentryEventId();
      cases.push({
        name: 'a valid event, then an item whose length runs past the end',
        body: Buffer.concat([
          buildEnvelope({}, [item('event', errorEvent(t2))]),
          Buffer.from('{"type":"event","length":99999}\n{}'),
        ]),
        status: 200,
        kept: [t2],
      });
      cases.push({
        name: 'a length too short: the rest is unreadable, the event before is kept',
        body: Buffer.concat([
          buildEnvelope({}, [item('event', errorEvent(t3))]),
          Buffer.from(`{"type":"event","length":5}\n${ok(sentryEventId())}\n`),
        ]),
        status: 200,
        kept: [t3],
      });
      const t4 = sentryEventId();
      const t5 = sentryEventId();
      cases.push({
        name: 'two events in one envelope: both kept',
        body: buildEnvelope({}, [item('event', errorEvent(t4)), item('event', errorEvent(t5))]),
        status: 200,
        kept: [t4, t5],
      });
      const t6 = sentryEventId();
      cases.push({
        name: 'a non-JSON event beside a valid one',
        body: buildEnvelope({}, [item('event', '{"event_id": oops'), item('event', errorEvent(t6))]),
        status: 200,
        kept: [t6],
      });
      cases.push({ name: 'only a non-JSON event', body: buildEnvelope({}, [item('event', 'nope')]), status: 400 });
      cases.push({
        name: 'an event that is a JSON array',
        body: buildEnvelope({}, [item('event', [1, 2])]),
        status: 400,
      });
      cases.push({ name: 'an empty event payload', body: buildEnvelope({}, [item('event', '')]), status: 400 });
      cases.push({
        name: 'an event item over 1 MB',
        body: buildEnvelope({}, [item('event', errorEvent(sentryEventId(), { extra: { big: 'x'.repeat(1.1 * MB) } }))]),
        status: 413,
      });
      // What one envelope may carry (issue 28): past it, 413 and nothing taken (not even the valid event first).
      const refusedWhole = [sentryEventId(), sentryEventId()];
      cases.push({
        name: 'more than 1,000 items (sessions) after a valid event',
        body: buildEnvelope({}, [
          item('event', errorEvent(refusedWhole[0])),
          ...Array.from({ length: 1_000 }, () => item('session', { sid: 'x' })),
        ]),
        status: 413,
      });
      cases.push({
        name: 'more than 1,000 records to store: a valid event and a log container of 1,000 records',
        body: buildEnvelope({}, [
          item('event', errorEvent(refusedWhole[1])),
          item('log', { items: Array.from({ length: 1_000 }, (_, i) => ({ level: 'info', body: `l${i}` })) }),
        ]),
        status: 413,
      });
      cases.push({ name: 'item header not JSON', body: '{}\n{type: event}\n{}\n', status: 400 });
      cases.push({ name: 'a negative length', body: '{}\n{"type":"event","length":-1}\n{}\n', status: 400 });
      cases.push({ name: 'random bytes', body: Buffer.from([0xff, 0xfe, 0, 1, 2, 10, 3, 4]), status: 400 });
      const t7 = sentryEventId();
      cases.push({
        name: 'items without length, separated by newlines',
        body: Buffer.concat([Buffer.from('{}\n'), Buffer.from(`{"type":"event"}\n${ok(t7)}\n`)]),
        status: 200,
        kept: [t7],
      });
      cases.push({
        name: 'a feedback item with no message beside nothing else',
        body: buildEnvelope({}, [item('feedback', { contexts: { feedback: {} } })]),
        status: 400,
      });
      for (const c of cases) {
        const r = await post(url, path, c.body, { 'content-type': 'text/plain' });
        assert.equal(r.status, c.status, `${c.name}: ${JSON.stringify(r.body)}`);
        if (r.status >= 400) {
          assert.ok(r.body.error?.code && r.body.error.message, c.name);
          assert.ok(r.headers.get('x-sentry-error'), `${c.name}: X-Sentry-Error`);
        }
        for (const id of c.kept ?? []) await storedEvent(uuidOf(id));
      }
      // Events sent after them are stored by now (kept, above), so these would be too.
      const refusedStored = await queryRows(tracker.db.ds, 'SELECT 1 FROM events WHERE event_id = ANY($1::uuid[])', [
        refusedWhole.map(uuidOf),
      ]);
      assert.equal(refusedStored.length, 0, 'an envelope refused with 413 has nothing taken');
      // A store body that is not an event.
      for (const body of ['', 'nope', '[1]', '{"exception": 5}']) {
        const r = await post(url, `/api/${numberOf(a)}/store/?sentry_key=${a.key}`, body);
        assert.ok(r.status === 400 || r.status === 200, `store ${body}: ${r.status}`);
      }
    });

    test('fields that could be coerced never make a 400', async () => {
      const id = sentryEventId();
      const r = await send([
        item('event', {
          event_id: id,
          timestamp: 'yesterday',
          level: 'LOUD',
          environment: '',
          release: 12,
          exception: {
            values: [
              {
                type: 'E'.repeat(500),
                value: null,
                mechanism: { handled: 'yes' },
                stacktrace: { frames: [null, 5, { lineno: 'x', colno: -1 }] },
              },
            ],
          },
          tags: { ['k'.repeat(40)]: 'cut', ok: { nested: true }, nil: null },
          user: { id: 1.5, email: 7 },
          fingerprint: [{ a: 1 }, null],
          sdk: { name: 5 },
          request: { url: 42 },
          contexts: 'not an object',
          extra: [1, 2],
        }),
      ]);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const e = await storedEvent(uuidOf(id));
      assert.equal(e.environment, 'production');
      assert.equal(e.release, '12');
      assert.equal(e.level, 'error');
      assert.equal(e.frames.length, 1);
      assert.equal(e.frames[0].filename, '<unknown>');
      assert.deepEqual(e.fingerprint, ['{"a":1}', 'null']);
    });

    test('gzip, deflate (zlib and raw) and br bodies; Content-Encoding "" and UTF-8 mean none; corrupt data is a 400', async () => {
      const codings: Array<[string, (b: Buffer) => Buffer]> = [
        ['gzip', (x) => zlib.gzipSync(x)],
        ['deflate', (x) => zlib.deflateSync(x)],
        ['deflate', (x) => zlib.deflateRawSync(x)],
        ['br', (x) => zlib.brotliCompressSync(x)],
        ['', (x) => x],
        ['UTF-8', (x) => x],
      ];
      for (const [coding, encode] of codings) {
        const id = sentryEventId();
        const r = await post(url, envelopePath, encode(buildEnvelope({}, [item('event', errorEvent(id))])), {
          'content-encoding': coding,
        });
        assert.equal(r.status, 200, `${coding}: ${JSON.stringify(r.body)}`);
        await storedEvent(uuidOf(id));
      }
      const corrupt = await post(url, envelopePath, Buffer.from('definitely not gzip'), { 'content-encoding': 'gzip' });
      assert.equal(corrupt.status, 400);
      const truncated = zlib.gzipSync(buildEnvelope({}, [item('event', errorEvent(sentryEventId()))]));
      const cut = await post(url, envelopePath, truncated.subarray(0, truncated.length - 10), {
        'content-encoding': 'gzip',
      });
      assert.equal(cut.status, 400);
      const zstd = await post(url, envelopePath, Buffer.from('x'), { 'content-encoding': 'zstd' });
      assert.equal(zstd.status, 415);
    });

    test('decompression bombs (gzip, deflate, br) are 413 within a second, memory bounded; over-long bodies 413', async () => {
      const zeros = Buffer.alloc(256 * MB);
      const bombs: Array<[string, Buffer]> = [
        ['gzip', zlib.gzipSync(zeros, { level: 9 })],
        ['deflate', zlib.deflateSync(zeros, { level: 9 })],
        ['br', zlib.brotliCompressSync(zeros, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } })],
      ];
      const baseline = process.memoryUsage().rss;
      for (const [coding, bomb] of bombs) {
        const started = Date.now();
        const r = await post(url, envelopePath, bomb, { 'content-encoding': coding });
        const ms = Date.now() - started;
        assert.equal(r.status, 413, `${coding}: ${JSON.stringify(r.body)}`);
        assert.match(r.body.error.message, /20 MB once decoded/);
        assert.ok(ms < 1000, `${coding} bomb answered in ${ms} ms`);
        const store = await post(url, `/api/${numberOf(a)}/store/?sentry_key=${a.key}`, bomb, {
          'content-encoding': coding,
        });
        assert.equal(store.status, 413, `store ${coding}`);
      }
      const grewMb = (process.memoryUsage().rss - baseline) / MB;
      assert.ok(grewMb < 150, `RSS grew by ${grewMb.toFixed(0)} MB`);
      const tooLong = await post(url, envelopePath, Buffer.alloc(21 * MB, 0x20));
      assert.equal(tooLong.status, 413);
      assert.match(tooLong.headers.get('x-sentry-error') ?? '', /20 MB/);
    });

    test('uploaded source maps apply to Sentry frames', async () => {
      const token = (
        await gqlOk(
          url,
          `mutation($p: ID!) { createUploadToken(projectId: $p, name: "ci") { token } }`,
          { p: a.project.id },
          a.token,
        )
      ).createUploadToken.token;
      const map = JSON.stringify({
        version: 3,
        file: 'bundle.min.js',
        sources: ['src/cart.ts'],
        names: ['loadCart'],
        mappings: 'AAAAA',
      });
      const upload = await fetch(`${url}/ingest/sourcemaps`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ release: 'maps@1', files: [{ filename: 'bundle.min.js.map', map }] }),
      });
      assert.equal(upload.status, 200, await upload.text());
      const id = sentryEventId();
      const r = await send([
        item('event', {
          event_id: id,
          release: 'maps@1',
          exception: {
            values: [
              {
                type: 'Error',
                value: 'boom',
                stacktrace: {
                  frames: [
                    {
                      filename: 'https://shop.example.com/static/bundle.min.js',
                      function: 'a',
                      lineno: 1,
                      colno: 1,
                      in_app: true,
                    },
                  ],
                },
              },
            ],
          },
        }),
      ]);
      assert.equal(r.status, 200);
      const e = await storedEvent(uuidOf(id));
      assert.match(e.frames[0].filename, /cart\.ts$/, JSON.stringify(e.frames[0]));
      assert.equal(e.frames[0].lineno, 1);
    });
  });
}

describe('Sentry endpoints: quotas, rate limits and the public URL path prefix', () => {
  let env: TestEnv;
  let tracker: Tracker;
  let url: string;
  let a: Account;

  before(async () => {
    env = await createTestEnv('embedded', { publicUrl: 'http://localhost:1/tracker' });
    tracker = await createTracker({ config: env.config, quota: { eventLimitOverride: 2, logLimitOverride: 3 } });
    await tracker.listen();
    url = tracker.url;
    a = await signUpWithProject(url);
  });
  after(async () => {
    await tracker?.close();
    await env?.cleanup();
  });

  test('the DSN carries the path prefix, and the endpoints answer under it', async () => {
    assert.match(a.dsn, /^http:\/\/et_[0-9a-f]{32}@localhost:1\/tracker\/[1-9]\d*$/);
    const r = await post(
      url,
      `/tracker/api/${numberOf(a)}/envelope/?sentry_key=${a.key}`,
      buildEnvelope({}, [item('event', errorEvent(sentryEventId()))]),
    );
    assert.equal(r.status, 200, JSON.stringify(r.body));
  });

  test('over the event quota: 429 with Retry-After and X-Sentry-Rate-Limits for error;default; logs still taken', async () => {
    const path = `/api/${numberOf(a)}/envelope/?sentry_key=${a.key}`;
    // The prefix test used one unit; one more fits.
    assert.equal((await post(url, path, buildEnvelope({}, [item('event', errorEvent(sentryEventId()))]))).status, 200);
    const over = await post(url, path, buildEnvelope({}, [item('event', errorEvent(sentryEventId()))]));
    assert.equal(over.status, 429, JSON.stringify(over.body));
    assert.ok(Number(over.headers.get('retry-after')) > 0);
    assert.match(over.headers.get('x-sentry-rate-limits') ?? '', /^\d+:error;default:organization:usage_exceeded$/);
    assert.equal(over.headers.get('access-control-allow-origin'), '*');
    // An event refused beside logs taken: 200, and the header still tells the SDK to back off errors.
    const mixed = await post(
      url,
      path,
      buildEnvelope({}, [
        item('event', errorEvent(sentryEventId())),
        item('log', { items: [{ timestamp: Date.now() / 1000, level: 'info', body: 'l1' }] }),
      ]),
    );
    assert.equal(mixed.status, 200);
    assert.match(mixed.headers.get('x-sentry-rate-limits') ?? '', /error;default/);
    // Feedback is free of quota.
    const fb = await post(
      url,
      path,
      buildEnvelope({}, [item('user_report', { event_id: sentryEventId(), comments: 'still here' })]),
    );
    assert.equal(fb.status, 200);
    // Two more logs fit (3 in all), the third record is over the log quota.
    const logs = Array.from({ length: 3 }, (_, i) => ({
      timestamp: Date.now() / 1000,
      level: 'info',
      body: `l${i + 2}`,
    }));
    const partly = await post(url, path, buildEnvelope({}, [item('log', { items: logs })]));
    assert.equal(partly.status, 200);
    assert.match(partly.headers.get('x-sentry-rate-limits') ?? '', /:log_item:organization:/);
    const noLogs = await post(url, path, buildEnvelope({}, [item('log', { items: logs })]));
    assert.equal(noLogs.status, 429);
    assert.match(noLogs.headers.get('x-sentry-rate-limits') ?? '', /^\d+:log_item:organization:usage_exceeded$/);
    const stored = await waitFor('three logs', async () => {
      const rows = await queryRows<{ n: number }>(tracker.db.ds, `SELECT count(*)::int AS n FROM logs`, []);
      return rows[0].n === 3 ? rows : undefined;
    });
    assert.equal(stored[0].n, 3);
  });
});
