import assert from 'node:assert/strict';
import { test } from 'node:test';
import { logSchema, mapOtlpLogs } from '@tracker/core';
import { parseBody } from '../src/http/parse-body';
import { isCanonicalLogBody } from '../src/otlp/log-body.canonical';

const str = (v: string) => ({ stringValue: v });

/** Records of every shape the mapper meets: each body it calls canonical must be what zod returns. */
function records(): unknown[] {
  let deep: unknown = str('bottom');
  for (let i = 0; i < 14; i++) deep = { kvlistValue: { values: [{ key: `k${i}`, value: deep }] } };
  return [
    { severityNumber: 9, body: str('plain'), timeUnixNano: String(BigInt(Date.now()) * 1_000_000n) },
    { severityText: 'warning', body: str('x'.repeat(9_000)) },
    { body: str('nul \u0000 and lone \ud800'), attributes: [{ key: 'a\u0000', value: str('\udc00') }] },
    {
      body: { kvlistValue: { values: [{ key: 'n', value: { intValue: '12' } }] } },
      attributes: [{ key: 'deep', value: deep }],
    },
    { severityNumber: 21, traceId: 'abc', spanId: '00f067aa0ba902b7', timeUnixNano: '0' },
    { body: str('') },
  ];
}

test('a mapped OTLP log body called canonical is exactly what logSchema returns', () => {
  const resources = [
    { attributes: [{ key: 'service.name', value: str('checkout') }] },
    {
      attributes: [
        { key: 'service.name', value: str('s'.repeat(300)) },
        { key: 'service.version', value: str('') },
      ],
    },
    { attributes: [{ key: 'deployment.environment', value: str('e'.repeat(80)) }] },
    undefined,
  ];
  let canonical = 0;
  let other = 0;
  for (const resource of resources) {
    for (const c of mapOtlpLogs({ resourceLogs: [{ resource, scopeLogs: [{ logRecords: records() }] }] })) {
      assert.ok(c.body);
      const parsed = parseBody(logSchema, c.body);
      if (isCanonicalLogBody(c.body)) {
        canonical += 1;
        assert.deepEqual(c.body, parsed);
      } else other += 1;
    }
  }
  assert.ok(canonical > 0 && other > 0, `both kinds seen (${canonical} canonical, ${other} not)`);
});

test('an attribute named __proto__ is dropped, not made the context object’s prototype', () => {
  const [log] = mapOtlpLogs({
    resourceLogs: [
      {
        resource: { attributes: [] },
        scopeLogs: [
          {
            logRecords: [
              {
                body: str('hostile'),
                attributes: [
                  { key: '__proto__', value: { kvlistValue: { values: [{ key: 'polluted', value: str('yes') }] } } },
                  { key: 'kept', value: str('k') },
                  { key: 'nested', value: { kvlistValue: { values: [{ key: '__proto__', value: str('x') }] } } },
                ],
              },
            ],
          },
        ],
      },
    ],
  });
  const context = log.body!.context as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(context), Object.prototype);
  assert.equal((context as { polluted?: unknown }).polluted, undefined);
  assert.equal(context.kept, 'k');
  assert.equal(Object.getPrototypeOf(context.nested), Object.prototype);
  assert.deepEqual(Object.keys(context.nested as object), []);
  assert.ok(!JSON.stringify(log.body).includes('polluted'));
});
