import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeJob, errorEventSchema, mapOtlpSpans } from '@tracker/core';
import { parseBody } from '../src/http/parse-body';
import { isCanonicalErrorEvent } from '../src/http/error-event.canonical';
import { prepareErrorJob, prepareMappedErrorJob } from '../src/http/error.route';

const str = (v: string) => ({ stringValue: v });

/** Exception events of every shape the mapper meets. */
function spans(): unknown[] {
  const exception = (attributes: unknown[], timeUnixNano = String(BigInt(Date.now()) * 1_000_000n)) => ({
    traceId: '5b8efff798038103d269b633813fc60c',
    spanId: 'eee19b7ec3c1b174',
    name: 'POST /checkout',
    attributes: [{ key: 'http.route', value: str('/checkout') }],
    events: [{ name: 'exception', timeUnixNano, attributes }],
  });
  return [
    exception([
      { key: 'exception.type', value: str('TypeError') },
      { key: 'exception.message', value: str('card declined') },
      { key: 'exception.stacktrace', value: str('TypeError: card declined\n    at charge (/srv/pay.js:3:9)') },
      { key: 'exception.escaped', value: { boolValue: true } },
    ]),
    exception([{ key: 'exception.message', value: str('m'.repeat(20_000)) }]),
    exception([
      { key: 'exception.type', value: str('nul \u0000 and lone \ud800') },
      { key: 'password', value: str('hunter2') },
    ]),
    exception([{ key: 'exception.type', value: { intValue: '12' } }], '0'),
    exception([{ key: 'exception.stacktrace', value: str('s'.repeat(100_000)) }]),
  ];
}

test('a mapped OTLP exception called canonical is exactly what errorEventSchema returns, and is queued the same', () => {
  const resources = [
    {
      attributes: [
        { key: 'service.name', value: str('checkout') },
        { key: 'service.version', value: str('1.4.2') },
      ],
    },
    { attributes: [{ key: 'deployment.environment', value: str('e'.repeat(80)) }] },
    undefined,
  ];
  const key = {
    projectId: '00000000-0000-4000-8000-000000000001',
    privacy: { scrubDefaults: true, sensitiveFields: [], scrubIpAddresses: false },
  };
  let canonical = 0;
  let other = 0;
  for (const resource of resources) {
    const mapped = mapOtlpSpans({ resourceSpans: [{ resource, scopeSpans: [{ spans: spans() }] }] });
    for (const body of mapped.events) {
      const copy = structuredClone(body) as Record<string, unknown>;
      let parsed: unknown;
      try {
        parsed = parseBody(errorEventSchema, structuredClone(body));
      } catch {
        parsed = undefined;
      }
      if (isCanonicalErrorEvent(structuredClone(body))) {
        canonical += 1;
        assert.deepEqual(body, parsed);
      } else other += 1;
      if (parsed === undefined) {
        assert.throws(() => prepareMappedErrorJob(key as never, copy, '2026-11-27T00:00:00.000Z'));
        continue;
      }
      // The same job either way, but for the event id each draws.
      const eventId = '11111111-1111-4111-8111-111111111111';
      const fast = decodeJob(
        String(prepareMappedErrorJob(key as never, { ...copy, eventId }, '2026-11-27T00:00:00.000Z').payload),
      );
      const slow = decodeJob(
        String(prepareErrorJob(key as never, { ...copy, eventId }, undefined, '2026-11-27T00:00:00.000Z').payload),
      );
      assert.deepEqual(fast, slow);
    }
  }
  assert.ok(canonical > 0 && other > 0, `both kinds seen (${canonical} canonical, ${other} not)`);
});
