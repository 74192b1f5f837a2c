import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { describeEventUser } from '../app/lib/event-user.ts';
import { formatPercent } from '../app/lib/format.ts';
import { toSafeHref } from '../app/lib/safe-url.ts';
import { parseSnoozeUntil } from '../app/lib/snooze.ts';
import { visibleText } from '../app/lib/visible-text.ts';

describe('links from event data', () => {
  test('keeps plain http(s) URLs', () => {
    assert.equal(toSafeHref('https://shop.example/cart?id=1'), 'https://shop.example/cart?id=1');
    assert.equal(toSafeHref('http://localhost:3000/'), 'http://localhost:3000/');
  });

  test('never turns javascript:, data:, vbscript: or disguised schemes into links', () => {
    for (const hostile of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      ' javascript:alert(1)',
      'java\tscript:alert(1)',
      'java\nscript:alert(1)',
      '\u0001javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      '//evil.example/x',
      '/relative/path',
      'https:/\\evil.example',
      '',
    ]) {
      assert.equal(toSafeHref(hostile), null, JSON.stringify(hostile));
    }
  });
});

describe('event text', () => {
  test('shows bidi override characters instead of applying them', () => {
    assert.equal(visibleText('invoice\u202Efdp.exe'), 'invoice[U+202E]fdp.exe');
    assert.equal(visibleText('a\u2066b\u2069c\u200Fd'), 'a[U+2066]b[U+2069]c[U+200F]d');
    assert.equal(visibleText('plain <b>text</b>'), 'plain <b>text</b>');
  });
});

describe('snooze choices', () => {
  const now = Date.parse('2026-01-01T12:00:00Z');
  const form = (fields: Record<string, string>) => {
    const f = new FormData();
    for (const [k, v] of Object.entries(fields)) f.set(k, v);
    return f;
  };

  test('turns a duration or a future date into an ISO time', () => {
    assert.equal(parseSnoozeUntil(form({ duration: '1h' }), now), '2026-01-01T13:00:00.000Z');
    assert.equal(parseSnoozeUntil(form({ duration: '7d' }), now), '2026-01-08T12:00:00.000Z');
    assert.equal(parseSnoozeUntil(form({ until: '2026-02-03' }), now), '2026-02-03T00:00:00.000Z');
  });

  test('refuses unknown durations, malformed and past dates', () => {
    assert.equal(parseSnoozeUntil(form({ duration: '3y' }), now), null);
    assert.equal(parseSnoozeUntil(form({ until: '2025-12-31' }), now), null);
    assert.equal(parseSnoozeUntil(form({ until: 'tomorrow' }), now), null);
    assert.equal(parseSnoozeUntil(form({}), now), null);
  });
});

describe('event users and shares', () => {
  test('names the user by id with the email, else email, username or IP; null for nobody', () => {
    assert.equal(describeEventUser({ id: 'u1', email: 'ada@example.com' }), 'u1 (ada@example.com)');
    assert.equal(describeEventUser({ id: 42 }), '42');
    assert.equal(describeEventUser({ email: 'ada@example.com', username: 'ada' }), 'ada@example.com');
    assert.equal(describeEventUser({ username: 'ada', ip_address: '10.0.0.1' }), 'ada');
    assert.equal(describeEventUser({ ip_address: '10.0.0.1' }), '10.0.0.1');
    // Only strings and finite numbers: an object or array the SDK sent is not shown.
    assert.equal(describeEventUser({ id: { toString: 'x' }, email: ['a'], username: '  ' }), null);
    assert.equal(describeEventUser({}), null);
    assert.equal(describeEventUser(null), null);
  });

  test('percentages are whole, never a misleading 0% for a present share', () => {
    assert.equal(formatPercent(6, 10), '60%');
    assert.equal(formatPercent(1, 3), '33%');
    assert.equal(formatPercent(1, 1000), '<1%');
    assert.equal(formatPercent(0, 10), '0%');
    assert.equal(formatPercent(1, 0), '—');
  });
});
