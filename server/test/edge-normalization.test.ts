import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { MODES, createTestEnv, gqlOk, signUpWithProject, startTracker, waitFor, type TestEnv } from './helpers';
import type { Tracker } from '../src';

/**
 * Issue 15 §2: the edge answered 202 for bodies PostgreSQL cannot store (a NUL, a lone
 * surrogate, the year 0000, a 20,000-deep context) and they were lost minutes later. Now it
 * normalizes them as Relay does, so every 202 is stored, and refuses (400, fast) only JSON nested
 * beyond 1,000 levels. Each case goes through both the fast path (`application/json;
 * charset=utf-8`) and fastify's route (`application/json`), on both runtimes.
 */
const FAST = 'application/json; charset=utf-8';
const ROUTE = 'application/json';

for (const mode of MODES) {
  describe(`the edge stores what it accepts (${mode})`, () => {
    let env: TestEnv;
    let tracker: Tracker;
    let key: string;
    let projectId: string;
    let projectNumber: string;
    let uploadToken: string;
    before(async () => {
      // Business: release registration is a paid feature.
      env = await createTestEnv(mode, { defaultPlan: 'business' });
      tracker = await startTracker(env);
      const a = await signUpWithProject(tracker.url);
      key = a.key;
      projectId = a.project.id;
      projectNumber = new URL(a.dsn).pathname.split('/').pop()!;
      uploadToken = (
        await gqlOk(
          tracker.url,
          `mutation($p: ID!) { createUploadToken(projectId: $p, name: "CI") { token } }`,
          { p: projectId },
          a.token,
        )
      ).createUploadToken.token;
    });
    after(async () => {
      await tracker?.close();
      await env?.cleanup();
    });

    async function post(path: string, body: unknown, type = ROUTE, auth = `DSN ${key}`) {
      const res = await fetch(`${tracker.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': type, authorization: auth },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as any };
    }

    async function storedEvent(eventId: string) {
      return waitFor(`event ${eventId}`, async () => {
        const [row] = await tracker.db.ds.query(
          'SELECT message, type, release, stack, tags, context, "user", timestamp, received_at FROM events WHERE event_id = $1',
          [eventId],
        );
        return row;
      });
    }

    test('NUL and lone surrogates anywhere become U+FFFD, and the event is stored', async () => {
      for (const type of [FAST, ROUTE]) {
        const eventId = randomUUID();
        // Written as JSON text: a lone surrogate cannot survive JSON.stringify of a JS string.
        const text =
          `{"eventId":"${eventId}","type":"Type\\u0000Error","message":"a\\u0000b\\ud800c\\udfffd","environment":"production",` +
          `"release":"v1\\u0000.0","stack":"Error: x\\u0000\\n    at f (https://app.example.com/a\\u0000.js:1:2)",` +
          `"tags":{"k\\u0000":"v\\ud83d"},"context":{"deep\\u0000key":{"v":"\\u0000"}},"user":{"id":"u\\u0000","email":"e\\udc00@x.io"}}`;
        const r = await post('/ingest/error', text, type);
        assert.equal(r.status, 202, JSON.stringify(r.body));
        const row = await storedEvent(eventId);
        assert.equal(row.message, 'a\uFFFDb\uFFFDc\uFFFDd');
        assert.equal(row.type, 'Type\uFFFDError');
        assert.equal(row.release, 'v1\uFFFD.0');
        assert.ok(row.stack.includes('x\uFFFD'));
        assert.deepEqual(row.tags, { 'k\uFFFD': 'v\uFFFD' });
        assert.deepEqual(row.context, { 'deep\uFFFDkey': { v: '\uFFFD' } });
        assert.deepEqual(row.user, { id: 'u\uFFFD', email: 'e\uFFFD@x.io' });
      }
    });

    test('timestamps from the year 0000, 275760, 40 days ago or an hour ahead are replaced by the time received', async () => {
      for (const [type, timestamp] of [
        [FAST, '0000-01-01T00:00:00Z'],
        [ROUTE, '+275760-09-13T00:00:00.000Z'],
        [ROUTE, '275760-09-13T00:00:00Z'],
        [FAST, new Date(Date.now() - 40 * 86_400_000).toISOString()],
        [ROUTE, new Date(Date.now() + 3_600_000).toISOString()],
      ]) {
        const eventId = randomUUID();
        const r = await post('/ingest/error', { eventId, type: 'E', message: 'm', environment: 'p', timestamp }, type);
        if (r.status === 400) {
          // Not a date-time at all is still refused, naming the field.
          assert.match(r.body.error.message, /^timestamp:/);
          continue;
        }
        assert.equal(r.status, 202, `${timestamp}: ${JSON.stringify(r.body)}`);
        const row = await storedEvent(eventId);
        assert.equal(new Date(row.timestamp).getTime(), new Date(row.received_at).getTime(), timestamp);
        assert.equal(row.context._meta.timestamp.original, timestamp);
      }
      // A recent one is kept as sent.
      const eventId = randomUUID();
      const recent = new Date(Date.now() - 3_600_000).toISOString();
      assert.equal(
        (await post('/ingest/error', { eventId, type: 'E', message: 'm', environment: 'p', timestamp: recent }, FAST))
          .status,
        202,
      );
      const row = await storedEvent(eventId);
      assert.equal(new Date(row.timestamp).toISOString(), recent);
      assert.equal(row.context, null);
    });

    test('context, user and tags nested deeper than 10 levels are cut with a marker; past 1,000 the body is refused fast', async () => {
      const nest = (levels: number, leaf: unknown = 'leaf'): unknown => {
        let v = leaf;
        for (let i = 0; i < levels; i++) v = { n: v };
        return v;
      };
      for (const type of [FAST, ROUTE]) {
        const eventId = randomUUID();
        const r = await post(
          '/ingest/error',
          { eventId, type: 'E', message: 'm', environment: 'p', context: nest(30), user: { id: 'u', extra: nest(30) } },
          type,
        );
        assert.equal(r.status, 202, JSON.stringify(r.body));
        const row = await storedEvent(eventId);
        // The body is level 0 and context level 1: its objects keep levels 1 to 9.
        assert.deepEqual(row.context, nest(8, { n: '[depth limit]' }));
        assert.deepEqual(row.user, { id: 'u', extra: nest(7, { n: '[depth limit]' }) });

        for (const [depth, open, close] of [
          [1_001, '{"a":', '}'],
          [20_000, '{"a":', '}'],
          [450_000, '[', ']'], // as deep as fits in the 1 MB limit
        ] as const) {
          const text = `{"type":"E","message":"m","environment":"p","context":{"a":${open.repeat(depth)}1${close.repeat(depth)}}}`;
          const started = performance.now();
          const deep = await post('/ingest/error', text, type);
          const ms = performance.now() - started;
          assert.equal(deep.status, 400, `${depth}: ${JSON.stringify(deep.body)}`);
          assert.equal(deep.body.error.message, 'context: JSON nested deeper than 1000 levels');
          assert.ok(ms < 1_000, `${depth} levels took ${ms} ms`);
        }
        // 1,000 levels exactly is cut, not refused.
        const eventId2 = randomUUID();
        const ok = await post(
          '/ingest/error',
          `{"eventId":"${eventId2}","type":"E","message":"m","environment":"p","context":${'{"a":'.repeat(999)}1${'}'.repeat(999)}}`,
          type,
        );
        assert.equal(ok.status, 202, JSON.stringify(ok.body));
        await storedEvent(eventId2);
      }
    });

    test('80 tags keep the first 50, the rest counted as dropped; over-long fields are cut with …', async () => {
      for (const type of [FAST, ROUTE]) {
        const eventId = randomUUID();
        const tags = Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`t${i}`, `v${i}`]));
        const r = await post(
          '/ingest/error',
          { eventId, type: 'T'.repeat(300), message: 'm', environment: 'p', release: 'r'.repeat(250), tags },
          type,
        );
        assert.equal(r.status, 202, JSON.stringify(r.body));
        const row = await storedEvent(eventId);
        assert.deepEqual(
          Object.keys(row.tags),
          Array.from({ length: 50 }, (_, i) => `t${i}`),
        );
        assert.equal(row.context._meta.tags.dropped, 30);
        assert.equal(row.type, `${'T'.repeat(255)}…`);
        assert.equal(row.release, `${'r'.repeat(199)}…`);
      }
    });

    test('logs, vitals, feedback, releases and source maps with a NUL or a lone surrogate are stored', async () => {
      const logId = randomUUID();
      assert.equal(
        (
          await post(
            '/ingest/log',
            `{"id":"${logId}","level":"info","message":"l\\u0000g","context":{"k":"\\ud800"},"release":"r\\u0000","timestamp":"0000-01-01T00:00:00Z"}`,
          )
        ).status,
        202,
      );
      const vitalsId = randomUUID();
      assert.equal(
        (
          await post(
            '/ingest/vitals',
            `{"id":"${vitalsId}","url":"https://x.io/p\\u0000","metrics":{"LCP":1200},"release":"r\\udc00"}`,
          )
        ).status,
        202,
      );
      const feedbackId = randomUUID();
      assert.equal(
        (await post('/ingest/feedback', `{"id":"${feedbackId}","message":"f\\u0000b","email":"a\\u0000@x.io"}`)).status,
        202,
      );
      await waitFor('log, vitals and feedback rows', async () => {
        const [row] = await tracker.db.ds.query(
          `SELECT (SELECT message FROM logs WHERE id = $1) AS log,
                  (SELECT release FROM vitals_reports WHERE id = $2) AS vitals,
                  (SELECT message FROM feedback WHERE id = $3) AS feedback`,
          [logId, vitalsId, feedbackId],
        );
        return row.log && row.vitals && row.feedback ? row : undefined;
      }).then((row) => assert.deepEqual(row, { log: 'l\uFFFDg', vitals: 'r\uFFFD', feedback: 'f\uFFFDb' }));

      const release = await post('/ingest/release', `{"version":"9.9\\u0000.9"}`, ROUTE, `Bearer ${uploadToken}`);
      assert.equal(release.status, 200, JSON.stringify(release.body));
      assert.equal(release.body.version, '9.9\uFFFD.9');
      const map = JSON.stringify({ version: 3, file: 'app.js', sources: ['a\u0000.ts'], names: [], mappings: 'AAAA' });
      const maps = await post(
        '/ingest/sourcemaps',
        JSON.stringify({ release: 'r\u0000', files: [{ filename: 'app.js.map', map }] }),
        ROUTE,
        `Bearer ${uploadToken}`,
      );
      assert.equal(maps.status, 200, JSON.stringify(maps.body));
    });

    test('Sentry store: an `extra` or `contexts` that is no object is kept and cut at depth 10, never dropped silently (issue 28)', async () => {
      const store = (text: string) =>
        fetch(`${tracker.url}/api/${projectNumber}/store/?sentry_key=${key}`, { method: 'POST', body: text });
      const arrays = (levels: number) => `${'['.repeat(levels)}1${']'.repeat(levels)}`;
      const nestArrays = (levels: number, leaf: unknown): unknown => {
        let v = leaf;
        for (let i = 0; i < levels; i++) v = [v];
        return v;
      };
      const hex = () => randomUUID().replaceAll('-', '');
      const dashed = (h: string) => h.replace(/(.{8})(.{4})(.{4})(.{4})(.{12})/, '$1-$2-$3-$4-$5');

      const a = hex();
      const r = await store(`{"event_id":"${a}","message":"m","extra":${arrays(30)},"contexts":"text"}`);
      assert.equal(r.status, 200, await r.text());
      const row = await storedEvent(dashed(a));
      // The body is level 0, context 1, extra 2: its arrays keep levels 2 to 9.
      assert.deepEqual(row.context, { contexts: 'text', extra: nestArrays(8, '[depth limit]') });

      // 200,000 levels: refused as /ingest/error refuses JSON nested beyond 1,000, fast, naming the field.
      const started = performance.now();
      const deep = await store(`{"event_id":"${hex()}","message":"m","extra":${arrays(200_000)}}`);
      const body = (await deep.json()) as { error: { code: string; message: string } };
      assert.equal(deep.status, 400, JSON.stringify(body));
      assert.equal(body.error.message, 'context: JSON nested deeper than 1000 levels');
      assert.ok(performance.now() - started < 2_000);
    });

    test('a `__proto__` key: /ingest/* refuses it with a 400 naming the key; the Sentry door drops the key (issue 28)', async () => {
      for (const type of [FAST, ROUTE]) {
        for (const [context, named] of [
          ['{"__proto__":{"polluted":true}}', /a key "__proto__" is not accepted anywhere in the body/],
          ['{"a":{"constructor":{"prototype":{"polluted":true}}}}', /a key "constructor" holding "prototype" is not accepted/],
        ] as const) {
          const r = await post('/ingest/error', `{"type":"E","message":"m","environment":"p","context":${context}}`, type);
          assert.equal(r.status, 400, JSON.stringify(r.body));
          assert.equal(r.body.error.code, 'BAD_USER_INPUT');
          assert.match(r.body.error.message, named);
        }
      }
      const log = await post('/ingest/log', '{"level":"info","message":"m","environment":"p","context":{"__proto__":{}}}');
      assert.equal(log.status, 400);
      assert.match(log.body.error.message, /"__proto__"/);
      assert.equal(({} as Record<string, unknown>).polluted, undefined);

      const id = randomUUID().replaceAll('-', '');
      const sentry = await fetch(`${tracker.url}/api/${projectNumber}/store/?sentry_key=${key}`, {
        method: 'POST',
        body: `{"event_id":"${id}","message":"m","extra":{"kept":1,"__proto__":{"polluted":true}}}`,
      });
      assert.equal(sentry.status, 200, await sentry.text());
      const row = await storedEvent(id.replace(/(.{8})(.{4})(.{4})(.{4})(.{12})/, '$1-$2-$3-$4-$5'));
      assert.deepEqual(row.context, { extra: { kept: 1 } });
    });
  });
}

for (const mode of MODES) {
  describe(`GraphQL inputs are stored, never refused by the database (${mode})`, () => {
    let env: TestEnv;
    let tracker: Tracker;
    after(async () => {
      await tracker?.close();
      await env?.cleanup();
    });

    test('a NUL or a lone surrogate in a variable or a literal becomes U+FFFD', async () => {
      env = await createTestEnv(mode);
      tracker = await startTracker(env);
      const a = await signUpWithProject(tracker.url);
      const byVariable = await gqlOk(
        tracker.url,
        `mutation($org: ID!, $name: String!) { createProject(organizationId: $org, name: $name) { name } }`,
        { org: a.organization.id, name: 'Web\u0000 \ud800app' },
        a.token,
      );
      assert.equal(byVariable.createProject.name, 'Web\uFFFD \uFFFDapp');
      const byLiteral = await gqlOk(
        tracker.url,
        `mutation { createProject(organizationId: "${a.organization.id}", name: "Lit\\u0000eral") { name } }`,
        {},
        a.token,
      );
      assert.equal(byLiteral.createProject.name, 'Lit\uFFFDeral');
    });
  });
}
