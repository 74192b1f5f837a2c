import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { queryRows } from '@tracker/core';
import { processBatch } from '@tracker/ingest';
import type { Tracker } from '../src';
import {
  createTestEnv,
  gqlOk,
  MODES,
  sendError,
  signUpWithProject,
  startTracker,
  waitFor,
  type TestEnv,
} from './helpers';

type Kind = 'log' | 'vitals' | 'feedback';

async function send(
  baseUrl: string,
  kind: Kind,
  key: string | null,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${baseUrl}/ingest/${kind}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `DSN ${key}` } : {}), ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

/** A queue payload as the edge writes it (the worker validates it again with `decodeJob`). */
function job(kind: 'error' | Kind, projectId: string, body: Record<string, unknown>): string {
  const field = { error: 'event', log: 'log', vitals: 'vitals', feedback: 'feedback' }[kind];
  return JSON.stringify({ v: 1, kind, projectId, receivedAt: new Date().toISOString(), [field]: body });
}

const ISSUE_FEEDBACK = `query($id: ID!) { issue(id: $id) { id feedback { message email eventId } } }`;

for (const mode of MODES) {
  describe(`logs, vitals and feedback go in through their endpoints (${mode})`, () => {
    let env: TestEnv;
    let tracker: Tracker;
    let url: string;
    before(async () => {
      env = await createTestEnv(mode);
      tracker = await startTracker(env);
      url = tracker.url;
    });
    after(async () => {
      await tracker.close();
      await env.cleanup();
    });

    const rows = <T = any>(sql: string, params: unknown[]) => queryRows<T>(tracker.db.ds, sql, params);
    const rowById = async (table: string, projectId: string, id: string) =>
      (await rows(`SELECT * FROM ${table} WHERE project_id = $1 AND id = $2`, [projectId, id]))[0];

    test('a log is accepted with 202 and its id, and stored with environment, release and tags', async () => {
      const a = await signUpWithProject(url);
      const timestamp = new Date(Date.now() - 60_000).toISOString();
      const r = await send(url, 'log', a.key, {
        level: 'warn',
        message: 'cart is slow',
        context: { ms: 1200, route: '/cart' },
        environment: 'staging',
        release: 'web@4',
        tags: { region: 'eu', shard: 3 },
        timestamp,
      });
      assert.equal(r.status, 202);
      assert.match(r.body.id, /^[0-9a-f-]{36}$/);
      assert.equal(r.headers.get('access-control-allow-origin'), '*');
      const row = await waitFor('log row', () => rowById('logs', a.project.id, r.body.id));
      assert.deepEqual(
        [row.level, row.message, row.context, row.environment, row.release, row.tags],
        ['warn', 'cart is slow', { ms: 1200, route: '/cart' }, 'staging', 'web@4', { region: 'eu', shard: '3' }],
      );
      assert.equal(new Date(row.timestamp).toISOString(), timestamp);
      assert.ok(new Date(row.received_at).getTime() >= Date.parse(timestamp));

      // Only level and message are required; `warning` is read as `warn`.
      const minimal = await send(url, 'log', a.key, { level: 'warning', message: 'bare' });
      assert.equal(minimal.status, 202);
      const bare = await waitFor('bare log', () => rowById('logs', a.project.id, minimal.body.id));
      assert.deepEqual(
        [bare.level, bare.environment, bare.release, bare.tags, bare.context],
        ['warn', 'production', null, {}, null],
      );
    });

    test('a vitals report is stored with one column per metric and the URL without query or hash', async () => {
      const a = await signUpWithProject(url);
      const r = await send(url, 'vitals', a.key, {
        url: 'https://shop.example.com/checkout?token=secret#pay',
        metrics: { LCP: 1830.5, CLS: 0.12, FCP: 950, TTFB: 120.25 },
        environment: 'production',
        release: 'web@5',
        tags: { device: 'mobile' },
      });
      assert.equal(r.status, 202);
      assert.match(r.body.id, /^[0-9a-f-]{36}$/);
      const row = await waitFor('vitals row', () => rowById('vitals_reports', a.project.id, r.body.id));
      assert.equal(row.url, 'https://shop.example.com/checkout');
      assert.deepEqual([row.lcp, row.inp, row.cls, row.fcp, row.ttfb], [1830.5, null, 0.12, 950, 120.25]);
      assert.deepEqual([row.environment, row.release, row.tags], ['production', 'web@5', { device: 'mobile' }]);
    });

    test('a bad body is a 400 naming the field', async () => {
      const a = await signUpWithProject(url);
      const cases: Array<[Kind, unknown, RegExp]> = [
        ['log', { message: 'x' }, /^level: /],
        ['log', { level: 'verbose', message: 'x' }, /^level: /],
        ['log', { level: 'info' }, /^message: is required$/],
        ['log', { level: 'info', message: 'x', timestamp: 'yesterday' }, /^timestamp: must be an ISO 8601 date-time$/],
        ['log', [{ level: 'info', message: 'x' }], /^body: must be a JSON object$/],
        ['vitals', { metrics: { LCP: 1 } }, /^url: is required$/],
        ['vitals', { url: 'https://a.example/' }, /^metrics: is required$/],
        // Only a query or a fragment: nothing would be left to store (found by the fuzzer).
        ['vitals', { url: '#', metrics: { LCP: 1 } }, /^url: must have a page address before any \? or #$/],
        ['vitals', { url: '?token=abc', metrics: { LCP: 1 } }, /^url: must have a page address before any \? or #$/],
        [
          'vitals',
          { url: 'https://a.example/', metrics: {} },
          /^metrics: must contain one of LCP, INP, CLS, FCP, TTFB$/,
        ],
        ['vitals', { url: 'https://a.example/', metrics: { LCP: 'fast' } }, /^metrics\.LCP: /],
        ['vitals', { url: 'https://a.example/', metrics: { CLS: -1 } }, /^metrics\.CLS: /],
        ['feedback', { email: 'a@example.com' }, /^message: is required$/],
        ['feedback', { message: '   ' }, /^message: must not be empty$/],
        ['feedback', { message: 'hi', eventId: 'not-a-uuid' }, /^eventId: must be a UUID$/],
        ['feedback', '{"message": ', /^body: malformed JSON/],
      ];
      for (const [kind, body, message] of cases) {
        const r = await send(url, kind, a.key, body);
        assert.equal(r.status, 400, `${kind} ${JSON.stringify(body)}`);
        assert.equal(r.body.error.code, 'BAD_USER_INPUT');
        assert.match(r.body.error.message, message, `${kind} ${JSON.stringify(body)}`);
      }
    });

    test('without a key or with an unknown key the answer is 401, and CORS preflight is open', async () => {
      const bodies: Record<Kind, unknown> = {
        log: { level: 'info', message: 'x' },
        vitals: { url: 'https://a.example/', metrics: { LCP: 1 } },
        feedback: { message: 'x' },
      };
      for (const kind of ['log', 'vitals', 'feedback'] as const) {
        const missing = await send(url, kind, null, bodies[kind]);
        assert.equal(missing.status, 401, kind);
        assert.equal(missing.body.error.code, 'UNAUTHENTICATED');
        const unknown = await send(url, kind, `et_${'0'.repeat(32)}`, bodies[kind]);
        assert.equal(unknown.status, 401, kind);
        assert.match(unknown.body.error.message, /unknown or disabled DSN key/);
        const preflight = await fetch(`${url}/ingest/${kind}`, {
          method: 'OPTIONS',
          headers: {
            origin: 'https://shop.example.com',
            'access-control-request-method': 'POST',
            'access-control-request-headers': 'authorization, content-type',
          },
        });
        assert.equal(preflight.status, 204);
        assert.equal(preflight.headers.get('access-control-allow-origin'), '*');
        assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /Authorization/);
      }
    });

    test('a body over 1 MB is a 413', async () => {
      const a = await signUpWithProject(url);
      const r = await send(url, 'log', a.key, { level: 'info', message: 'x'.repeat(1024 * 1024 + 10) });
      assert.equal(r.status, 413);
      assert.equal(r.body.error.code, 'PAYLOAD_TOO_LARGE');
    });

    test('feedback sent after its event is linked to the event and its issue', async () => {
      const a = await signUpWithProject(url);
      const eventId = randomUUID();
      await sendError(url, a.key, {
        eventId,
        type: 'PaymentError',
        message: 'card declined',
        environment: 'production',
      });
      const [event] = await waitFor('event', async () => {
        const found = await rows<{ issue_id: string }>(
          'SELECT issue_id FROM events WHERE project_id = $1 AND event_id = $2',
          [a.project.id, eventId],
        );
        return found.length > 0 && found;
      });
      const r = await send(url, 'feedback', a.key, {
        message: 'I was charged twice',
        email: 'buyer@example.com',
        eventId: eventId.toUpperCase(),
      });
      assert.equal(r.status, 202);
      const row = await waitFor('feedback row', () => rowById('feedback', a.project.id, r.body.id));
      assert.deepEqual(
        [row.event_id, row.issue_id, row.message, row.email],
        [eventId, event.issue_id, 'I was charged twice', 'buyer@example.com'],
      );
      const detail = await gqlOk(url, ISSUE_FEEDBACK, { id: event.issue_id }, a.token);
      assert.deepEqual(detail.issue.feedback, [
        { message: 'I was charged twice', email: 'buyer@example.com', eventId },
      ]);
    });

    test('feedback sent before its event waits for it, then is linked when the event is stored', async () => {
      const a = await signUpWithProject(url);
      const eventId = randomUUID();
      const r = await send(url, 'feedback', a.key, { message: 'the page went blank', eventId });
      assert.equal(r.status, 202);
      const waiting = await waitFor('feedback row', () => rowById('feedback', a.project.id, r.body.id));
      assert.deepEqual([waiting.event_id, waiting.issue_id, waiting.email], [eventId, null, null]);

      await sendError(url, a.key, { eventId, type: 'RenderError', message: 'blank page', environment: 'production' });
      const linked = await waitFor('feedback linked', async () => {
        const row = await rowById('feedback', a.project.id, r.body.id);
        return row.issue_id && row;
      });
      const [event] = await rows<{ issue_id: string }>(
        'SELECT issue_id FROM events WHERE project_id = $1 AND event_id = $2',
        [a.project.id, eventId],
      );
      assert.equal(linked.issue_id, event.issue_id);
      const detail = await gqlOk(url, ISSUE_FEEDBACK, { id: event.issue_id }, a.token);
      assert.deepEqual(detail.issue.feedback, [{ message: 'the page went blank', email: null, eventId }]);
    });

    test('feedback and its event in one batch are linked; feedback naming another tenant’s event is not', async () => {
      const a = await signUpWithProject(url, 'A');
      const b = await signUpWithProject(url, 'B');
      const eventId = randomUUID();
      const outcome = await processBatch(tracker.db.ds, [
        job('error', a.project.id, { eventId, type: 'E', message: 'm', environment: 'production' }),
        job('feedback', a.project.id, { id: randomUUID(), message: 'same batch', eventId }),
        job('feedback', b.project.id, { id: randomUUID(), message: 'not yours', eventId }),
      ]);
      assert.deepEqual([outcome.inserted, outcome.feedback.inserted, outcome.feedback.linked], [1, 2, 1]);
      const stored = await rows<{ project_id: string; issue_id: string | null }>(
        'SELECT project_id, issue_id FROM feedback WHERE event_id = $1',
        [eventId],
      );
      assert.equal(stored.find((f) => f.project_id === a.project.id)?.issue_id !== null, true);
      assert.equal(stored.find((f) => f.project_id === b.project.id)?.issue_id, null);
    });

    test('the same id twice is stored once, whether sent twice or delivered twice', async () => {
      const a = await signUpWithProject(url);
      const ids = { log: randomUUID(), vitals: randomUUID(), feedback: randomUUID() };
      const bodies: Record<Kind, unknown> = {
        log: { id: ids.log, level: 'error', message: 'sent twice' },
        vitals: { id: ids.vitals, url: 'https://a.example/', metrics: { TTFB: 80 } },
        feedback: { id: ids.feedback, message: 'sent twice' },
      };
      for (const kind of ['log', 'vitals', 'feedback'] as const) {
        const first = await send(url, kind, a.key, bodies[kind]);
        const second = await send(url, kind, a.key, bodies[kind]);
        assert.deepEqual(
          [first.status, first.body.id, second.status, second.body.id],
          [202, ids[kind], 202, ids[kind]],
        );
      }
      // A marker sent afterwards proves the worker has passed both copies of each.
      const marker = await send(url, 'log', a.key, { level: 'info', message: 'marker' });
      await waitFor('marker', () => rowById('logs', a.project.id, marker.body.id));
      for (const [table, id] of [
        ['logs', ids.log],
        ['vitals_reports', ids.vitals],
        ['feedback', ids.feedback],
      ]) {
        const [{ n }] = await rows<{ n: number }>(
          `SELECT count(*)::int AS n FROM ${table} WHERE project_id = $1 AND id = $2`,
          [a.project.id, id],
        );
        assert.equal(n, 1, table);
      }

      // Redelivery of one job (a worker that died before its ack), and one job twice in a batch.
      const payload = job('log', a.project.id, { id: randomUUID(), level: 'debug', message: 'redelivered' });
      const once = await processBatch(tracker.db.ds, [payload]);
      const again = await processBatch(tracker.db.ds, [payload, payload]);
      assert.deepEqual(
        [once.logs, again.logs],
        [
          // No LOG_MATCH rule here, so no alert deliveries either time.
          { inserted: 1, duplicates: 0, alertDeliveryIds: [] },
          { inserted: 0, duplicates: 2, alertDeliveryIds: [] },
        ],
      );
    });
  });
}
