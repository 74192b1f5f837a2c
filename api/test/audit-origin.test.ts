// What the audit log records of a request's client (api/src/audit/request-origin.ts): the
// browser's user agent only beside a client address the web role signed; otherwise the
// request's own User-Agent, whatever X-Tracker-Client-User-Agent claims.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { signClientAddress } from '@tracker/core';
import type { FastifyRequest } from 'fastify';
import { requestOriginOf } from '../src/audit/request-origin';

const SECRET = 'a-session-secret-of-enough-length-000';
const NOW = 1_800_000_000_000;
const request = (headers: Record<string, string>) => ({ headers, ip: '10.0.0.2' }) as unknown as FastifyRequest;

test("takes the browser's user agent from the web role, beside a signed client address", () => {
  const signed = signClientAddress(SECRET, '198.51.100.4', NOW);
  const origin = requestOriginOf(
    request({
      'user-agent': 'node',
      'x-tracker-client-address': signed,
      'x-tracker-client-user-agent': 'Mozilla/5.0 Firefox',
    }),
    '198.51.100.4',
    SECRET,
    NOW,
  );
  assert.deepEqual(origin, { clientAddress: '198.51.100.4', userAgent: 'Mozilla/5.0 Firefox' });
});

test('ignores a forwarded user agent without a valid signature: the request speaks for itself', () => {
  const forged = { 'user-agent': 'curl/8', 'x-tracker-client-user-agent': 'Mozilla/5.0 (innocent)' };
  assert.equal(requestOriginOf(request(forged), '10.0.0.2', SECRET, NOW).userAgent, 'curl/8');
  const otherSecret = signClientAddress('another-secret-entirely-0000000000', '198.51.100.4', NOW);
  const wrong = { ...forged, 'x-tracker-client-address': otherSecret };
  assert.equal(requestOriginOf(request(wrong), '10.0.0.2', SECRET, NOW).userAgent, 'curl/8');
  assert.equal(requestOriginOf(request(forged), '10.0.0.2', undefined, NOW).userAgent, 'curl/8');
  assert.equal(requestOriginOf(request({}), '10.0.0.2', SECRET, NOW).userAgent, null);
});
