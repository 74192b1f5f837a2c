import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  DEFAULT_PRIVACY_SETTINGS,
  FILTERED,
  luhnValid,
  Scrubber,
  scrubberFor,
  type PrivacySettings,
} from '../src/privacy';

const defaults = scrubberFor(undefined);
const withIps = new Scrubber({ ...DEFAULT_PRIVACY_SETTINGS, scrubIpAddresses: true });

// Test numbers of the card networks (Luhn-valid) and the same with one digit changed.
const VISA = '4111111111111111';
const AMEX = '378282246310005';
const MASTERCARD_2 = '2223003122003222';
const VISA_BAD = '4111111111111112';

describe('card numbers', () => {
  test('Luhn check', () => {
    assert.equal(luhnValid(VISA), true);
    assert.equal(luhnValid(AMEX), true);
    assert.equal(luhnValid(VISA_BAD), false);
  });

  test('Luhn-valid numbers of 13 to 19 digits, with or without spaces or dashes, are filtered in text', () => {
    assert.equal(defaults.text(`paid with ${VISA} today`), `paid with ${FILTERED} today`);
    assert.equal(defaults.text('card 4111 1111 1111 1111.'), `card ${FILTERED}.`);
    assert.equal(defaults.text('card 4111-1111-1111-1111'), `card ${FILTERED}`);
    assert.equal(defaults.text(`amex:${AMEX}`), `amex:${FILTERED}`);
    assert.equal(defaults.text(MASTERCARD_2), FILTERED);
    assert.equal(defaults.text('4222222222222'), FILTERED, '13-digit Visa');
    assert.equal(defaults.text(`${VISA} and ${AMEX}`), `${FILTERED} and ${FILTERED}`);
  });

  test('numbers that fail Luhn, are too short or too long, or start like a timestamp are kept', () => {
    assert.equal(luhnValid('1718035200001'), true);
    for (const s of [
      `order ${VISA_BAD}`,
      '411111111111', // 12 digits
      `${VISA}1234`, // 20 digits: part of something longer
      `x${VISA}99`,
      '1718035200001', // a millisecond timestamp (Luhn-valid, starts with 1)
      '4111  1111 1111 1111', // two spaces: not one number
      'line 42, column 7, 2024-06-01',
      'v4.1.1.1',
    ]) {
      assert.equal(defaults.text(s), s, s);
    }
  });

  test('a text with nothing to filter is returned as is', () => {
    const s = 'TypeError: cannot read properties of undefined (reading "x")';
    assert.equal(defaults.text(s), s);
  });
});

describe('sensitive keys', () => {
  test('values under sensitive keys are filtered at any depth, case-insensitively, whatever their type', () => {
    const context = {
      request: {
        method: 'POST',
        headers: { Authorization: 'Bearer abc', 'Set-Cookie': 'sid=1', Accept: 'text/html', 'X-CSRF-Token': 't' },
        cookies: { sid: 'x', theme: 'dark' },
        data: { username: 'ann', password: 'hunter2', nested: [{ API_KEY: 'k1' }, { apiKey: 'k2' }] },
      },
      db: { PASSWD: 'p', pwd: 'p', private_key: '-----BEGIN', credentials: { user: 'u', pass: 'p' } },
      sessionId: 12345,
      accessToken: { value: 'x' },
      keep: null,
      count: 3,
      ok: true,
    };
    assert.deepEqual(defaults.value(context), {
      request: {
        method: 'POST',
        headers: { Authorization: FILTERED, 'Set-Cookie': FILTERED, Accept: 'text/html', 'X-CSRF-Token': FILTERED },
        cookies: FILTERED,
        data: { username: 'ann', password: FILTERED, nested: [{ API_KEY: FILTERED }, { apiKey: FILTERED }] },
      },
      db: { PASSWD: FILTERED, pwd: FILTERED, private_key: FILTERED, credentials: FILTERED },
      sessionId: FILTERED,
      accessToken: FILTERED,
      keep: null,
      count: 3,
      ok: true,
    });
  });

  test('header lists as [name, value] pairs', () => {
    assert.deepEqual(
      defaults.value({
        headers: [
          ['Cookie', 'a=b'],
          ['Accept', '*/*'],
          ['authorization', 'Basic x'],
        ],
      }),
      {
        headers: [
          ['Cookie', FILTERED],
          ['Accept', '*/*'],
          ['authorization', FILTERED],
        ],
      },
    );
  });

  test('unchanged values come back as the same objects; changed ones as copies, the input untouched', () => {
    const clean = { a: { b: [1, 'two', { c: 'd' }] }, e: 'f' };
    assert.equal(defaults.value(clean), clean);
    const dirty = { a: { keep: 'x' }, b: { token: 'abc' }, c: 'z' };
    const out = defaults.value(dirty) as typeof dirty;
    assert.notEqual(out, dirty);
    assert.equal(out.a, dirty.a, 'unchanged branches are shared');
    assert.deepEqual(dirty, { a: { keep: 'x' }, b: { token: 'abc' }, c: 'z' });
    assert.deepEqual(Object.keys(out), ['a', 'b', 'c'], 'key order kept');
  });

  test('card numbers in string values at any depth', () => {
    assert.deepEqual(defaults.value({ order: { note: `card ${VISA}`, list: [AMEX, 'x'] } }), {
      order: { note: `card ${FILTERED}`, list: [FILTERED, 'x'] },
    });
  });
});

describe('events, logs and feedback', () => {
  const event = {
    message: `charge failed for ${VISA}`,
    type: 'Error',
    environment: 'production',
    stack: `Error: charge failed for ${VISA}\n    at pay (https://10.0.0.5:3000/app.js:1:2)`,
    context: { request: { headers: { Cookie: 'sid=1' } }, note: 'from 192.168.1.20' },
    tags: { session_id: 'abc', route: '/pay', ip: '10.1.2.3' },
    user: { id: VISA, email: 'ann@example.com', username: 'ann', password: 'x', ip_address: '203.0.113.9' },
    url: 'https://shop.example.com/pay',
  };

  test('defaults: message, stack, context, tags and user; user.id and user.email kept; no IPs touched', () => {
    const out = defaults.errorEvent(event);
    assert.equal(out.message, `charge failed for ${FILTERED}`);
    assert.equal(out.stack, `Error: charge failed for ${FILTERED}\n    at pay (https://10.0.0.5:3000/app.js:1:2)`);
    assert.deepEqual(out.context, { request: { headers: { Cookie: FILTERED } }, note: 'from 192.168.1.20' });
    assert.deepEqual(out.tags, { session_id: FILTERED, route: '/pay', ip: '10.1.2.3' });
    assert.deepEqual(out.user, {
      id: VISA,
      email: 'ann@example.com',
      username: 'ann',
      password: FILTERED,
      ip_address: '203.0.113.9',
    });
    assert.equal(out.url, event.url);
    assert.equal(event.message, `charge failed for ${VISA}`, 'the input is not changed');
  });

  test('IP scrubbing: IPv4 and IPv6 in text, user.ip_address and user.ip; URL hosts in stack frames kept', () => {
    const out = withIps.errorEvent({
      ...event,
      message: 'connect ECONNREFUSED 10.0.0.7:5432 via fe80::1%eth0 and [2001:db8::8a2e:370:7334]',
      user: { id: '1', ip: '::ffff:192.0.2.1', ip_address: '203.0.113.9' },
    });
    assert.equal(out.message, `connect ECONNREFUSED ${FILTERED}:5432 via ${FILTERED} and [${FILTERED}]`);
    assert.equal(out.stack, `Error: charge failed for ${FILTERED}\n    at pay (https://10.0.0.5:3000/app.js:1:2)`);
    assert.deepEqual(out.context, { request: { headers: { Cookie: FILTERED } }, note: `from ${FILTERED}` });
    assert.deepEqual(out.tags, { session_id: FILTERED, route: '/pay', ip: FILTERED });
    assert.deepEqual(out.user, { id: '1', ip: FILTERED, ip_address: FILTERED });
  });

  test('structured frames (Sentry SDKs): file and function names scrubbed as the stack text is', () => {
    const frames = [
      { filename: 'https://10.0.0.5:3000/app.js', function: 'pay', lineno: 1, colno: 2, inApp: true },
      { filename: '/srv/jobs/10.1.2.3/run.py', function: `charge_${VISA}`, lineno: null, colno: null, inApp: true },
      { filename: 'node:internal/timers', function: null, lineno: 5, colno: 9, inApp: false },
    ];
    const out = withIps.errorEvent({ ...event, frames });
    assert.deepEqual(out.frames, [
      frames[0],
      { ...frames[1], filename: `/srv/jobs/${FILTERED}/run.py`, function: `charge_${FILTERED}` },
      frames[2],
    ]);
    assert.equal(out.frames?.[0], frames[0], 'unchanged frames are not copied');
    assert.equal(frames[1].filename, '/srv/jobs/10.1.2.3/run.py', 'the input is not changed');
    const clean = { message: 'm', frames: [frames[0], frames[2]] };
    assert.equal(withIps.errorEvent(clean), clean);
  });

  test('IP-like texts that are not addresses are kept', () => {
    for (const s of ['at 12:30:45', 'version 1.2.3', 'v1.2.3.4', '1.2.3.4.5', '256.1.1.1', 'std::vector', 'a:b']) {
      assert.equal(withIps.text(s), s, s);
    }
  });

  test('custom key names are added to the built-in ones, or used alone with the defaults off', () => {
    const custom: PrivacySettings = {
      scrubDefaults: true,
      sensitiveFields: ['ssn', 'Birth.Date'],
      scrubIpAddresses: false,
    };
    const scrubber = scrubberFor(custom);
    assert.equal(scrubberFor(custom), scrubber, 'cached per settings object');
    assert.deepEqual(scrubber.value({ SSN_last: '1234', 'birth.date': '1990', birthXdate: 'kept', token: 't' }), {
      SSN_last: FILTERED,
      'birth.date': FILTERED,
      birthXdate: 'kept',
      token: FILTERED,
    });
    const only = new Scrubber({ scrubDefaults: false, sensitiveFields: ['ssn'], scrubIpAddresses: false });
    assert.deepEqual(only.value({ ssn: '1', token: 't', card: VISA }), { ssn: FILTERED, token: 't', card: VISA });
  });

  test('everything off: nothing changes, and the same object comes back', () => {
    const off = new Scrubber({ scrubDefaults: false, sensitiveFields: [], scrubIpAddresses: false });
    assert.equal(off.active, false);
    assert.equal(off.errorEvent(event), event);
  });

  test('an event with nothing to scrub comes back as the same object', () => {
    const clean = {
      message: 'x is undefined',
      stack: 'TypeError: x is undefined\n    at f (https://a.example.com/a.js:10:20)',
      context: { route: '/home', build: 1718035200001, when: '1718035200001' },
      tags: { browser: 'Firefox' },
      user: { id: '42' },
    };
    assert.equal(defaults.errorEvent(clean), clean);
    assert.equal(withIps.errorEvent(clean), clean);
  });

  test('logs: message, context and tags; feedback: message only', () => {
    const log = { level: 'info', message: `card ${VISA}`, context: { apiKey: 'k', n: 1 }, tags: { cookie: 'c' } };
    assert.deepEqual(defaults.log(log), {
      level: 'info',
      message: `card ${FILTERED}`,
      context: { apiKey: FILTERED, n: 1 },
      tags: { cookie: FILTERED },
    });
    const feedback = { message: `my card ${VISA} was charged twice`, email: 'ann@example.com' };
    assert.deepEqual(defaults.feedback(feedback), {
      message: `my card ${FILTERED} was charged twice`,
      email: 'ann@example.com',
    });
    const clean = { message: 'thanks' };
    assert.equal(defaults.feedback(clean), clean);
  });
});
