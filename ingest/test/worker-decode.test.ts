import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { decodeJob, MAX_EVENT_MESSAGE_CHARS, MAX_STACK_CHARS, queuedErrorEventSchema } from '@tracker/core';
import { z } from 'zod';
import { generateJobs } from '../bench/worker-data';

/**
 * `decodeJob` skips the zod schema for error jobs already in the form the edge writes. Whatever
 * the payload, it must give what the schema gives (or throw where the schema throws): this
 * compares it with the schema run on every payload.
 */
const reference = z.object({
  v: z.literal(1),
  projectId: z.string().uuid(),
  receivedAt: z.string().datetime({ offset: true }),
  kind: z.literal('error'),
  event: queuedErrorEventSchema.extend({ eventId: z.string().uuid() }),
});

/** JSON with sorted keys and without undefined: what reaches the database. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, v[k]]),
        )
      : v,
  );
}

function outcome(run: () => unknown): { ok: true; value: string } | { ok: false } {
  try {
    return { ok: true, value: canonical(run()) };
  } catch {
    return { ok: false };
  }
}

function assertSameAsSchema(payload: string, note: string): void {
  const fast = outcome(() => decodeJob(payload));
  const schema = outcome(() => reference.parse(JSON.parse(payload)));
  assert.deepEqual(fast, schema, note);
}

const projectId = randomUUID();
const base = {
  v: 1,
  kind: 'error',
  projectId,
  receivedAt: '2026-11-22T03:58:20.009Z',
  event: {
    eventId: randomUUID(),
    message: 'Cannot read properties of undefined',
    type: 'TypeError',
    environment: 'production',
    level: 'error',
    release: 'web@1.2.3',
    stack: 'TypeError: x\n    at f (https://a.example/app.js:1:2)',
    fingerprint: ['{{ default }}', 'checkout'],
    tags: { region: 'eu', shard: '3' },
    context: { request: { method: 'GET' }, n: 1 },
    user: { id: 'u1', email: 'a@example.com', username: 'a' },
    url: 'https://a.example/cart',
    timestamp: '2026-11-22T03:58:19.000+01:00',
    handled: false,
    sdk: { name: '@tracker/browser', version: '0.1.0' },
  },
};

const frame = { filename: '/app/src/cart.js', function: 'lineTotal', lineno: 12, colno: 7, inApp: true };

function variant(change: (job: any) => void): string {
  const job = structuredClone(base) as any;
  change(job);
  return JSON.stringify(job);
}

describe('decodeJob', () => {
  test('the benchmark jobs decode exactly as the schema decodes them', () => {
    for (const payload of generateJobs(projectId, { events: 500, issues: 50, users: 100 }).payloads) {
      assertSameAsSchema(payload, payload.slice(0, 80));
    }
  });

  const cases: Array<[string, (job: any) => void]> = [
    ['every field set', () => undefined],
    [
      'only the required fields',
      (j) => (j.event = { eventId: j.event.eventId, message: '', type: 'E', environment: 'p' }),
    ],
    [
      'null for absent optional fields',
      (j) => Object.assign(j.event, { level: null, release: null, tags: null, user: null, sdk: null }),
    ],
    ['numbers and booleans as tag values', (j) => (j.event.tags = { n: 3, b: true, s: 'x' })],
    ['a tag value past 200 characters', (j) => (j.event.tags = { long: 'x'.repeat(201) })],
    ['a tag value of exactly 200 characters', (j) => (j.event.tags = { long: 'x'.repeat(200) })],
    ['a tag key past 32 characters', (j) => (j.event.tags = { ['k'.repeat(33)]: 'x' })],
    ['51 tags', (j) => (j.event.tags = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`t${i}`, 'x'])))],
    ['50 tags', (j) => (j.event.tags = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`t${i}`, 'x'])))],
    ['a numeric user id', (j) => (j.event.user = { id: 42, email: 'a@example.com' })],
    ['a null user id', (j) => (j.event.user = { id: null, email: 'a@example.com' })],
    ['a user with only other keys', (j) => (j.event.user = { ip_address: '10.0.0.1' })],
    ['a message past the limit', (j) => (j.event.message = 'm'.repeat(MAX_EVENT_MESSAGE_CHARS + 5))],
    ['a message at the limit', (j) => (j.event.message = 'm'.repeat(MAX_EVENT_MESSAGE_CHARS))],
    ['a stack past the limit', (j) => (j.event.stack = 's'.repeat(MAX_STACK_CHARS + 1))],
    ['an unknown event key', (j) => (j.event.extra = 'dropped by the schema')],
    ['an unknown job key', (j) => (j.extra = 1)],
    ['structured frames (Sentry SDKs)', (j) => (j.event.frames = [frame, { ...frame, function: null, lineno: null }])],
    ['no structured frames', (j) => (j.event.frames = [])],
    ['251 frames (the schema keeps 250)', (j) => (j.event.frames = Array.from({ length: 251 }, () => frame))],
    ['a frame with an unknown key', (j) => (j.event.frames = [{ ...frame, module: 'm' }])],
    ['a frame without inApp', (j) => (j.event.frames = [{ ...frame, inApp: undefined }])],
    ['a frame line of 0', (j) => (j.event.frames = [{ ...frame, lineno: 0 }])],
    ['a frame line past 2^53', (j) => (j.event.frames = [{ ...frame, lineno: 2 ** 53 }])],
    ['a fractional frame column', (j) => (j.event.frames = [{ ...frame, colno: 1.5 }])],
    ['a frame file name past 1024', (j) => (j.event.frames = [{ ...frame, filename: 'f'.repeat(1025) }])],
    ['a frame function past 512', (j) => (j.event.frames = [{ ...frame, function: 'f'.repeat(513) }])],
    ['frames as an object', (j) => (j.event.frames = { 0: frame })],
    ['an unknown sdk key', (j) => (j.event.sdk.extra = 1)],
    ['an uppercase event id', (j) => (j.event.eventId = j.event.eventId.toUpperCase())],
    ['__proto__ in tags', (j) => (j.event.tags = JSON.parse('{"__proto__": "x", "a": "b"}'))],
    ['__proto__ in context', (j) => (j.event.context = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}'))],
    ['__proto__ in user', (j) => (j.event.user = JSON.parse('{"__proto__": {"id": "x"}, "id": "u"}'))],
    ['an empty fingerprint', (j) => (j.event.fingerprint = [])],
    ['a numeric fingerprint entry', (j) => (j.event.fingerprint = [1])],
    // Unreadable: both must throw.
    ['an empty environment', (j) => (j.event.environment = '')],
    ['an unknown level', (j) => (j.event.level = 'critical')],
    ['a timestamp without offset', (j) => (j.event.timestamp = '2026-11-22T03:58:19')],
    ['a date that does not exist', (j) => (j.event.timestamp = '2026-02-30T00:00:00Z')],
    ['no event id', (j) => delete j.event.eventId],
    ['an event id that is not a UUID', (j) => (j.event.eventId = 'abc')],
    ['no message', (j) => delete j.event.message],
    ['context as an array', (j) => (j.event.context = [1, 2])],
    ['handled as a string', (j) => (j.event.handled = 'yes')],
    ['version 2', (j) => (j.v = 2)],
    ['a project id that is not a UUID', (j) => (j.projectId = 'p1')],
    ['no receivedAt', (j) => delete j.receivedAt],
    ['the event as an array', (j) => (j.event = [])],
  ];
  for (const [name, change] of cases) {
    test(`same as the schema: ${name}`, () => assertSameAsSchema(variant(change), name));
  }

  test('what is not JSON, or not an object, is unreadable', () => {
    for (const payload of ['not json', '', 'null', '[]', '"error"', '{"v":1}']) {
      assert.throws(() => decodeJob(payload), Error, payload);
    }
  });

  test('the other kinds still go through their schemas', () => {
    const log = {
      v: 1,
      kind: 'log',
      projectId,
      receivedAt: base.receivedAt,
      log: { id: randomUUID(), level: 'warn', message: 'm', tags: { n: 3 } },
    };
    assert.deepEqual((decodeJob(JSON.stringify(log)) as any).log.tags, { n: '3' });
    assert.throws(() => decodeJob(JSON.stringify({ ...log, log: { ...log.log, level: 'loud' } })));
  });
});
