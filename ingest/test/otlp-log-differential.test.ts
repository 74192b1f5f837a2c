import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  attributesOf,
  logSchema,
  mapOtlpLogs,
  numberOf,
  readOtlpResource,
  resourceFields,
  scrubberFor,
  storableText,
  valueOf,
  type JsonObject,
  type KeyInfo,
  type PrivacySettings,
} from '@tracker/core';
import generated from 'otlp-transformer-protos/build/src/generated/root';
import { parseBody } from '../src/http/parse-body';
import { isCanonicalLogBody } from '../src/otlp/log-body.canonical';
import { decodeOtlpRequest } from '../src/otlp/otlp-codec';
import { takeOtlpLogs } from '../src/otlp/take-otlp-logs';

/*
 * The OTLP logs door before its per-record costs were cut (issue 34, commit be65c964's mapper
 * and job encoding), kept here as the oracle: the door must write the very same job text for
 * every record, whatever the record holds. Only the functions that changed are copied.
 */
const TEXT_LEVELS: Record<string, string> = {
  trace: 'debug',
  debug: 'debug',
  info: 'info',
  information: 'info',
  notice: 'info',
  warn: 'warn',
  warning: 'warn',
  error: 'error',
  err: 'error',
  fatal: 'error',
  critical: 'error',
  crit: 'error',
  emergency: 'error',
  alert: 'error',
};

function oldIso(v: unknown): string | undefined {
  const nanos = numberOf(v);
  if (nanos === undefined || nanos <= 0) return undefined;
  const date = new Date(Math.floor(nanos / 1e6));
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

function oldHexId(v: unknown, bytes: 16 | 8): string | null {
  let hex: string;
  if (v instanceof Uint8Array) hex = Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex');
  else if (typeof v === 'string') hex = v.toLowerCase();
  else if (v === undefined || v === null) return '';
  else return null;
  if (hex === '' || /^0+$/.test(hex)) return hex.length === 0 || hex.length === bytes * 2 ? '' : null;
  return hex.length === bytes * 2 && /^[0-9a-f]*$/i.test(hex) ? hex : null;
}

/** Records with a problem are not compared here (the mapper's refusals did not change). */
function oldLogBody(r: JsonObject, shared: JsonObject, rest: JsonObject, scope: string | undefined): JsonObject {
  const n = typeof r.severityNumber === 'number' && r.severityNumber !== 0 ? r.severityNumber : undefined;
  const bySeverity =
    n === undefined || !Number.isInteger(n) || n < 1 || n > 24
      ? undefined
      : n <= 8
        ? 'debug'
        : n <= 12
          ? 'info'
          : n <= 16
            ? 'warn'
            : 'error';
  const text = typeof r.severityText === 'string' ? TEXT_LEVELS[r.severityText.trim().toLowerCase()] : undefined;
  const level = bySeverity ?? text ?? 'info';
  const value = r.body === undefined || r.body === null ? '' : valueOf(r.body);
  const message = typeof value === 'string' ? value : value === null ? '' : storableText(JSON.stringify(value));
  const context: JsonObject = attributesOf(r.attributes);
  const meta: JsonObject = {};
  for (const [field, name, bytes] of [
    ['traceId', 'trace_id', 16],
    ['spanId', 'span_id', 8],
  ] as const) {
    const id = oldHexId(r[field], bytes);
    if (id) context[name] = id;
    else if (id === null) meta[name] = { dropped: 1, reason: `not ${bytes} bytes (${bytes * 2} hex digits)` };
  }
  if (scope) context['otel.scope'] = scope;
  if (Object.keys(rest).length > 0) context.resource = rest;
  if (Object.keys(meta).length > 0) context._meta = meta;
  const body: JsonObject = { level, message, ...shared };
  if (Object.keys(context).length > 0) body.context = context;
  const timestamp = oldIso(r.timeUnixNano) ?? oldIso(r.observedTimeUnixNano);
  if (timestamp) body.timestamp = timestamp;
  return body;
}

/** A small deterministic generator, so a failure names a case that can be run again. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1_664_525 + 1_013_904_223) >>> 0;
    return s / 4_294_967_296;
  };
}

const str = (v: string) => ({ stringValue: v });
const NASTY = [
  '',
  ' ',
  'nul \u0000 here',
  'lone \ud800',
  '\udc00 lone',
  'x'.repeat(120_000),
  '4111 1111 1111 1111',
  '10.1.2.3',
  '💥',
];

function anyValue(rand: () => number, depth: number): unknown {
  const pick = Math.floor(rand() * (depth > 3 ? 6 : 8));
  switch (pick) {
    case 0:
      return str(NASTY[Math.floor(rand() * NASTY.length)]);
    case 1:
      return { boolValue: rand() < 0.5 };
    case 2:
      return { intValue: ['9007199254740993', '-12', '0', 7][Math.floor(rand() * 4)] };
    case 3:
      return { doubleValue: [1.5, -0, 1e308][Math.floor(rand() * 3)] };
    case 4:
      return { bytesValue: Buffer.from([0, 255, 1, Math.floor(rand() * 256)]) };
    case 5:
      return {};
    case 6:
      return { arrayValue: { values: Array.from({ length: 3 }, () => anyValue(rand, depth + 1)) } };
    default:
      return { kvlistValue: { values: attrs(rand, depth + 1) } };
  }
}

const KEYS = ['order.id', 'password', 'http.route', 'client.ip', 'k\u0000ey', 'token_hint', '', 'deep'];

function attrs(rand: () => number, depth: number): unknown[] {
  return Array.from({ length: Math.floor(rand() * 4) }, () => ({
    key: KEYS[Math.floor(rand() * KEYS.length)],
    value: anyValue(rand, depth),
  }));
}

function deepKvlist(levels: number): unknown {
  let v: unknown = str('bottom');
  for (let i = 0; i < levels; i++) v = { kvlistValue: { values: [{ key: `k${i}`, value: v }] } };
  return v;
}

function record(rand: () => number, i: number): Record<string, unknown> {
  const ids = [
    undefined,
    Buffer.alloc(0),
    Buffer.alloc(16),
    Buffer.alloc(8),
    Buffer.alloc(7, 1),
    Buffer.alloc(16, 0xab),
    Buffer.from('00000000000000000000000000000001', 'hex'),
    Buffer.from('00000000000a0b00', 'hex'),
  ];
  const times = [undefined, '0', '1700000000123456789', '16725225600000000000', String(1_700_000_000_000_000_000 + i)];
  return {
    timeUnixNano: times[Math.floor(rand() * times.length)],
    observedTimeUnixNano: times[Math.floor(rand() * times.length)],
    severityNumber: Math.floor(rand() * 25),
    severityText: ['', 'WARNING', ' Fatal ', 'nonsense'][Math.floor(rand() * 4)],
    body: rand() < 0.15 ? deepKvlist(14) : rand() < 0.1 ? undefined : anyValue(rand, 0),
    attributes: rand() < 0.1 ? [{ key: 'deep', value: deepKvlist(12) }] : attrs(rand, 0),
    traceId: ids[Math.floor(rand() * ids.length)],
    spanId: ids[Math.floor(rand() * ids.length)],
  };
}

function request(seed: number): Record<string, unknown> {
  const rand = rng(seed);
  const resources = [
    {
      attributes: [
        { key: 'service.name', value: str('checkout') },
        { key: 'host.name', value: str('10.0.0.7') },
      ],
    },
    {
      attributes: [
        { key: 'service.name', value: str('s'.repeat(300)) },
        { key: 'service.version', value: str('') },
      ],
    },
    {
      attributes: [
        { key: 'deployment.environment', value: str('e\u0000'.repeat(40)) },
        ...(attrs(rand, 0) as object[]),
      ],
    },
    undefined,
  ];
  return {
    resourceLogs: resources.map((resource, r) => ({
      resource,
      scopeLogs: [
        {
          scope: r % 2 === 0 ? { name: 'orders' } : undefined,
          logRecords: Array.from({ length: 40 }, (_, i) => record(rand, i)),
        },
      ],
    })),
  };
}

const ExportLogs = (generated as any).opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;

const PRIVACY: Array<PrivacySettings | undefined> = [
  undefined,
  { scrubDefaults: true, sensitiveFields: ['route', 'resource'], scrubIpAddresses: true },
  { scrubDefaults: false, sensitiveFields: [], scrubIpAddresses: false },
];

test('the OTLP logs door writes the same job text as before for every kind of record, decoded from protobuf', async () => {
  const receivedAt = '2026-11-28T04:00:00.000Z';
  let compared = 0;
  for (let seed = 1; seed <= 12; seed++) {
    const decoded = decodeOtlpRequest(
      'logs',
      'protobuf',
      Buffer.from(ExportLogs.encode(ExportLogs.fromObject(request(seed))).finish()),
    );
    const candidates = mapOtlpLogs(decoded);
    const expected: JsonObject[] = [];
    for (const rl of (decoded as { resourceLogs: Array<Record<string, any>> }).resourceLogs) {
      const resource = readOtlpResource(rl.resource);
      for (const sl of rl.scopeLogs) {
        const scope = typeof sl.scope?.name === 'string' && sl.scope.name.trim() !== '' ? sl.scope.name : undefined;
        for (const r of sl.logRecords) expected.push(oldLogBody(r, resourceFields(resource), resource.rest, scope));
      }
    }
    assert.equal(candidates.length, expected.length);
    candidates.forEach((c, i) => assert.deepEqual(c.body, expected[i], `seed ${seed}, record ${i}`));
    for (const privacy of PRIVACY) {
      const key = { projectId: '00000000-0000-4000-8000-00000000000a', privacy } as unknown as KeyInfo;
      const taken = await takeOtlpLogs(key, candidates, receivedAt, {});
      const scrubber = scrubberFor(privacy);
      const before = expected.map((b) => scrubber.log(isCanonicalLogBody(b) ? b : parseBody(logSchema, b)));
      assert.equal(taken.payloads.length, before.length);
      taken.payloads.forEach((payload, i) => {
        const id = (JSON.parse(String(payload)) as { log: { id: string } }).log.id;
        const old = JSON.stringify({
          v: 1,
          kind: 'log',
          projectId: key.projectId,
          receivedAt,
          log: { ...before[i], id },
        });
        assert.equal(String(payload), old, `seed ${seed}, record ${i}`);
        compared += 1;
      });
    }
  }
  assert.ok(compared > 1_000, `${compared} records compared`);
});
