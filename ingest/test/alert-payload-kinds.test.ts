import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildSlackMessage, renderAlertEmail, type AlertPayload } from '../src/alerts';

const base = {
  ruleId: 'r1',
  deliveryId: 'd1',
  triggeredAt: '2026-01-02T03:04:05.000Z',
  project: { id: 'p1', name: 'Shop' },
};

// The project-wide kinds carry no issue (docs/alerts.md): Slack and email must still render them.
describe('alert payloads without an issue (ERROR_SPIKE, LOG_MATCH) render', () => {
  const log: AlertPayload = {
    ...base,
    kind: 'LOG_MATCH',
    query: 'payment failed',
    log: {
      id: 'l1',
      level: 'error',
      message: 'Payment failed for order <7>',
      environment: 'production',
      release: null,
      timestamp: '2026-01-02T03:04:00.000Z',
    },
  };
  const spike: AlertPayload = {
    ...base,
    kind: 'ERROR_SPIKE',
    window: { minutes: 5, threshold: 10, count: 120, unit: 'events', ratePerMinute: 24 },
  };

  test('Slack: the log line or the rate is the title; no issue button', () => {
    const s = buildSlackMessage(log);
    assert.match(s.text, /Log match in Shop: Payment failed for order &lt;7&gt;/);
    assert.equal(s.blocks.filter((b) => b.type === 'actions').length, 0);
    assert.match(buildSlackMessage(spike).text, /Error spike in Shop: 120 errors in 5 min/);
  });

  test('email: subject names the kind; no "View the issue" without an issue', () => {
    const m = renderAlertEmail(log);
    assert.equal(m.subject, '[Tracker] Log match: Payment failed for order <7>');
    assert.ok(!m.text.includes('View the issue'));
    assert.ok(m.html.includes('Payment failed for order &lt;7&gt;'));
    assert.equal(renderAlertEmail(spike).subject, '[Tracker] Error spike: 120 errors in 5 min');
  });
});
