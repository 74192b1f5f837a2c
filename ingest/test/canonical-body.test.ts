import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import {
  decodeJob,
  encodeJob,
  encodeJobBytes,
  errorEventSchema,
  LEVELS,
  MAX_STRUCTURED_FRAMES,
  MAX_TAGS,
  queuedErrorEventSchema,
  type ErrorJob,
} from '@tracker/core';
import { withStringField } from '../src/http/canonical-body';
import { isCanonicalErrorEvent, isCanonicalQueuedErrorEvent } from '../src/http/error-event.canonical';

/**
 * The ingest fast path (ingest/src/http/canonical-body.ts) must only ever take bodies that
 * `errorEventSchema` accepts and returns unchanged: for those, enqueuing the text as received is
 * the same as enqueuing zod's output. Checked here on many bodies around every limit.
 */

/** What the queue sees: JSON text, so `undefined` members and key order do not count. */
const asJson = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;

const PROJECT = '0b7f4a3e-6d1c-4a8e-9b2f-1c3d5e7f9a0b';

const minimal = { type: 'Error', message: 'boom', environment: 'production' };

/** Shaped like what the SDKs send (sdk/core/src/client.ts) and the ingest benchmark's event. */
const full = {
  eventId: randomUUID(),
  message: "Cannot read properties of undefined (reading 'unitPrice')",
  type: 'TypeError',
  environment: 'production',
  level: 'error',
  release: 'shop-web@2024.11.3+5c1f2a9',
  stack:
    "TypeError: Cannot read properties of undefined (reading 'unitPrice')\n    at lineTotal (https://shop.example.com/assets/checkout.js:1:48213)",
  handled: false,
  fingerprint: ['checkout', 'unitPrice'],
  url: 'https://shop.example.com/checkout?step=review',
  timestamp: new Date().toISOString(),
  tags: { browser: 'Chrome 131', os: 'Windows 11', locale: 'de-DE' },
  user: { id: '48213', email: 'anna.schmidt@example.org', username: 'anna.s', segment: 'returning' },
  context: { device: { type: 'desktop', devicePixelRatio: 1.25 }, breadcrumbs: ['a', 'b'], n: null },
  sdk: { name: '@tracker/browser', version: '0.1.0' },
};

const LENGTHS = [
  0, 1, 2, 31, 32, 33, 63, 64, 65, 127, 128, 129, 199, 200, 201, 255, 256, 257, 319, 320, 321, 2047, 2048, 2049, 8191,
  8192, 8193, 65535, 65536, 65537,
];

/** Strings at and around every limit, also with a surrogate pair (2 UTF-16 units, 1 code point). */
function strings(): string[] {
  const out: string[] = [];
  for (const n of LENGTHS) {
    out.push('x'.repeat(n));
    if (n >= 2) out.push(`${'x'.repeat(n - 2)}😀`); // n units, n - 1 code points
    if (n >= 1) out.push(`${'x'.repeat(n - 1)}😀`); // n + 1 units, n code points
  }
  return out;
}

const uuid = randomUUID();
const SPECIAL_STRINGS = [
  uuid,
  uuid.toUpperCase(),
  `${uuid.slice(0, 9)}${uuid.slice(9).toUpperCase()}`,
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF',
  '0190f3e4-7b2a-7c3d-8e4f-5a6b7c8d9e0f', // v7
  '0190f3e4-7b2a-9c3d-8e4f-5a6b7c8d9e0f', // bad version
  '0190f3e4-7b2a-4c3d-ce4f-5a6b7c8d9e0f', // bad variant
  `${uuid} `,
  'not-a-uuid',
  '2024-11-22T03:59:23.638Z',
  '2024-11-22T03:59:23Z',
  '2024-11-22T03:59:23+01:00',
  '2024-11-22T03:59:23.1-08:30',
  '2024-11-22T03:59:23',
  '2024-11-22 03:59:23Z',
  '2024-02-29T00:00:00Z',
  '2023-02-29T00:00:00Z',
  '2024-13-01T00:00:00Z',
  'yesterday',
  ...LEVELS,
  'ERROR',
  'debug',
  'warn',
  ' ',
];

const SCALARS: unknown[] = [null, 0, 42, -1, 1.5, true, false];

function objectWithKeys(n: number, value: (i: number) => unknown = (i) => `v${i}`): Record<string, unknown> {
  return Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, value(i)]));
}

/** Candidate values for any field: every shape the schema distinguishes. */
function values(): unknown[] {
  return [
    ...strings(),
    ...SPECIAL_STRINGS,
    ...SCALARS,
    [],
    ['a'],
    [1],
    [null],
    ['x'.repeat(200)],
    ['x'.repeat(201)],
    Array.from({ length: 20 }, (_, i) => `f${i}`),
    Array.from({ length: 21 }, (_, i) => `f${i}`),
    {},
    { a: 'b' },
    { a: 1 },
    { a: true },
    { a: null },
    { a: { b: 1 } },
    { a: ['x'] },
    { '': 'x' },
    { ['k'.repeat(32)]: 'v' },
    { ['k'.repeat(33)]: 'v' },
    { [`${'k'.repeat(31)}😀`]: 'v' },
    { a: 'x'.repeat(200) },
    { a: 'x'.repeat(201) },
    { a: `${'x'.repeat(199)}😀` },
    objectWithKeys(MAX_TAGS),
    objectWithKeys(MAX_TAGS + 1),
    objectWithKeys(3, (i) => i),
    { id: 'u1' },
    { id: 42 },
    { id: null },
    { id: 'x'.repeat(128) },
    { id: 'x'.repeat(129) },
    { id: `${'x'.repeat(127)}😀` },
    { id: ['a'] },
    { email: 'a@b.c' },
    { email: 'x'.repeat(321) },
    { email: null },
    { id: 'u1', email: 'a@b.c', extra: { deep: [1, 2] } },
    { name: 'sdk', version: '1' },
    { name: 'sdk', version: '1', extra: 1 },
    { name: 'sdk' },
    { name: 'x'.repeat(65), version: '1' },
    { name: 'sdk', version: 'x'.repeat(33) },
    { name: null, version: '1' },
  ];
}

const FIELDS = [
  'eventId',
  'message',
  'type',
  'environment',
  'level',
  'release',
  'stack',
  'fingerprint',
  'tags',
  'context',
  'user',
  'url',
  'timestamp',
  'handled',
  'sdk',
  'unknownField',
] as const;

/** Deterministic PRNG (mulberry32), so a failure can be replayed. */
function prng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The property under test, for one body; returns whether the fast path took it. */
function check(body: unknown): boolean {
  // The fast path sees what the JSON parser produced.
  const parsed = JSON.parse(JSON.stringify(body)) as unknown;
  const canonical = isCanonicalErrorEvent(parsed);
  if (canonical) {
    const z = errorEventSchema.safeParse(parsed);
    assert.ok(z.success, `fast path accepted a body zod refuses: ${JSON.stringify(body).slice(0, 300)}`);
    assert.deepEqual(
      asJson(z.data),
      asJson(parsed),
      `zod changes a body the fast path would enqueue as is: ${JSON.stringify(body).slice(0, 300)}`,
    );
  }
  return canonical;
}

/** The same property for events mapped from Sentry payloads (queued with structured frames). */
function checkQueued(body: unknown): boolean {
  const parsed = JSON.parse(JSON.stringify(body)) as unknown;
  const canonical = isCanonicalQueuedErrorEvent(parsed);
  if (canonical) {
    const z = queuedErrorEventSchema.safeParse(parsed);
    assert.ok(z.success, `canonical check took an event zod refuses: ${JSON.stringify(body).slice(0, 300)}`);
    assert.deepEqual(
      asJson(z.data),
      asJson(parsed),
      `zod changes a canonical event: ${JSON.stringify(body).slice(0, 300)}`,
    );
  }
  return canonical;
}

const frame = { filename: '/app/src/cart.js', function: 'lineTotal', lineno: 12, colno: 7, inApp: true };

/** Candidate values for one frame's fields, around every limit and type the schema tells apart. */
function frameValues(): unknown[] {
  return [...strings().filter((s) => s.length <= 1030), ...SCALARS, 2 ** 53 - 1, 2 ** 53, 1e300, 0.5, '12', [], {}];
}

const crumb = {
  timestamp: '2026-11-27T10:00:00.000Z',
  category: 'ui.click',
  message: 'clicked',
  level: 'info',
  data: { x: 1 },
};
const contextLine = { filename: '/app/a.js', lineno: 3, preContext: ['a', 'b'], contextLine: 'c', postContext: ['d'] };

/** Evidence (issue 29) around every limit and shape its normalizers tell apart. */
function evidenceValues(): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [];
  const crumbs: unknown[] = [
    crumb,
    { timestamp: crumb.timestamp, category: 'c' },
    { ...crumb, timestamp: 1764237600.5 },
    { ...crumb, timestamp: 'yesterday' },
    { ...crumb, category: '' },
    { ...crumb, category: 'x'.repeat(64) },
    { ...crumb, category: 'x'.repeat(65) },
    { ...crumb, message: 'x'.repeat(1024) },
    { ...crumb, message: 'x'.repeat(1025) },
    { ...crumb, message: 5 },
    { ...crumb, level: 'warn' },
    { ...crumb, data: null },
    { ...crumb, data: [1] },
    { ...crumb, data: { a: { b: { c: 1 } } } },
    { ...crumb, data: { a: { b: { c: { d: 1 } } } } },
    { ...crumb, data: objectWithKeys(50) },
    { ...crumb, data: objectWithKeys(51) },
    { ...crumb, data: { s: 'x'.repeat(1025) } },
    { ...crumb, type: 'http' },
    // The edge's allocation-free check of an already stored crumb (breadcrumbs.ts isStored).
    { category: 'c', message: 'no timestamp' },
    { timestamp: crumb.timestamp },
    { timestamp: crumb.timestamp, message: 'no category' },
    { ...crumb, timestamp: '2024-02-30T00:00:00Z' },
    { ...crumb, level: undefined, message: undefined },
    { ...crumb, data: { ['k'.repeat(1025)]: 1 } },
    { ...crumb, data: {} },
    null,
    'crumb',
  ];
  for (const c of crumbs) out.push(['breadcrumbs', [c]]);
  for (const n of [100, 101]) out.push(['breadcrumbs', Array.from({ length: n }, () => crumb)]);
  const cause = { type: 'RangeError', message: 'bad', stack: 'RangeError: bad\n    at f (/app/a.js:1:2)' };
  for (const c of [
    cause,
    { type: 'E', message: '' },
    { ...cause, type: '' },
    { ...cause, message: 3 },
    { ...cause, frames: [frame] },
    { ...cause, stack: 'x'.repeat(65537) },
    null,
  ])
    out.push(['causes', [c]]);
  for (const n of [10, 11]) out.push(['causes', Array.from({ length: n }, () => cause)]);
  for (const c of [
    contextLine,
    { ...contextLine, lineno: 0 },
    { ...contextLine, preContext: Array.from({ length: 6 }, () => 'l') },
    { ...contextLine, postContext: ['x'.repeat(201)] },
    { ...contextLine, contextLine: 'x'.repeat(200) },
    { ...contextLine, preContext: [1] },
    { ...contextLine, extra: 1 },
  ])
    out.push(['contextLines', [c]]);
  for (const r of [
    {
      method: 'GET',
      url: 'https://a.example/x?q=1',
      queryString: 'q=1',
      headers: { Accept: 'text/html' },
      data: { a: 1 },
    },
    { method: 'GET' },
    {},
    { headers: { n: 1 } },
    { headers: {} },
    { method: 'x'.repeat(17) },
    { data: null },
    { cookies: 'a=b' },
  ])
    out.push(['request', r]);
  return out;
}

describe('canonical error events (the ingest fast path)', () => {
  test('evidence (breadcrumbs, causes, context lines, request): canonical only when zod returns it unchanged, on the edge and in the worker', () => {
    let taken = 0;
    let total = 0;
    const receivedAt = new Date().toISOString();
    for (const [field, v] of evidenceValues()) {
      for (const base of [minimal, full]) {
        total++;
        const body = { ...base, [field]: v };
        const canonical = check(body);
        if (canonical) taken++;
        checkQueued(body);
        // The worker's own check agrees: a canonical event decodes as it was queued.
        const parsed = errorEventSchema.safeParse(JSON.parse(JSON.stringify(body)));
        if (!parsed.success) continue;
        const job = {
          v: 1,
          kind: 'error',
          projectId: PROJECT,
          receivedAt,
          event: { ...parsed.data, eventId: uuid },
        } as ErrorJob;
        const text = encodeJob(job);
        assert.deepEqual(asJson(decodeJob(text)), asJson(job), `${field}: ${JSON.stringify(v).slice(0, 120)}`);
      }
    }
    assert.ok(taken > 10 && taken < total - 10, `${taken} of ${total} taken`);
  });

  test('mapped Sentry events: the canonical check takes only events zod returns unchanged', () => {
    let taken = 0;
    let total = 0;
    const withFrames = {
      ...full,
      frames: [frame, { ...frame, function: null, lineno: null, colno: null, inApp: false }],
    };
    assert.equal(checkQueued(withFrames), true);
    assert.equal(checkQueued({ ...minimal, frames: [] }), true);
    // Without frames it is exactly the wire body's check.
    for (const v of values()) {
      for (const field of FIELDS) {
        const body = JSON.parse(JSON.stringify({ ...full, [field]: v })) as unknown;
        assert.equal(
          isCanonicalQueuedErrorEvent(body),
          isCanonicalErrorEvent(body),
          `${field}: ${JSON.stringify(v)?.slice(0, 80)}`,
        );
      }
    }
    for (const field of Object.keys(frame)) {
      const { [field]: _dropped, ...without } = frame as Record<string, unknown>;
      total++;
      if (checkQueued({ ...full, frames: [without] })) taken++;
      for (const v of frameValues()) {
        total++;
        if (checkQueued({ ...full, frames: [frame, { ...frame, [field]: v }] })) taken++;
      }
    }
    for (const n of [MAX_STRUCTURED_FRAMES - 1, MAX_STRUCTURED_FRAMES, MAX_STRUCTURED_FRAMES + 1]) {
      total++;
      if (checkQueued({ ...minimal, frames: Array.from({ length: n }, () => frame) })) taken++;
    }
    for (const v of [null, 'frames', {}, [null], [[]], [{ ...frame, extra: 1 }]]) {
      total++;
      if (checkQueued({ ...minimal, frames: v })) taken++;
    }
    assert.ok(taken > 50 && taken < total - 50, `${taken} of ${total} taken`);
  });

  test('what the SDKs and the benchmark send is canonical', () => {
    assert.equal(check(minimal), true);
    assert.equal(check(full), true);
    const { eventId: _omit, ...withoutId } = full;
    assert.equal(check(withoutId), true);
  });

  test('every single-field change: the fast path takes only bodies zod returns unchanged', () => {
    let taken = 0;
    let total = 0;
    const vals = values();
    for (const base of [minimal, full]) {
      for (const field of FIELDS) {
        const { [field]: _dropped, ...without } = base as Record<string, unknown>;
        total++;
        if (check(without)) taken++;
        for (const v of vals) {
          total++;
          if (check({ ...base, [field]: v })) taken++;
        }
      }
    }
    // Both outcomes were exercised.
    assert.ok(taken > 100 && taken < total - 1000, `${taken} of ${total} taken`);
  });

  test('random combinations of changes (seeded)', () => {
    const random = prng(20261122);
    const vals = values();
    let taken = 0;
    for (let i = 0; i < 20_000; i++) {
      const body: Record<string, unknown> = { ...(random() < 0.5 ? minimal : full) };
      const changes = 1 + Math.floor(random() * 4);
      for (let c = 0; c < changes; c++) {
        const field = FIELDS[Math.floor(random() * FIELDS.length)];
        if (random() < 0.15) delete body[field];
        else body[field] = vals[Math.floor(random() * vals.length)];
      }
      if (check(body)) taken++;
    }
    assert.ok(taken > 500, `only ${taken} taken`);
  });

  test('a job built around the body text decodes exactly like the serialized job', () => {
    const receivedAt = new Date().toISOString();
    const texts = [
      JSON.stringify(full),
      JSON.stringify(minimal),
      JSON.stringify(full, null, 2),
      ` \n${JSON.stringify(minimal)}\n\t `,
      '{"type":"E\\u0072ror","message":"caf\\u00e9 \\ud83d\\ude00 \\"q\\" \\\\ /","environment":"p"}',
      '{"type":"Error","type":"Second","message":"m","environment":"p"}',
    ];
    for (const text of texts) {
      const body = JSON.parse(text) as Record<string, unknown>;
      assert.ok(isCanonicalErrorEvent(body), text);
      const given = body.eventId as string | undefined;
      const eventId = given ?? randomUUID();
      const eventJson = given === undefined ? withStringField(text, 'eventId', eventId) : text;
      const event = { ...(errorEventSchema.parse(body) as ErrorJob['event']), eventId };
      const job: ErrorJob = { v: 1, kind: 'error', projectId: PROJECT, receivedAt, event };
      const fast = encodeJob(job, eventJson);
      assert.deepEqual(JSON.parse(fast), JSON.parse(encodeJob(job)), text);
      assert.deepEqual(decodeJob(fast), decodeJob(encodeJob(job)), text);
    }
  });

  test('a job built around the body bytes is the text job as UTF-8, decoded alike', () => {
    const receivedAt = new Date().toISOString();
    const bodies: Buffer[] = [
      Buffer.from(JSON.stringify(minimal)),
      Buffer.from(JSON.stringify(full, null, 2)),
      Buffer.from(` \n${JSON.stringify({ ...minimal, message: 'héllo → 日本 😀' })}\n\t `),
      // Invalid UTF-8 inside a string (a lone continuation byte, a truncated sequence): the
      // edge validates the decoded text, the worker decodes the payload the same way.
      Buffer.concat([
        Buffer.from('{"type":"Error","message":"a'),
        Buffer.from([0x80, 0xe6, 0x97]),
        Buffer.from('b","environment":"p"}'),
      ]),
    ];
    for (const bytes of bodies) {
      const text = bytes.toString('utf8');
      const body = JSON.parse(text) as Record<string, unknown>;
      assert.ok(isCanonicalErrorEvent(body), text);
      for (const given of [undefined, randomUUID()]) {
        const eventId = given ?? randomUUID();
        // A body that carries its own id, or one the edge adds the id to.
        const sent = given === undefined ? bytes : Buffer.from(withStringField(text, 'eventId', given));
        const sentText = sent.toString('utf8');
        const event = { ...(errorEventSchema.parse(JSON.parse(sentText)) as ErrorJob['event']), eventId };
        const job: ErrorJob = { v: 1, kind: 'error', projectId: PROJECT, receivedAt, event };
        const added = given === undefined ? { name: 'eventId', value: eventId } : undefined;
        const asBytes = encodeJobBytes(job, sent, added);
        const asText = encodeJob(job, added ? withStringField(sentText, 'eventId', eventId) : sentText);
        assert.equal(asBytes.toString('utf8'), asText, text);
        assert.deepEqual(decodeJob(asBytes.toString('utf8')), decodeJob(encodeJob(job)), text);
      }
    }
    assert.throws(() =>
      encodeJobBytes(
        { v: 1, kind: 'error', projectId: PROJECT, receivedAt, event: {} as ErrorJob['event'] },
        Buffer.from('"x"'),
        { name: 'eventId', value: 'x' },
      ),
    );
  });
});
