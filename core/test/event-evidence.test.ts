import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  errorEventSchema,
  mapSentryEvent,
  MAX_BREADCRUMBS,
  prepareEvent,
  queuedErrorEventSchema,
  Scrubber,
  DEFAULT_PRIVACY_SETTINGS,
  FILTERED,
  type ErrorJob,
} from '../src';

const PROJECT = '0b7f4a3e-6d1c-4a8e-9b2f-1c3d5e7f9a0b';
const base = { type: 'TypeError', message: 'x is undefined', environment: 'production' };
const STACK = 'TypeError: x is undefined\n    at load (/app/src/cart.js:12:7)\n    at main (/app/src/main.js:3:1)';

function prepared(event: Record<string, unknown>, schema = errorEventSchema) {
  const parsed = schema.parse(event);
  const job: ErrorJob = {
    v: 1,
    kind: 'error',
    projectId: PROJECT,
    receivedAt: new Date().toISOString(),
    event: { ...parsed, eventId: '9ec79c33-ec99-42ab-8353-589fcb2e04dc' },
  };
  return prepareEvent(JSON.parse(JSON.stringify(job)) as ErrorJob);
}

function nested(levels: number): unknown {
  let v: unknown = 'bottom';
  for (let i = 0; i < levels; i++) v = { v };
  return v;
}

describe('the evidence of an error (issue 29): normalizing hostile input', () => {
  test('10,000 breadcrumbs: the newest 100 kept, oldest first', () => {
    const crumbs = Array.from({ length: 10_000 }, (_, i) => ({
      timestamp: 1764237600 + i,
      category: 'console',
      message: `line ${i}`,
    }));
    const out = errorEventSchema.parse({ ...base, breadcrumbs: crumbs });
    assert.equal(out.breadcrumbs!.length, MAX_BREADCRUMBS);
    assert.equal(out.breadcrumbs![0].message, 'line 9900');
    assert.equal(out.breadcrumbs![99].message, 'line 9999');
    assert.equal(out.breadcrumbs![99].timestamp, new Date((1764237600 + 9999) * 1000).toISOString());
  });

  test('breadcrumb fields are bounded; bad ones are dropped, not the event; a non-array is a 400 naming the field', () => {
    const out = errorEventSchema.parse({
      ...base,
      breadcrumbs: [
        { timestamp: 'yesterday', category: 'x' },
        null,
        {
          timestamp: '2026-11-27T10:00:00Z',
          category: 'c'.repeat(100),
          message: 'm'.repeat(5000),
          level: 'loud',
          data: { deep: nested(50), many: Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`k${i}`, i])) },
        },
      ],
    });
    assert.equal(out.breadcrumbs!.length, 1);
    const [b] = out.breadcrumbs!;
    assert.equal(b.category.length, 64);
    assert.equal(b.message!.length, 1024);
    assert.equal(b.level, undefined);
    assert.equal(Object.keys(b.data!.many as object).length, 50);
    assert.deepEqual(b.data!.deep, { v: { v: '[depth limit]' } });
    const bad = errorEventSchema.safeParse({ ...base, breadcrumbs: { values: [] } });
    assert.equal(bad.success, false);
    assert.match(bad.error!.issues[0].path.join('.'), /^breadcrumbs$/);
  });

  test('a chain of 1,000 causes keeps the nearest 10, each with frames parsed from its stack', () => {
    const causes = Array.from({ length: 1_000 }, (_, i) => ({
      type: `Cause${i}`,
      message: `because ${i}`,
      stack: `Cause${i}: because ${i}\n    at c${i} (/app/src/c.js:${i + 1}:1)`,
    }));
    const e = prepared({ ...base, stack: STACK, causes });
    assert.equal(e.causes!.length, 10);
    assert.equal(e.causes![0].type, 'Cause0');
    assert.deepEqual(
      e.causes![9].frames.map((f) => [f.function, f.lineno]),
      [['c9', 10]],
    );
  });

  test('context lines of 1 MB are cut to 200 characters a line and 5 lines a side, and land on their frames', () => {
    const huge = 'x'.repeat(1024 * 1024);
    const e = prepared({
      ...base,
      stack: STACK,
      causes: [{ type: 'RangeError', message: 'r', stack: 'RangeError: r\n    at deep (/app/src/deep.js:40:2)' }],
      contextLines: [
        {
          filename: '/app/src/cart.js',
          lineno: 12,
          preContext: Array.from({ length: 20 }, (_, i) => `pre ${i}`),
          contextLine: huge,
          postContext: [huge, 'after'],
        },
        {
          filename: '/app/src/deep.js',
          lineno: 40,
          preContext: [],
          contextLine: 'throw new RangeError()',
          postContext: [],
        },
        { filename: '/app/src/other.js', lineno: 1, preContext: [], contextLine: 'unused', postContext: [] },
      ],
    });
    const ctx = e.frames[0].context!;
    assert.equal(ctx.line.length, 200);
    assert.deepEqual(ctx.pre, ['pre 15', 'pre 16', 'pre 17', 'pre 18', 'pre 19']);
    assert.equal(ctx.post[0].length, 200);
    assert.equal(e.frames[1].context, undefined);
    assert.equal(e.causes![0].frames[0].context!.line, 'throw new RangeError()');
  });

  test('local variables 1,000 deep, non-string, and too many: stringified, cut, the first 50 kept', () => {
    const vars: Record<string, unknown> = { deep: nested(1_000), n: 42, ok: true, none: null, list: [1, 'a'] };
    for (let i = 0; i < 100; i++) vars[`v${i}`] = 'x'.repeat(600);
    const out = queuedErrorEventSchema.parse({
      ...base,
      frames: [{ filename: 'app.py', function: 'f', lineno: 1, colno: null, inApp: true, vars }],
    });
    const v = out.frames![0].vars!;
    assert.equal(Object.keys(v).length, 50);
    assert.equal(v.n, '42');
    assert.equal(v.ok, 'true');
    assert.equal(v.none, 'null');
    assert.equal(v.list, '[1,"a"]');
    assert.equal(v.deep.length, 500);
    assert.equal(v.v0.length, 500);
  });

  test('the request: bounded, non-string headers as text; nothing usable is no request', () => {
    const out = errorEventSchema.parse({
      ...base,
      request: { method: 'POST', url: 'u'.repeat(5000), headers: { 'X-N': 5, Empty: null }, data: nested(20) },
    });
    assert.equal(out.request!.url!.length, 2048);
    assert.deepEqual(out.request!.headers, { 'X-N': '5' });
    assert.deepEqual(out.request!.data, { v: { v: { v: '[depth limit]' } } });
    assert.equal(errorEventSchema.parse({ ...base, request: { cookies: 'a' } }).request, undefined);
  });
});

describe('grouping with a chain of causes (decision 040)', () => {
  test('our wire: the same top error groups alike with or without causes', () => {
    const alone = prepared({ ...base, stack: STACK });
    const chained = prepared({
      ...base,
      stack: STACK,
      causes: [{ type: 'RangeError', message: 'index', stack: 'RangeError: index\n    at other (/app/src/o.js:1:1)' }],
    });
    assert.equal(chained.groupingKey, alone.groupingKey);
    assert.equal(chained.title, alone.title);
  });

  test('Sentry: the thrown (last) exception groups, as before; the earlier ones are its causes, nearest first', () => {
    const thrown = {
      type: 'TypeError',
      value: 'x is undefined',
      stacktrace: {
        frames: [
          { filename: '/app/main.js', function: 'main', lineno: 3, in_app: true },
          { filename: '/app/cart.js', function: 'load', lineno: 12, in_app: true },
        ],
      },
    };
    const root = {
      type: 'SyntaxError',
      value: 'bad json',
      stacktrace: { frames: [{ filename: '/app/parse.js', function: 'parse', lineno: 1 }] },
    };
    const middle = {
      type: 'RangeError',
      value: 'index',
      stacktrace: { frames: [{ filename: '/app/idx.js', function: 'at', lineno: 9 }] },
    };
    const alone = prepared(mapSentryEvent({ exception: { values: [thrown] } }), queuedErrorEventSchema);
    const chained = prepared(mapSentryEvent({ exception: { values: [root, middle, thrown] } }), queuedErrorEventSchema);
    assert.equal(chained.groupingKey, alone.groupingKey);
    assert.equal(chained.type, 'TypeError');
    assert.deepEqual(
      chained.causes!.map((c) => [c.type, c.message, c.frames[0].function]),
      [
        ['RangeError', 'index', 'at'],
        ['SyntaxError', 'bad json', 'parse'],
      ],
    );
  });

  test('Sentry frames keep their source lines and local variables; breadcrumbs and the request are mapped', () => {
    const body = mapSentryEvent({
      exception: {
        values: [
          {
            type: 'ValueError',
            value: 'bad',
            stacktrace: {
              frames: [
                {
                  filename: 'app.py',
                  function: 'f',
                  lineno: 4,
                  pre_context: ['a', 'b'],
                  context_line: 'raise ValueError()',
                  post_context: ['c'],
                  vars: { n: 1, password: 'hunter2' },
                },
              ],
            },
          },
        ],
      },
      breadcrumbs: {
        values: [{ timestamp: 1764237600, type: 'http', level: 'warn', data: { url: '/a?token=t&x=1' } }],
      },
      request: {
        method: 'post',
        url: 'https://a.example/p',
        query_string: [
          ['token', 's'],
          ['q', '1'],
        ],
        headers: [['Cookie', 'a=b']],
        cookies: 'a=b',
        env: { REMOTE_ADDR: '1.2.3.4' },
      },
      contexts: { react: { componentStack: '\n    at Cart\n    at App' } },
    });
    const parsed = new Scrubber(DEFAULT_PRIVACY_SETTINGS).errorEvent(queuedErrorEventSchema.parse(body));
    const f = parsed.frames![0];
    assert.deepEqual(f.context, { pre: ['a', 'b'], line: 'raise ValueError()', post: ['c'] });
    assert.deepEqual(f.vars, { n: '1', password: FILTERED });
    assert.deepEqual(parsed.breadcrumbs, [
      {
        timestamp: '2025-11-27T10:00:00.000Z',
        category: 'http',
        level: 'warning',
        data: { url: `/a?token=${FILTERED}&x=1` },
      },
    ]);
    assert.deepEqual(parsed.request, {
      method: 'POST',
      url: 'https://a.example/p',
      queryString: `token=${FILTERED}&q=1`,
      headers: { Cookie: FILTERED },
    });
    assert.equal((parsed.context!.react as { componentStack: string }).componentStack, '\n    at Cart\n    at App');
  });
});
