import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CLIENT_ADDRESS_MAX_SKEW_MS, signClientAddress, verifyClientAddress } from '../src/security/client-address';

const SECRET = 'the-session-secret-of-this-install';
const NOW = Date.parse('2026-11-27T12:00:00.000Z');

describe('the browser address the web role signs for the API (issue 28)', () => {
  test('a value signed with the secret verifies to its address, IPv4 and IPv6', () => {
    for (const address of ['203.0.113.7', '2001:db8::1', '::ffff:198.51.100.2']) {
      assert.equal(verifyClientAddress(SECRET, signClientAddress(SECRET, address, NOW), NOW), address);
    }
  });

  test('another secret, an edited address or time, or a stale value do not verify', () => {
    const value = signClientAddress(SECRET, '203.0.113.7', NOW);
    const [, seconds, mac] = value.split(';');
    assert.equal(verifyClientAddress('another-secret-entirely', value, NOW), null);
    assert.equal(verifyClientAddress(SECRET, `203.0.113.8;${seconds};${mac}`, NOW), null);
    assert.equal(verifyClientAddress(SECRET, `203.0.113.7;${Number(seconds) + 1};${mac}`, NOW), null);
    assert.equal(verifyClientAddress(SECRET, value, NOW + CLIENT_ADDRESS_MAX_SKEW_MS + 1_000), null);
    assert.equal(verifyClientAddress(SECRET, value, NOW - CLIENT_ADDRESS_MAX_SKEW_MS - 1_000), null);
    assert.equal(verifyClientAddress(SECRET, value, NOW + CLIENT_ADDRESS_MAX_SKEW_MS - 1_000), '203.0.113.7');
  });

  test('malformed values are refused without throwing', () => {
    const mac = signClientAddress(SECRET, '203.0.113.7', NOW).split(';')[2];
    for (const value of [
      '',
      '203.0.113.7',
      `203.0.113.7;${NOW / 1000}`,
      `not-an-address;${NOW / 1000};${mac}`,
      `203.0.113.7;soon;${mac}`,
      `203.0.113.7;${NOW / 1000};${mac};extra`,
      `203.0.113.7;${NOW / 1000};short`,
      'x'.repeat(10_000),
    ]) {
      assert.equal(verifyClientAddress(SECRET, value, NOW), null, value.slice(0, 40));
    }
  });

  test("the key is the secret's own derivation: a plain HMAC with the session secret does not verify", async () => {
    const { createHmac } = await import('node:crypto');
    const seconds = NOW / 1000;
    const plain = createHmac('sha256', SECRET).update(`203.0.113.7;${seconds}`).digest('base64url');
    assert.equal(verifyClientAddress(SECRET, `203.0.113.7;${seconds};${plain}`, NOW), null);
  });
});
