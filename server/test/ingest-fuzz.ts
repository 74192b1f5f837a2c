import { mkdtempSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import type { Tracker } from '../src';
import { createTestEnv, gqlOk, signUpWithProject, startTracker, type Mode, type TestEnv } from './helpers';

/**
 * The ingest fuzzer shared by `test/ingest-fuzz.test.ts` (a few thousand cases in `npm test`) and
 * `bench/fuzz.ts` (`npm run fuzz`, tens of thousands): seeded random and adversarial bodies for
 * every ingest endpoint, and the check that no answer is a 5xx and that every 202 ends as a
 * stored row or a dead letter with a reason (issue 15 §2).
 *
 * Bodies are built as JSON *text*: `JSON.stringify` writes a lone surrogate as a `\ud800` escape
 * and a NUL as `\u0000`, which a JS string sent as UTF-8 could not carry; other escapes (pairs
 * written as `\ud83d\ude00`, upper-case hex) come from re-escaping a whole body.
 */

export type Endpoint = 'error' | 'log' | 'vitals' | 'feedback' | 'release' | 'sourcemaps' | 'envelope';
/** Endpoints answering 202 (Sentry's envelope: 200) and leaving the rest to the worker. */
export type QueuedEndpoint = 'error' | 'log' | 'vitals' | 'feedback' | 'envelope';

/** Where a queued endpoint's item lands, keyed by the id its 202 names. */
const STORED_IN: Record<QueuedEndpoint, { table: string; column: string }> = {
  error: { table: 'events', column: 'event_id' },
  log: { table: 'logs', column: 'id' },
  vitals: { table: 'vitals_reports', column: 'id' },
  feedback: { table: 'feedback', column: 'id' },
  // Sentry's `/api/<number>/envelope/`: the id its 200 names is the event's (32 hex digits).
  envelope: { table: 'events', column: 'event_id' },
};

/** One request the fuzzer sends. */
export interface FuzzCase {
  endpoint: Endpoint;
  /** `fast`: Content-Length and `application/json; charset=utf-8`; `route`: chunked, which the fast path leaves to fastify. */
  transport: 'fast' | 'route';
  contentType: string | undefined;
  auth: 'valid' | 'none' | 'unknown-key' | 'wrong-scheme';
  /** What made the body, for reports: `shaped`, `json`, `bytes`… */
  shape: string;
  body: Buffer;
}

// ---------------------------------------------------------------------------------------------
// JSON text fragments. Every arbitrary below yields JSON text, so objects can carry duplicate
// keys, `__proto__`, raw number literals (`1e400`, `-0`) and nesting deeper than a JS stack.

const str = (s: string): string => JSON.stringify(s);
const objText = (entries: ReadonlyArray<readonly [string, string]>): string =>
  `{${entries.map(([k, v]) => `${str(k)}:${v}`).join(',')}}`;
/** An object from optional fields: `null` leaves the field out. */
const fieldsText = (entries: ReadonlyArray<readonly [string, string | null]>): string =>
  objText(entries.filter((e): e is [string, string] => e[1] !== null));

const weirdChar = fc.constantFrom(
  '\u0000',
  '\ud800',
  '\udbff',
  '\udc00',
  '\udfff',
  '😀',
  '👩‍👩‍👧',
  '\ufeff',
  '\uffff',
  '\u2028',
  '\u0085',
  'é',
  '\u001f',
  '"',
  '\\',
  '\r\n',
  '%00',
  '${x}',
);
const weirdString = fc
  .array(fc.oneof(fc.string({ maxLength: 6 }), weirdChar), { maxLength: 10 })
  .map((parts) => parts.join(''));

/** Strings just under, at and over the limits the edge cuts at, some ending mid surrogate pair. */
const nearLimitString = fc
  .record({
    limit: fc.constantFrom(32, 64, 128, 200, 255, 256, 320, 2048, 8192, 64 * 1024),
    delta: fc.integer({ min: -2, max: 3 }),
    tail: fc.constantFrom('', '😀', '😀y', '\ud800', '\u0000', 'é'),
  })
  .map(({ limit, delta, tail }) => 'x'.repeat(Math.max(0, limit + delta - tail.length)) + tail);

/** Near and over the 1 MB body limit (413), and big but allowed. */
const hugeString = fc.constantFrom(200_000, 1_048_000, 1_100_000).map((n) => 'h'.repeat(n));

const anyString = fc.oneof(
  { weight: 4, arbitrary: fc.string() },
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme' }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary' }) },
  { weight: 5, arbitrary: weirdString },
  { weight: 3, arbitrary: nearLimitString },
  { weight: 1, arbitrary: fc.oneof({ weight: 20, arbitrary: fc.constant('') }, hugeString) },
);
const anyStringText = anyString.map(str);

const numberText = fc.oneof(
  fc.constantFrom('1e308', '-1e308', '1e400', '-1e400', '1e-400', '-0', '-0.0', '0', '1E2', '0.1e1', '5e-324'),
  fc.constantFrom('123456789012345678901234567890', '-9007199254740993', '4294967296', '1.7976931348623157e309'),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
  fc.integer().map(String),
);
const scalarText = fc.oneof(fc.constantFrom('null', 'true', 'false'), numberText, anyStringText);

const oddKey = fc.oneof(
  { weight: 6, arbitrary: fc.string() },
  { weight: 3, arbitrary: weirdString },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '__proto__',
      'constructor',
      'prototype',
      'toString',
      'hasOwnProperty',
      'valueOf',
      '_meta',
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom('', 'k'.repeat(33), 'tags', 'eventId', 'id', 'context', '0', '-1') },
);

/** Nesting `depth` levels of objects, arrays or both around `leaf`, built without recursion. */
function nestText(depth: number, kind: 'obj' | 'arr' | 'mixed', leaf: string): string {
  let open = '';
  let close = '';
  for (let i = 0; i < depth; i++) {
    const obj = kind === 'obj' || (kind === 'mixed' && i % 2 === 0);
    open += obj ? '{"n":' : '[';
    close = (obj ? '}' : ']') + close;
  }
  return open + leaf + close;
}
const deepText = fc
  .record({
    depth: fc.oneof(
      fc.integer({ min: 5, max: 12 }),
      fc.integer({ min: 13, max: 300 }),
      fc.integer({ min: 990, max: 1_010 }),
      fc.integer({ min: 1_011, max: 1_200 }),
    ),
    kind: fc.constantFrom('obj' as const, 'arr' as const, 'mixed' as const),
    leaf: scalarText,
  })
  .map(({ depth, kind, leaf }) => nestText(depth, kind, leaf));

const { tree: treeText } = fc.letrec<{ tree: string; arr: string; obj: string }>((tie) => ({
  tree: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalarText, tie('arr'), tie('obj')),
  arr: fc.array(tie('tree'), { maxLength: 5 }).map((v) => `[${v.join(',')}]`),
  obj: fc.array(fc.tuple(oddKey, tie('tree')), { maxLength: 5 }).map(objText),
}));

/** Any value at all: what a field gets when the client sends the wrong type. */
const anyValueText = fc.oneof(
  { weight: 4, arbitrary: scalarText },
  { weight: 4, arbitrary: treeText },
  { weight: 1, arbitrary: deepText },
);

/**
 * How one field of a shaped body is drawn. `valid`: what SDKs send. `tame`: adversarial but of a
 * kind the edge should accept and mend (odd strings, huge strings, odd dates, deep context).
 * `wild`: of the right JSON type but refused (a level that does not exist, a garbage id).
 */
interface FieldSpec {
  valid: fc.Arbitrary<string>;
  tame?: fc.Arbitrary<string>;
  wild?: fc.Arbitrary<string>;
  required?: boolean;
}

/**
 * A tame body mixes valid and tame values, so most are accepted and reach the worker; a wild one
 * also sends wild values, anything at all, and leaves out required fields.
 */
function fieldArb(s: FieldSpec, wild: boolean): fc.Arbitrary<string | null> {
  const value = wild
    ? fc.oneof(
        { weight: 8, arbitrary: s.valid },
        { weight: 3, arbitrary: s.tame ?? s.valid },
        { weight: 2, arbitrary: s.wild ?? anyStringText },
        { weight: 1, arbitrary: anyValueText },
      )
    : s.tame
      ? fc.oneof({ weight: 2, arbitrary: s.valid }, { weight: 1, arbitrary: s.tame })
      : s.valid;
  if (s.required && !wild) return value;
  return fc.option(value, { freq: s.required ? 30 : 6, nil: null });
}

/** Extra keys the schema does not know (or knows: duplicates), after the known ones. */
const unknownFields = fc.array(fc.tuple(oddKey, anyValueText), { maxLength: 3 });

/** A body's tame and wild arbitraries from its fields' specs. */
function shaped(fields: Record<string, FieldSpec>): { tame: fc.Arbitrary<string>; wild: fc.Arbitrary<string> } {
  const build = (wild: boolean) =>
    fc
      .tuple(
        fc.record(Object.fromEntries(Object.entries(fields).map(([k, s]) => [k, fieldArb(s, wild)]))),
        unknownFields,
      )
      .map(([known, extra]) => fieldsText([...Object.entries(known), ...extra]));
  return { tame: build(false), wild: build(true) };
}

const uuid: FieldSpec = {
  valid: fc.uuid().map(str),
  tame: fc.uuid().map((u) => str(u.toUpperCase())),
  wild: fc
    .constantFrom(
      '00000000-0000-0000-0000-000000000000',
      'ffffffff-ffff-ffff-ffff-ffffffffffff',
      'not-a-uuid',
      '{6f9619ff-8b86-d011-b42d-00c04fc964ff}',
      '6f9619ff8b86d011b42d00c04fc964ff',
    )
    .map(str),
};

const recentTimestamp = fc
  .integer({ min: -29 * 24 * 60, max: 0 })
  .map((minutes) => str(new Date(Date.now() + minutes * 60_000).toISOString()));
const timestamp: FieldSpec = {
  valid: recentTimestamp,
  tame: fc.oneof(
    fc
      .integer({ min: -40 * 24 * 60, max: 24 * 60 })
      .map((minutes) => str(new Date(Date.now() + minutes * 60_000).toISOString())),
    fc.date({ min: new Date(-8.64e15), max: new Date(8.64e15), noInvalidDate: true }).map((d) => str(d.toISOString())),
    fc
      .constantFrom(
        '0000-01-01T00:00:00Z',
        '+275760-09-13T00:00:00.000Z',
        '275760-09-13T00:00:00Z',
        '-000001-01-01T00:00:00Z',
        '2024-02-30T00:00:00Z',
        '2016-12-31T23:59:60Z',
        '2024-01-01T00:00:00.1234567890123Z',
        '9999-12-31T23:59:59.999+14:00',
      )
      .map(str),
  ),
  wild: fc.oneof(
    fc.constantFrom('2024-01-01T24:00:00Z', '2024-01-01T00:00:00+99:99', '2024-01-01', 'yesterday', '').map(str),
    fc.constantFrom('1700000000000', '-1', '1e400'),
    anyStringText,
  ),
};

/** Up to 120 tags named t0…, plus a few with odd keys or values. */
const tagsText = fc
  .record({
    n: fc.oneof(fc.integer({ min: 0, max: 8 }), fc.integer({ min: 45, max: 120 })),
    odd: fc.array(fc.tuple(oddKey, fc.oneof(scalarText, treeText)), { maxLength: 6 }),
  })
  .map(({ n, odd }) => objText([...odd, ...Array.from({ length: n }, (_, i) => [`t${i}`, str(`v${i}`)] as const)]));
const tags: FieldSpec = { valid: tagsText, tame: tagsText };

/** Context: a random tree, a deep nest, or an object with a `_meta` of its own. */
const context: FieldSpec = {
  valid: fc.array(fc.tuple(fc.string(), scalarText), { maxLength: 4 }).map(objText),
  tame: fc.oneof(
    fc.array(fc.tuple(oddKey, treeText), { maxLength: 6 }).map(objText),
    deepText.map((d) => objText([['deep', d]])),
    fc.tuple(treeText, treeText).map(([meta, v]) =>
      objText([
        ['_meta', meta],
        ['v', v],
      ]),
    ),
  ),
};

/** Free text: anything a string can hold is mended, cut or kept. */
const freeText = (...valid: string[]): FieldSpec => ({
  valid: fc.constantFrom(...valid).map(str),
  tame: anyStringText,
});
/** A few shared releases, so uploaded source maps and events meet. */
const release = freeText('1.0.0', 'r1', 'web@2.3.4');
const environment = freeText('production', 'staging', 'dev');

const stack: FieldSpec = {
  valid: fc
    .tuple(
      fc.constantFrom('fn', 'a\u0000b', 'x'.repeat(300)),
      fc.integer({ min: 0, max: 1e9 }),
      fc.integer({ min: 0, max: 1e9 }),
    )
    .map(
      ([fn, line, col]) =>
        `TypeError: boom\n    at ${fn} (https://app.example.com/static/js/app.js:${line}:${col})\n    at https://app.example.com/app.js:1:1`,
    )
    .map(str),
  tame: anyStringText,
};

const user = fc
  .record({
    id: fieldArb({ valid: fc.oneof(anyStringText, numberText) }, false),
    email: fieldArb({ valid: anyStringText }, false),
    extra: fieldArb({ valid: treeText }, false),
  })
  .map((u) => fieldsText(Object.entries(u)));

/** Issue 29's evidence, valid and hostile: 10,000 breadcrumbs, 1,000 causes, lines of 1 MB, deep data. */
const crumbText = (i: number, data = '{"n":1}') =>
  `{"timestamp":${1764237600 + i},"category":"c","message":"m${i}","level":"info","data":${data}}`;
const breadcrumbs: FieldSpec = {
  valid: fc.integer({ min: 0, max: 5 }).map((n) => `[${Array.from({ length: n }, (_, i) => crumbText(i)).join(',')}]`),
  tame: fc.oneof(
    fc.constant(`[${Array.from({ length: 10_000 }, (_, i) => crumbText(i, 'null')).join(',')}]`),
    deepText.map((d) => `[${crumbText(0, d)}]`),
    fc
      .tuple(anyStringText, anyStringText, scalarText)
      .map(([c, m, t]) => `[{"timestamp":${t},"category":${c},"message":${m},"level":"loud","data":[1]},null,"x"]`),
  ),
  wild: fc.constantFrom('{"values":[]}', '"crumbs"', '{}'),
};
const causes: FieldSpec = {
  valid: stack.valid.map((st) => `[{"type":"RangeError","message":"index","stack":${st}}]`),
  tame: fc.oneof(
    fc.constant(
      `[${Array.from({ length: 1_000 }, (_, i) => `{"type":"C${i}","message":"m","stack":"C${i}: m\\n    at f (/a.js:${i + 1}:1)"}`).join(',')}]`,
    ),
    fc.tuple(anyStringText, anyValueText).map(([t, m]) => `[{"type":${t},"message":${m}},null]`),
  ),
  wild: fc.constantFrom('{}', '"cause"'),
};
const contextLines: FieldSpec = {
  valid: fc.constant(
    '[{"filename":"https://app.example.com/app.js","lineno":1,"preContext":["a"],"contextLine":"b","postContext":["c"]}]',
  ),
  tame: fc.oneof(
    fc
      .constantFrom(200_000, 900_000)
      .map(
        (n) =>
          `[{"filename":"/a.js","lineno":1,"preContext":[${'"p",'.repeat(20)}"p"],"contextLine":"${'x'.repeat(n)}","postContext":[]}]`,
      ),
    fc
      .tuple(anyStringText, numberText, anyValueText)
      .map(
        ([f, l, v]) => `[{"filename":${f},"lineno":${l},"preContext":${v},"contextLine":${v},"postContext":[1,null]}]`,
      ),
  ),
  wild: fc.constantFrom('{}', '7'),
};
const requestField: FieldSpec = {
  valid: fc.constant(
    '{"method":"POST","url":"https://app.example.com/p?token=t&q=1","queryString":"token=t","headers":{"Cookie":"s=1","Authorization":"Bearer x"},"data":{"password":"p"}}',
  ),
  tame: fc.oneof(
    deepText.map((d) => `{"data":${d},"headers":{"n":1,"x":null}}`),
    fc.tuple(anyStringText, treeText).map(([u, h]) => `{"method":${u},"url":${u},"headers":${h}}`),
  ),
  wild: fc.constantFrom('[]', '"GET /"'),
};

const errorBody = shaped({
  eventId: uuid,
  type: { ...freeText('TypeError', 'Error', 'RangeError'), required: true },
  message: { ...freeText('boom', 'Cannot read properties of undefined'), required: true },
  environment: { ...environment, required: true },
  level: {
    valid: fc.constantFrom('fatal', 'error', 'warning', 'info').map(str),
    wild: fc.constantFrom('warn', 'FATAL', '').map(str),
  },
  release,
  stack,
  fingerprint: {
    valid: fc
      .array(fc.constantFrom('a', 'b', '{{ default }}'), { minLength: 1, maxLength: 3 })
      .map((a) => `[${a.map(str).join(',')}]`),
    tame: fc.array(anyStringText, { minLength: 1, maxLength: 25 }).map((a) => `[${a.join(',')}]`),
    wild: fc.constant('[]'),
  },
  tags,
  context,
  user: { valid: user },
  url: freeText('https://app.example.com/p?token=1#x'),
  timestamp,
  handled: { valid: fc.boolean().map(String) },
  sdk: {
    valid: fc.constant(
      objText([
        ['name', str('tracker.browser')],
        ['version', str('0.5.0')],
      ]),
    ),
  },
  breadcrumbs,
  causes,
  contextLines,
  request: requestField,
});

const logBody = shaped({
  id: uuid,
  level: {
    valid: fc.constantFrom('debug', 'info', 'warn', 'warning', 'error').map(str),
    wild: fc.constantFrom('fatal', 'INFO').map(str),
    required: true,
  },
  message: { ...freeText('user signed in', 'cache miss'), required: true },
  context,
  environment,
  release,
  tags,
  timestamp,
});

const metric = fieldArb(
  {
    valid: fc.double({ min: 0, max: 60_000, noNaN: true }).map((d) => JSON.stringify(d)),
    tame: fc.constantFrom('1e308', '-0', '0', '5e-324', '1e-400', '123456789012345678901234567890'),
  },
  false,
);
const vitalsBody = shaped({
  id: uuid,
  url: { ...freeText('https://app.example.com/checkout?card=4242#step', '/'), required: true },
  metrics: {
    valid: fc
      .record({ LCP: metric, INP: metric, CLS: metric, FCP: metric, TTFB: metric })
      .map((m) => fieldsText(Object.entries(m))),
    wild: fc.record({ LCP: numberText, CLS: anyValueText }).map((m) => fieldsText(Object.entries(m))),
    required: true,
  },
  environment,
  release,
  tags,
});

const feedbackBody = shaped({
  id: uuid,
  message: { ...freeText('It broke when I clicked pay'), required: true },
  email: freeText('a@example.com', 'not an email'),
  eventId: uuid,
});

const releaseBody = shaped({ version: { ...release, required: true }, environment });

const VALID_MAP = JSON.stringify({
  version: 3,
  file: 'app.js',
  sources: ['src/app.ts'],
  names: ['boom'],
  mappings: 'AAAA,CAAC',
});
const mapText = fc.oneof(
  { weight: 4, arbitrary: fc.constant(str(VALID_MAP)) },
  { weight: 2, arbitrary: fc.constant(VALID_MAP) }, // the map as an object, not as text
  {
    weight: 2,
    arbitrary: fc
      .record({
        sources: fc.array(anyString, { maxLength: 3 }),
        mappings: fc.oneof(fc.string(), fc.constant(';;;AAAA,,;')),
      })
      .map(({ sources, mappings }) => str(JSON.stringify({ version: 3, sources, names: [], mappings }))),
  },
  { weight: 1, arbitrary: fc.oneof(anyStringText, treeText) },
);
const filenameText = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('app.js.map', 'vendor.js.map', 'main.3f2a1c.js.map').map(str) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('../etc/passwd', 'a/b.js.map', '.', '..', 'a\u0000.map', 'C:\\x.map').map(str),
  },
  { weight: 1, arbitrary: anyStringText },
);
const filesText = (files: Array<[string, string]>) =>
  `[${files
    .map(([filename, map]) =>
      objText([
        ['filename', filename],
        ['map', map],
      ]),
    )
    .join(',')}]`;
const sourcemapsBody = shaped({
  release: { ...release, required: true },
  files: {
    valid: fc
      .array(fc.tuple(fc.constantFrom('app.js.map', 'vendor.js.map').map(str), mapText), { minLength: 1, maxLength: 2 })
      .map(filesText),
    tame: fc.array(fc.tuple(filenameText, mapText), { maxLength: 4 }).map(filesText),
    wild: fc
      .integer({ min: 49, max: 52 })
      .map((n) => filesText(Array.from({ length: n }, (_, i) => [str(`f${i}.js.map`), str(VALID_MAP)]))),
    required: true,
  },
});

/** A Sentry event (the payload of an envelope's `event` item), with the same adversarial values. */
const sentryEventBody = shaped({
  event_id: {
    valid: fc.uuid({ version: 4 }).map((u) => str(u.replaceAll('-', ''))),
    tame: fc.uuid().map(str),
    wild: fc.constantFrom('0'.repeat(32), 'x', '').map(str),
  },
  level: {
    valid: fc.constantFrom('fatal', 'error', 'warning', 'info', 'debug', 'log', 'critical', 'warn').map(str),
    wild: fc.constantFrom('LOUD', '').map(str),
  },
  message: { ...freeText('boom'), valid: fc.oneof(anyStringText, fc.constant('{"formatted":"m %s","params":[1]}')) },
  exception: {
    valid: fc
      .tuple(anyStringText, anyStringText, fc.option(stack.valid, { nil: null }), fc.boolean())
      .map(
        ([type, value, frames, handled]) =>
          `{"values":[{"type":${type},"value":${value},"mechanism":{"handled":${handled}},"stacktrace":{"frames":[` +
          `{"filename":${frames ?? '"app.js"'},"function":"f","lineno":3,"colno":7,"in_app":true},{"abs_path":"/x.js","lineno":"9"}]}}]}`,
      ),
    tame: fc.oneof(
      fc.constantFrom('{"values":[]}', '[]', '{"values":[{"value":"no type"}]}'),
      // A chain of 1,000 (the thrown one last, with source lines and local variables 1,000 deep
      // or of any JSON type); the causes before it are slim, so the body stays under 1 MB.
      fc
        .tuple(deepText, scalarText)
        .map(
          ([deep, scalar]) =>
            `{"values":[${Array.from({ length: 999 }, (_, i) => `{"type":"E${i}","value":"v"}`).join(',')},` +
            `{"type":"Top","value":"v","stacktrace":{"frames":[{"filename":"a.py","function":"f","lineno":1,` +
            `"pre_context":["a",1,null],"context_line":"${'x'.repeat(300)}","post_context":"no","vars":{"deep":${deep},"s":${scalar},"password":"p"}}]}}]}`,
        ),
    ),
  },
  breadcrumbs: {
    valid: fc.constant(
      '{"values":[{"timestamp":1764237600.5,"type":"http","category":"xhr","level":"warn","data":{"url":"/a?token=1"}}]}',
    ),
    tame: fc.oneof(
      breadcrumbs.tame!,
      fc.constant(`[${Array.from({ length: 10_000 }, (_, i) => crumbText(i)).join(',')}]`),
    ),
  },
  environment,
  release,
  tags: { valid: tagsText, tame: fc.constant('[["a","b"],["n",1]]') },
  user: { valid: user, tame: fc.constant('{"id":42,"username":"u"}') },
  contexts: context,
  extra: context,
  request: {
    valid: fc.constant('{"url":"https://app.example.com/p","headers":{"Cookie":"s=1"}}'),
    tame: fc.constantFrom(
      '{"method":"get","query_string":[["token","t"],["q",1]],"headers":[["Authorization","x"]],"data":"a=1","cookies":"s=1"}',
      '{"query_string":{"a":{"b":[1]}},"headers":{"n":null},"data":null}',
    ),
  },
  timestamp: { ...timestamp, valid: fc.integer({ min: -86_400, max: 0 }).map((s) => String(Date.now() / 1000 + s)) },
  fingerprint: { valid: fc.constantFrom('["{{default}}","x"]', '[1,{"a":2}]').map(String) },
});

/** An envelope with one event item among items Tracker reads past, lengths given or not. */
function envelopeOf(eventText: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc
    .tuple(eventText, fc.boolean(), fc.subarray(['profile', 'client_report', 'attachment']), fc.boolean())
    .map(([event, withLength, others, dsnHeader]) => {
      const bytes = Buffer.byteLength(event);
      const items = others.map((t) => `{"type":"${t}","length":2}\n{}`);
      // Without a length the payload ends at the next newline, so the event text must have none.
      const eventItem =
        withLength || !event.includes('\n')
          ? `{"type":"event"${withLength ? `,"length":${bytes}` : ''}}\n${event}`
          : `{"type":"event","length":${bytes}}\n${event}`;
      return `${dsnHeader ? '{"sent_at":"2026-01-01T00:00:00Z"}' : '{}'}\n${[...items, eventItem].join('\n')}\n`;
    });
}

const envelopeBody = { tame: envelopeOf(sentryEventBody.tame), wild: envelopeOf(sentryEventBody.wild) };

const SHAPED: Record<Endpoint, { tame: fc.Arbitrary<string>; wild: fc.Arbitrary<string> }> = {
  error: errorBody,
  log: logBody,
  vitals: vitalsBody,
  feedback: feedbackBody,
  release: releaseBody,
  sourcemaps: sourcemapsBody,
  envelope: envelopeBody,
};

/** Every non-ASCII UTF-16 unit as a `\uXXXX` escape (valid: in JSON text they only occur in strings). */
function escapeNonAscii(text: string, upper: boolean): string {
  return text.replace(/[^\x00-\x7f]/g, (c) => {
    const hex = c.charCodeAt(0).toString(16).padStart(4, '0');
    return `\\u${upper ? hex.toUpperCase() : hex}`;
  });
}

/** A body for `endpoint`: mostly shaped like the real thing, else random JSON or not JSON at all. */
function bodyFor(endpoint: Endpoint): fc.Arbitrary<{ shape: string; body: Buffer }> {
  const utf8 = (shape: string) => (text: string) => ({ shape, body: Buffer.from(text, 'utf8') });
  const shapedBody = SHAPED[endpoint].tame;
  return fc.oneof(
    { weight: 50, arbitrary: shapedBody.map(utf8('shaped')) },
    { weight: 15, arbitrary: SHAPED[endpoint].wild.map(utf8('shaped-wild')) },
    {
      weight: 10,
      arbitrary: fc
        .tuple(shapedBody, fc.boolean())
        .map(([text, upper]) => ({ shape: 'shaped-escaped', body: Buffer.from(escapeNonAscii(text, upper), 'utf8') })),
    },
    { weight: 4, arbitrary: fc.json().map(utf8('json')) },
    {
      weight: 3,
      arbitrary: fc.dictionary(fc.string(), fc.jsonValue()).map((o) => utf8('json-object')(JSON.stringify(o))),
    },
    { weight: 3, arbitrary: deepText.map(utf8('deep')) },
    { weight: 2, arbitrary: fc.uint8Array({ maxLength: 64 }).map((b) => ({ shape: 'bytes', body: Buffer.from(b) })) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary' }).map(utf8('text')) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(shapedBody, fc.nat())
        .map(([text, cut]) => utf8('truncated')(text.slice(0, text.length === 0 ? 0 : cut % text.length))),
    },
    {
      // Bytes that are not UTF-8 inside a string: overlong NUL, a CESU-8 surrogate, a stray continuation.
      weight: 2,
      arbitrary: fc
        .constantFrom([0xc0, 0x80], [0xed, 0xa0, 0x80], [0x80], [0xff, 0xfe], [0xf4, 0x90, 0x80, 0x80], [0xc3])
        .map((bad) => ({
          shape: 'bad-utf8',
          body: Buffer.concat([
            Buffer.from('{"type":"E","message":"m'),
            Buffer.from(bad),
            Buffer.from('","level":"info","environment":"p","url":"/","metrics":{"LCP":1},"version":"v'),
            Buffer.from(bad),
            Buffer.from('"}'),
          ]),
        })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          shapedBody,
          fc.constantFrom('\ufeff', ' \n\t', ''),
          fc.constantFrom('', 'garbage', ',', '}', '\u0000', ' '),
        )
        .map(([text, before, after]) => utf8('wrapped')(before + text + after)),
    },
    { weight: 1, arbitrary: fc.constantFrom('', 'null', '[]', '"x"', '0', '{}', 'true', '{"a":1,}').map(utf8('tiny')) },
  );
}

const ODD_TYPES = [
  undefined,
  'text/plain',
  'application/json; charset=latin1',
  'APPLICATION/JSON',
  'application/json; charset=utf-8; x=1',
  'application/x-www-form-urlencoded',
  'application/json, text/plain',
];

/** One request: endpoint, transport, content type, credentials and body. */
export const fuzzCase: fc.Arbitrary<FuzzCase> = fc
  .constantFrom<Endpoint[]>(
    'error',
    'error',
    'error',
    'log',
    'log',
    'vitals',
    'feedback',
    'release',
    'sourcemaps',
    'envelope',
    'envelope',
  )
  .chain((endpoint) =>
    fc.record({
      endpoint: fc.constant(endpoint),
      transport: fc.constantFrom('fast' as const, 'route' as const),
      oddType: fc.oneof(
        { weight: 19, arbitrary: fc.constant(null) },
        { weight: 1, arbitrary: fc.constantFrom(...ODD_TYPES) },
      ),
      auth: fc.oneof(
        { weight: 30, arbitrary: fc.constant('valid' as const) },
        { weight: 1, arbitrary: fc.constantFrom('none' as const, 'unknown-key' as const, 'wrong-scheme' as const) },
      ),
      body: bodyFor(endpoint),
    }),
  )
  .map(({ endpoint, transport, oddType, auth, body }) => ({
    endpoint,
    transport,
    contentType:
      oddType !== null ? oddType : transport === 'fast' ? 'application/json; charset=utf-8' : 'application/json',
    auth,
    shape: body.shape,
    body: body.body,
  }));

// ---------------------------------------------------------------------------------------------
// The run.

/** A tracker to fuzz and the credentials its endpoints need. */
export interface FuzzTarget {
  mode: Mode;
  tracker: Tracker;
  key: string;
  /** The project's number, for Sentry's `/api/<number>/envelope/`. */
  projectNumber: string;
  uploadToken: string;
  close(): Promise<void>;
}

/**
 * A tracker on `mode` with every role, on the business plan (release registration is paid, and
 * its 1,000,000 events a month keep the quota out of the way), with one project, its DSN key
 * and an upload token.
 */
export async function startFuzzTarget(mode: Mode): Promise<FuzzTarget> {
  let env: TestEnv | undefined;
  let tracker: Tracker | undefined;
  try {
    env = await createTestEnv(mode, { defaultPlan: 'business' });
    tracker = await startTracker(env);
    const account = await signUpWithProject(tracker.url, 'Fuzz');
    const uploadToken: string = (
      await gqlOk(
        tracker.url,
        `mutation($p: ID!) { createUploadToken(projectId: $p, name: "fuzz") { token } }`,
        { p: account.project.id },
        account.token,
      )
    ).createUploadToken.token;
    const [t, e] = [tracker, env];
    return {
      mode,
      tracker: t,
      key: account.key,
      projectNumber: new URL(account.dsn).pathname.split('/').pop()!,
      uploadToken,
      async close() {
        await t.close();
        await e.cleanup();
      },
    };
  } catch (err) {
    await tracker?.close();
    await env?.cleanup();
    throw err;
  }
}

export interface FuzzOptions {
  seed: number;
  cases: number;
  /** Requests in flight at once; each is its own seeded fast-check run (seed, seed + 1, …). */
  concurrency?: number;
  /** How long accepted items may take to be stored or dead-lettered (default 60 s). */
  settleMs?: number;
  /** Where files holding failing bodies are written (default a new temporary folder). */
  reportDir?: string;
}

/** A request whose answer broke the contract: a 5xx, or a 202 without an id. */
export interface FuzzFailure {
  endpoint: Endpoint;
  transport: string;
  contentType: string | undefined;
  status: number;
  response: string;
  /** The body as JSON text of its UTF-8 decoding when it decodes cleanly, else base64. */
  body: string;
  bodyFile: string;
}

export interface FuzzReport {
  mode: Mode;
  seed: number;
  sent: number;
  accepted: number;
  stored: number;
  dead: number;
  /** Accepted items neither stored nor dead-lettered when the wait ended. */
  lost: Array<{ endpoint: QueuedEndpoint; id: string; body: string; bodyFile: string }>;
  /** Dead-lettered items by their dead letter's error (first 200 characters), with one body file each. */
  deadReasons: Map<string, { count: number; example: string }>;
  /** Dead letters whose `error` is empty. */
  deadWithoutReason: string[];
  /** 200s of the upload-token routes (written synchronously). */
  written: number;
  refused: Map<number | string, number>;
  /** Refusals by status and the field their message names (`400 type`), for tuning the generator. */
  reasons: Map<string, number>;
  failures: FuzzFailure[];
  /** fast-check's own reports (with the shrunk counterexample) for runs that failed. */
  counterexamples: string[];
  /** Requests the fast path answered (the rest of `/ingest/error` went through fastify). */
  fastPathTaken: number;
  ms: number;
}

interface Accepted {
  endpoint: QueuedEndpoint;
  id: string;
  body: Buffer;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Sends `cases` generated requests to `target`, `concurrency` at a time, then waits until every
 * accepted item is a stored row or a dead letter. A 5xx (or a 202 without an id) fails that
 * fast-check run, which shrinks it to a smallest body still failing; the report carries both.
 */
export async function runIngestFuzz(target: FuzzTarget, options: FuzzOptions): Promise<FuzzReport> {
  const started = performance.now();
  const concurrency = options.concurrency ?? 16;
  const reportDir = options.reportDir ?? mkdtempSync(join(tmpdir(), 'tracker-fuzz-'));
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency * 2 });
  const url = new URL(target.tracker.url);
  const report: FuzzReport = {
    mode: target.mode,
    seed: options.seed,
    sent: 0,
    accepted: 0,
    stored: 0,
    dead: 0,
    lost: [],
    deadWithoutReason: [],
    deadReasons: new Map(),
    written: 0,
    refused: new Map(),
    reasons: new Map(),
    failures: [],
    counterexamples: [],
    fastPathTaken: 0,
    ms: 0,
  };
  const accepted: Accepted[] = [];
  const takenBefore = target.tracker.ingestFastPath?.taken ?? 0;

  const sendOne = async (c: FuzzCase): Promise<void> => {
    const res = await post(agent, url, c, authorization(target, c), target.projectNumber);
    report.sent += 1;
    const fail = (why: string) => {
      const failure = describeFailure(c, res.status, `${why}${res.text}`, reportDir, report.failures.length);
      report.failures.push(failure);
      throw new Error(
        `${c.endpoint} (${c.transport}, ${String(c.contentType)}) answered ${res.status} ${res.text.slice(0, 300)}\n` +
          `body (${c.body.length} bytes, full in ${failure.bodyFile}): ${failure.body.slice(0, 2_000)}`,
      );
    };
    if (res.status >= 500 || res.status === 0) fail('');
    if (res.status === 202 && isQueued(c.endpoint)) {
      const id = idOf(res.text);
      if (id === undefined) fail('202 without an id: ');
      accepted.push({ endpoint: c.endpoint, id: id!.toLowerCase(), body: c.body });
      report.accepted += 1;
      return;
    }
    if (res.status === 200 && c.endpoint === 'envelope') {
      // Every generated envelope has one event item beside items that are read past, so a 200
      // must name the event (a 200 `{}` would mean an event taken without its id, or lost).
      const id = idOf(res.text);
      if (id === undefined) {
        // Unshaped bodies (a lone JSON object is an envelope header without items) may hold no event.
        if (c.shape.startsWith('shaped')) fail('200 without an event id: ');
        report.refused.set(200, (report.refused.get(200) ?? 0) + 1);
        return;
      }
      const hex = id!.toLowerCase().replaceAll('-', '');
      const uuid = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
      accepted.push({ endpoint: c.endpoint, id: uuid, body: c.body });
      report.accepted += 1;
      return;
    }
    if (res.status === 200 && !isQueued(c.endpoint)) {
      report.written += 1;
      return;
    }
    report.refused.set(res.status, (report.refused.get(res.status) ?? 0) + 1);
    const reason = `${res.status} ${c.endpoint} ${reasonOf(res.text)}`;
    report.reasons.set(reason, (report.reasons.get(reason) ?? 0) + 1);
  };

  const perRun = Math.ceil(options.cases / concurrency);
  const runs = await Promise.allSettled(
    Array.from({ length: concurrency }, (_, k) =>
      fc.assert(
        fc.asyncProperty(fuzzCase, async (c) => {
          await sendOne(c);
        }),
        { seed: options.seed + k, numRuns: Math.max(0, Math.min(perRun, options.cases - k * perRun)) },
      ),
    ),
  );
  for (const run of runs)
    if (run.status === 'rejected') report.counterexamples.push(String((run.reason as Error).message));
  agent.destroy();
  report.fastPathTaken = (target.tracker.ingestFastPath?.taken ?? 0) - takenBefore;

  await settle(target, accepted, report, options.settleMs ?? 60_000, reportDir);
  report.ms = performance.now() - started;
  return report;
}

/** `fuzz <mode>: N sent, A accepted (S stored, D dead-lettered, L lost), R refused (by status)`. */
export function summaryLine(r: FuzzReport): string {
  const refused = [...r.refused.values()].reduce((a, b) => a + b, 0);
  const byStatus = [...r.refused.entries()]
    .sort(([a], [b]) => String(a).localeCompare(String(b)))
    .map(([status, n]) => `${status}: ${n}`)
    .join(', ');
  return (
    `fuzz ${r.mode}: ${r.sent} sent, ${r.accepted} accepted (${r.stored} stored, ${r.dead} dead-lettered, ` +
    `${r.lost.length} lost), ${r.written} written by the upload routes, ${refused} refused (${byStatus}), ` +
    `${r.failures.length} failures (5xx), fast path took ${r.fastPathTaken}; seed ${r.seed}, ${(r.ms / 1000).toFixed(1)} s`
  );
}

/** What went wrong in a run, for a human: each 5xx with its body, fast-check's shrunk counterexamples, lost items. */
export function problemLines(r: FuzzReport, preview = 1_000): string[] {
  const lines: string[] = [];
  for (const f of r.failures) {
    lines.push(
      `5xx: POST ${f.endpoint === 'envelope' ? '/api/<n>/envelope/' : `/ingest/${f.endpoint}`} (${f.transport}, ${String(f.contentType)}) answered ${f.status} ${f.response.slice(0, 300)}`,
      `  body: ${f.body.slice(0, preview)}${f.body.length > preview ? '…' : ''}`,
      `  full body: ${f.bodyFile}`,
    );
  }
  for (const c of r.counterexamples) lines.push(`fast-check: ${c.slice(0, 4 * preview)}`);
  for (const l of r.lost.slice(0, 20)) {
    lines.push(
      `lost: ${l.endpoint} ${l.id}: ${l.body.slice(0, preview)}${l.body.length > preview ? '…' : ''}`,
      `  full body: ${l.bodyFile}`,
    );
  }
  if (r.lost.length > 20) lines.push(`… and ${r.lost.length - 20} more lost`);
  for (const d of r.deadWithoutReason) lines.push(`dead letter without a reason: ${d}`);
  return lines;
}

/** Why accepted items were dead-lettered, commonest first, each with a file holding one such body. */
export function deadLetterLines(r: FuzzReport): string[] {
  return [...r.deadReasons]
    .sort((a, b) => b[1].count - a[1].count)
    .map(
      ([reason, { count, example }]) => `dead-lettered ${count}× ${reason}
  e.g. ${example}`,
    );
}

function isQueued(e: Endpoint): e is QueuedEndpoint {
  return e in STORED_IN;
}

function authorization(target: FuzzTarget, c: FuzzCase): string | undefined {
  const upload = c.endpoint === 'release' || c.endpoint === 'sourcemaps';
  switch (c.auth) {
    case 'valid':
      if (c.endpoint === 'envelope') return `Sentry sentry_key=${target.key}, sentry_version=7`;
      return upload ? `Bearer ${target.uploadToken}` : `DSN ${target.key}`;
    case 'none':
      return undefined;
    case 'unknown-key':
      return upload ? 'Bearer trk_0000000000000000000000000000' : 'DSN 00000000000000000000000000000000';
    case 'wrong-scheme':
      return upload ? `DSN ${target.key}` : `Bearer ${target.uploadToken}`;
  }
}

/** The field a refusal names (`context`), or its message when it names none. */
function reasonOf(text: string): string {
  try {
    const message = String((JSON.parse(text) as { error?: { message?: unknown } }).error?.message ?? text);
    return message.split(':')[0].slice(0, 60);
  } catch {
    return text.slice(0, 60);
  }
}

function idOf(text: string): string | undefined {
  try {
    const id = (JSON.parse(text) as { id?: unknown }).id;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One POST over node:http: `fast` sends a Content-Length, `route` sends the body chunked (in
 * two pieces), which the fast path leaves to fastify. Status 0: the connection failed before
 * an answer, which counts as a failure unless the body was over the 1 MB limit (the server may
 * answer 413 and close while the client is still writing).
 */
function pathOf(c: FuzzCase, projectNumber: string): string {
  return c.endpoint === 'envelope' ? `/api/${projectNumber}/envelope/` : `/ingest/${c.endpoint}`;
}

function post(
  agent: Agent,
  url: URL,
  c: FuzzCase,
  authorization: string | undefined,
  projectNumber: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve) => {
    const headers: Record<string, string> = {};
    if (c.contentType !== undefined) headers['content-type'] = c.contentType;
    if (authorization !== undefined) headers.authorization = authorization;
    if (c.transport === 'fast') headers['content-length'] = String(c.body.length);
    const req = request(
      { host: url.hostname, port: url.port, path: pathOf(c, projectNumber), method: 'POST', headers, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', (err) => resolve({ status: 0, text: `response error: ${err.message}` }));
      },
    );
    req.on('error', (err) => {
      // The server refused an oversized body and closed while we were still writing it.
      if (c.body.length > 1024 * 1024) resolve({ status: 413, text: `connection closed: ${err.message}` });
      else resolve({ status: 0, text: `connection error: ${err.message}` });
    });
    if (c.transport === 'route' && c.body.length > 1) {
      const half = c.body.length >> 1;
      req.write(c.body.subarray(0, half));
      req.end(c.body.subarray(half));
    } else {
      req.end(c.body);
    }
  });
}

function describeFailure(c: FuzzCase, status: number, response: string, dir: string, n: number): FuzzFailure {
  const text = c.body.toString('utf8');
  const clean = Buffer.from(text, 'utf8').equals(c.body);
  const bodyFile = join(dir, `failure-${n}-${c.endpoint}.body`);
  writeFileSync(bodyFile, c.body);
  return {
    endpoint: c.endpoint,
    transport: c.transport,
    contentType: c.contentType,
    status,
    response,
    body: clean ? JSON.stringify(text) : `base64:${c.body.toString('base64')}`,
    bodyFile,
  };
}

/** Counts each accepted item as stored or dead-lettered, waiting up to `ms` for the rest. */
async function settle(
  target: FuzzTarget,
  accepted: Accepted[],
  report: FuzzReport,
  ms: number,
  reportDir: string,
): Promise<void> {
  const db = target.tracker.db.ds;
  let pending = accepted;
  const deadline = Date.now() + ms;
  for (;;) {
    const found = new Set<string>();
    const keyOf = (endpoint: string, id: string) => `${endpoint}:${id}`;
    for (const endpoint of Object.keys(STORED_IN) as QueuedEndpoint[]) {
      const ids = [...new Set(pending.filter((a) => a.endpoint === endpoint && UUID.test(a.id)).map((a) => a.id))];
      if (ids.length === 0) continue;
      const { table, column } = STORED_IN[endpoint];
      const rows: Array<{ id: string }> = await db.query(
        `SELECT ${column}::text AS id FROM ${table} WHERE ${column} = ANY($1::uuid[])`,
        [ids],
      );
      for (const row of rows) {
        found.add(keyOf(endpoint, row.id));
      }
    }
    const storedNow = pending.filter((a) => found.has(keyOf(a.endpoint, a.id)));
    report.stored += storedNow.length;
    pending = pending.filter((a) => !found.has(keyOf(a.endpoint, a.id)));
    if (pending.length > 0) {
      const rows: Array<{ item_id: string; kind: string | null; error: string }> = await db.query(
        'SELECT lower(item_id) AS item_id, kind, error FROM dead_letters WHERE lower(item_id) = ANY($1::text[])',
        [[...new Set(pending.map((a) => a.id))]],
      );
      const dead = new Map(rows.map((r) => [r.item_id, r]));
      const deadNow = pending.filter((a) => dead.has(a.id));
      report.dead += deadNow.length;
      for (const a of deadNow) {
        const { error } = dead.get(a.id)!;
        if (!error) report.deadWithoutReason.push(`${a.endpoint}:${a.id}`);
        const reason = `${a.endpoint}: ${String(error).slice(0, 200)}`;
        const seen = report.deadReasons.get(reason);
        if (seen) seen.count += 1;
        else {
          const example = join(reportDir, `dead-${a.endpoint}-${a.id}.body`);
          writeFileSync(example, a.body);
          report.deadReasons.set(reason, { count: 1, example });
        }
      }
      pending = pending.filter((a) => !dead.has(a.id));
    }
    if (pending.length === 0 || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  report.lost = pending.map((a) => {
    const text = a.body.toString('utf8');
    const bodyFile = join(reportDir, `lost-${a.endpoint}-${a.id}.body`);
    writeFileSync(bodyFile, a.body);
    return {
      endpoint: a.endpoint,
      id: a.id,
      body: Buffer.from(text, 'utf8').equals(a.body) ? JSON.stringify(text) : `base64:${a.body.toString('base64')}`,
      bodyFile,
    };
  });
}
