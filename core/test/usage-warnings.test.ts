import assert from 'node:assert/strict';
import { test } from 'node:test';
import { billingPageLink, crossedThresholds, renderUsageWarningEmail } from '../src/quotas';

test('thresholds are reached at exactly 80 % and 100 %, in integers', () => {
  assert.deepEqual(crossedThresholds(3_999, 5_000), []);
  assert.deepEqual(crossedThresholds(4_000, 5_000), [80]);
  assert.deepEqual(crossedThresholds(4_999, 5_000), [80]);
  assert.deepEqual(crossedThresholds(5_000, 5_000), [80, 100]);
  assert.deepEqual(crossedThresholds(7_000, 5_000), [80, 100]);
  // 80 % of 7 is 5.6: 5 is below, 6 is above (no float rounding either way).
  assert.deepEqual(crossedThresholds(5, 7), []);
  assert.deepEqual(crossedThresholds(6, 7), [80]);
  assert.deepEqual(crossedThresholds(10, 0), []);
});

test('the warning email names the figures and the billing page; user text cannot break headers or HTML', () => {
  const link = billingPageLink('https://t.example.com/', 'acme & co');
  assert.equal(link, 'https://t.example.com/orgs/acme%20%26%20co/billing');
  const email = renderUsageWarningEmail({
    organizationName: 'Acme\r\nBcc: victim@example.com <script>',
    meter: 'events',
    threshold: 80,
    used: 4_000,
    limit: 5_000,
    period: '2026-11',
    periodEnd: new Date('2026-12-01T00:00:00Z'),
    billingUrl: link,
  });
  assert.equal(
    email.subject,
    '[Tracker] Acme Bcc: victim@example.com <script> has used 80% of its monthly event quota',
  );
  assert.doesNotMatch(email.subject, /[\r\n]/);
  assert.match(
    email.text,
    /4,000 of 5,000 events \(errors, messages and Web Vitals reports\) used in 2026-11 \(UTC\)\./,
  );
  assert.match(email.text, /1,000 remain until the quota resets on 2026-12-01/);
  assert.ok(email.text.includes(link));
  assert.ok(email.html.includes('&lt;script&gt;'));
  assert.equal(email.html.includes('<script>'), false);

  const full = renderUsageWarningEmail({
    organizationName: 'Acme',
    meter: 'logs',
    threshold: 100,
    used: 50_000,
    limit: 50_000,
    period: '2026-11',
    periodEnd: new Date('2026-12-01T00:00:00Z'),
    billingUrl: link,
  });
  assert.equal(full.subject, '[Tracker] Acme has reached its monthly log quota');
  assert.match(full.text, /new log entries are refused \(HTTP 429\)/);
});
