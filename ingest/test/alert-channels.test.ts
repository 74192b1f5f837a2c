/**
 * The exact messages each channel sends (docs/alerts.md shows the same examples), received by
 * real HTTP and SMTP servers on loopback.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { startSmtpReceiver, type SmtpReceiver } from '@tracker/core/testing';
import { createAlertSender, deliverAlert, type AlertPayload, type DeliveryOptions } from '../src/alerts';

const base: AlertPayload = {
  kind: 'REGRESSED_ISSUE',
  ruleId: '7a1c2b8e-1111-4c1a-9d43-0e7b9a1f0001',
  deliveryId: '5b0f9f5e-2222-4a7d-8c1e-3f4a5b6c0002',
  triggeredAt: '2026-01-02T03:04:05.000Z',
  project: { id: 'c0ffee00-3333-4b2b-8f00-000000000003', name: 'Shop' },
  issue: {
    id: 'deadbeef-4444-4e4e-a0a0-000000000004',
    title: 'TypeError: *bold* [click](https://evil.example) <b>x</b> @everyone',
    type: 'TypeError',
    culprit: 'app/cart.ts in addItem',
    status: 'OPEN',
    eventCount: 1234,
    userCount: 56,
    firstSeen: '2025-12-01T00:00:00.000Z',
    lastSeen: '2026-01-02T03:04:05.000Z',
    url: 'https://tracker.example.com/projects/c0ffee00-3333-4b2b-8f00-000000000003/issues/deadbeef-4444-4e4e-a0a0-000000000004',
  },
  event: {
    eventId: '9e8d7c6b-5555-4a5a-b5b5-000000000005',
    release: 'shop@2.4.1',
    environment: 'production',
    message: "Cannot read properties of undefined (reading 'id')",
  },
  eventsSinceLastAlert: 17,
  links: {
    muteRule:
      'https://tracker.example.com/projects/c0ffee00-3333-4b2b-8f00-000000000003/alerts/mute?rule=7a1c2b8e-1111-4c1a-9d43-0e7b9a1f0001',
  },
};

const local: DeliveryOptions = { allowPrivateTargets: true, timeoutMs: 3000 };

async function startReceiver(status = 200, body = 'ok') {
  const requests: Array<{ url: string; headers: http.IncomingHttpHeaders; json: any }> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ url: req.url!, headers: req.headers, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      res.writeHead(status, { 'content-type': 'text/plain' }).end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe('Slack: Block Kit with the issue, counts, release, environment, view and mute links', () => {
  let rx: Awaited<ReturnType<typeof startReceiver>>;
  before(async () => (rx = await startReceiver()));
  after(() => rx.close());

  test('the message, exactly', async () => {
    const r = await deliverAlert({ type: 'SLACK', url: `${rx.url}/services/T/B/x` }, base, local);
    assert.deepEqual([r.status, r.response], [200, 'ok']);
    const issueUrl = base.issue!.url;
    const title = 'TypeError: *bold* [click](https://evil.example) &lt;b&gt;x&lt;/b&gt; @everyone';
    assert.deepEqual(rx.requests[0].json, {
      text: `Regression in Shop: <${issueUrl}|${title}>`,
      blocks: [
        {
          type: 'header',
          text: {
            type: 'plain_text',
            text: 'Regression: TypeError: *bold* [click](https://evil.example) <b>x</b> @everyone',
            emoji: false,
          },
        },
        {
          type: 'section',
          text: {
            type: 'mrkdwn',
            text: `*<${issueUrl}|${title}>*\n\`app/cart.ts in addItem\`\n>Cannot read properties of undefined (reading 'id')`,
          },
        },
        {
          type: 'section',
          fields: [
            ['Project', 'Shop'],
            ['Events', '1234'],
            ['Users', '56'],
            ['Status', 'OPEN'],
            ['Since last alert', '17 events'],
            ['Environment', 'production'],
            ['Release', 'shop@2.4.1'],
            ['First seen', '2025-12-01T00:00:00.000Z'],
            ['Last seen', '2026-01-02T03:04:05.000Z'],
          ].map(([k, v]) => ({ type: 'mrkdwn', text: `*${k}*\n${v}` })),
        },
        {
          type: 'actions',
          elements: [
            { type: 'button', text: { type: 'plain_text', text: 'View issue' }, url: issueUrl, style: 'primary' },
            { type: 'button', text: { type: 'plain_text', text: 'Mute this rule' }, url: base.links!.muteRule },
          ],
        },
        {
          type: 'context',
          elements: [{ type: 'mrkdwn', text: 'Tracker · TypeError · triggered 2026-01-02T03:04:05.000Z' }],
        },
      ],
    });
  });

  test('optional facts of the counting kinds, a project-wide alert without an issue, a digest', async () => {
    const spike: AlertPayload = {
      kind: 'ERROR_SPIKE',
      ruleId: base.ruleId,
      deliveryId: base.deliveryId,
      triggeredAt: base.triggeredAt,
      project: base.project,
      window: { minutes: 5, threshold: 10, count: 73, unit: 'events', ratePerMinute: 14.6 },
      digest: {
        minutes: 15,
        count: 3,
        openedAt: base.triggeredAt,
        lastAt: base.triggeredAt,
        closesAt: base.triggeredAt,
        items: [
          {
            kind: 'ISSUE_FREQUENCY',
            triggeredAt: base.triggeredAt,
            project: base.project,
            issue: { ...base.issue!, title: 'first' },
          },
          {
            kind: 'LOG_MATCH',
            triggeredAt: base.triggeredAt,
            project: base.project,
            log: {
              id: 'l1',
              level: 'error',
              message: 'second',
              environment: 'production',
              release: null,
              timestamp: base.triggeredAt,
            },
          },
        ],
      },
    };
    await deliverAlert({ type: 'SLACK', url: `${rx.url}/s` }, spike, local);
    const body = rx.requests.at(-1)!.json;
    assert.equal(body.blocks[0].text.text, 'Digest · Error spike: 73 errors in 5 min');
    const fields = body.blocks[2].fields.map((f: any) => f.text);
    assert.deepEqual(fields, ['*Project*\nShop', '*In window*\n73 errors in 5 min (threshold 10)', '*Rate*\n14.6/min']);
    assert.equal(body.blocks[3].text.text, `*3 alerts in 15 min*\n• <${base.issue!.url}|first>\n• second\n…and 1 more`);
    assert.equal(
      body.blocks.some((b: any) => b.type === 'actions'),
      false,
      'no link to show',
    );
  });
});

describe('Microsoft Teams: message with an Adaptive Card', () => {
  let rx: Awaited<ReturnType<typeof startReceiver>>;
  before(async () => (rx = await startReceiver(202, '1')));
  after(() => rx.close());

  test('the message, exactly; event text only in TextRuns (never Markdown)', async () => {
    const r = await deliverAlert({ type: 'TEAMS', url: `${rx.url}/webhookb2/x` }, base, local);
    assert.deepEqual([r.channel, r.status, r.response], ['TEAMS', 202, '1']);
    const run = (text: string, style = {}) => ({ type: 'TextRun', text, ...style });
    const fact = (k: string, v: string) => ({
      type: 'RichTextBlock',
      inlines: [run(`${k}: `, { weight: 'Bolder' }), run(v)],
      spacing: 'None',
    });
    assert.deepEqual(rx.requests[0].json, {
      type: 'message',
      summary: 'Regression: TypeError: *bold* [click](https://evil.example) <b>x</b> @everyone',
      attachments: [
        {
          contentType: 'application/vnd.microsoft.card.adaptive',
          contentUrl: null,
          content: {
            $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
            type: 'AdaptiveCard',
            version: '1.4',
            msteams: { width: 'Full' },
            body: [
              {
                type: 'RichTextBlock',
                inlines: [run('Regression', { weight: 'Bolder', color: 'Attention' }), run(' · Shop')],
              },
              {
                type: 'RichTextBlock',
                inlines: [
                  run('TypeError: *bold* [click](https://evil.example) <b>x</b> @everyone', {
                    size: 'Large',
                    weight: 'Bolder',
                  }),
                ],
                spacing: 'Small',
              },
              { type: 'RichTextBlock', inlines: [run('app/cart.ts in addItem', { fontType: 'Monospace' })] },
              {
                type: 'RichTextBlock',
                inlines: [run("Cannot read properties of undefined (reading 'id')", { italic: true })],
              },
              fact('Project', 'Shop'),
              fact('Events', '1234'),
              fact('Users', '56'),
              fact('Status', 'OPEN'),
              fact('Since last alert', '17 events'),
              fact('Environment', 'production'),
              fact('Release', 'shop@2.4.1'),
              fact('First seen', '2025-12-01T00:00:00.000Z'),
              fact('Last seen', '2026-01-02T03:04:05.000Z'),
              {
                type: 'RichTextBlock',
                inlines: [
                  run('Tracker · TypeError · triggered 2026-01-02T03:04:05.000Z', { isSubtle: true, size: 'Small' }),
                ],
              },
            ],
            actions: [
              { type: 'Action.OpenUrl', title: 'View issue', url: base.issue!.url },
              { type: 'Action.OpenUrl', title: 'Mute this rule', url: base.links!.muteRule },
            ],
          },
        },
      ],
    });
  });
});

describe('Discord: webhook JSON with an embed', () => {
  let rx: Awaited<ReturnType<typeof startReceiver>>;
  before(async () => (rx = await startReceiver(204, '')));
  after(() => rx.close());

  test('the message, exactly; Markdown escaped and mentions off', async () => {
    const r = await deliverAlert({ type: 'DISCORD', url: `${rx.url}/api/webhooks/1/t` }, base, local);
    assert.deepEqual([r.channel, r.status, r.response], ['DISCORD', 204, '']);
    const escapedTitle = 'TypeError: \\*bold\\* \\[click\\]\\(https://evil.example\\) \\<b\\>x\\</b\\>';
    assert.deepEqual(rx.requests[0].json, {
      content: `Regression in Shop: ${escapedTitle} \\@everyone`,
      embeds: [
        {
          title: `Regression: ${escapedTitle} \\@everyone`,
          description:
            "`app/cart.ts in addItem`\n> Cannot read properties of undefined \\(reading 'id'\\)\n" +
            `[Mute this rule](${base.links!.muteRule})`,
          color: 0xe03e2f,
          fields: [
            ['Project', 'Shop'],
            ['Events', '1234'],
            ['Users', '56'],
            ['Status', 'OPEN'],
            ['Since last alert', '17 events'],
            ['Environment', 'production'],
            ['Release', 'shop\\@2.4.1'],
            ['First seen', '2025-12-01T00:00:00.000Z'],
            ['Last seen', '2026-01-02T03:04:05.000Z'],
          ].map(([name, value]) => ({ name, value, inline: true })),
          footer: { text: 'Tracker · TypeError · triggered 2026-01-02T03:04:05.000Z' },
          timestamp: '2026-01-02T03:04:05.000Z',
          url: base.issue!.url,
        },
      ],
      allowed_mentions: { parse: [] },
    });
  });
});

describe('a test send is marked as one on every channel', () => {
  let rx: Awaited<ReturnType<typeof startReceiver>>;
  before(async () => (rx = await startReceiver()));
  after(() => rx.close());

  test('webhook header and payload flag, chat labels', async () => {
    const send = createAlertSender({ allowPrivateTargets: true, timeoutMs: 3000 });
    const request = {
      id: base.deliveryId,
      ruleId: base.ruleId,
      kind: 'NEW_ISSUE' as const,
      payload: { ...base, test: true },
      createdAt: new Date(base.triggeredAt),
      url: `${rx.url}/t`,
      email: null,
      secret: 'whsec_x',
    };
    for (const channelType of ['WEBHOOK', 'SLACK', 'TEAMS', 'DISCORD'] as const) {
      const outcome = await send({ ...request, channelType });
      assert.deepEqual(outcome, {
        ok: true,
        status: 200,
        // The receiver is on loopback: its answer is not passed on to be stored (issue 28).
        response: null,
        error: null,
        retryable: false,
        retryAfterMs: null,
      });
    }
    const [hook, slack, teams, discord] = rx.requests.slice(-4);
    assert.equal(hook.headers['x-tracker-test'], '1');
    assert.equal(hook.json.test, true);
    assert.equal(hook.json.kind, 'NEW_ISSUE');
    assert.match(slack.json.blocks[0].text.text, /^Test · New issue: /);
    assert.equal(teams.json.attachments[0].content.body[0].inlines[0].text, 'Test · New issue');
    assert.match(discord.json.embeds[0].title, /^Test · New issue: /);
    assert.equal(discord.json.embeds[0].color, 0x5865f2);
  });

  test('a failed send is an outcome in users words, never an exception', async () => {
    const down = await startReceiver(404, 'no_such_hook');
    const send = createAlertSender({ allowPrivateTargets: true, timeoutMs: 3000 });
    const outcome = await send({
      id: base.deliveryId,
      ruleId: base.ruleId,
      kind: 'NEW_ISSUE',
      payload: { ...base },
      createdAt: new Date(),
      channelType: 'DISCORD',
      url: `${down.url}/x`,
      email: null,
      secret: null,
    });
    await down.close();
    assert.deepEqual(outcome, {
      ok: false,
      status: 404,
      response: null,
      error:
        'The Discord receiver answered HTTP 404 Not Found. Tracker will not retry: check the address and the receiver.',
      retryable: false,
      retryAfterMs: null,
    });
  });
});

describe('email: multipart text and HTML, event text escaped in the HTML', () => {
  let smtp: SmtpReceiver;
  let port: number;
  before(async () => {
    smtp = await startSmtpReceiver();
    port = smtp.port;
  });
  after(() => smtp.close());

  test('both parts, the mute link, no raw markup from the event', async () => {
    const r = await deliverAlert(
      { type: 'EMAIL', email: 'oncall@example.com' },
      { ...base, test: true },
      {
        ...local,
        smtp: { host: '127.0.0.1', port, secure: false, from: 'alerts@tracker.example.com' },
      },
    );
    assert.equal(r.status, 250);
    assert.match(r.response!, /^250 /);
    const raw = smtp.messages.at(-1)!.raw;
    assert.match(raw, /Content-Type: multipart\/alternative;\r\n boundary=/);
    assert.match(raw, /X-Tracker-Test: 1/);
    const qp = (t: string) =>
      Buffer.from(
        t.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
        'latin1',
      ).toString('utf8');
    const part = (type: string) => {
      const at = raw.indexOf(`Content-Type: ${type}; charset=utf-8`);
      assert.ok(at > 0, `has a ${type} part`);
      const body = raw.slice(raw.indexOf('\r\n\r\n', at) + 4);
      return qp(body.slice(0, body.indexOf('\r\n----')));
    };
    const text = part('text/plain');
    const html = part('text/html');
    assert.ok(text.includes('TypeError: *bold* [click](https://evil.example) <b>x</b> @everyone'));
    assert.ok(text.includes(`Mute this rule: ${base.links!.muteRule}`));
    assert.match(text, /^Test · Regression in Shop\r\n/);
    assert.ok(html.includes('TypeError: *bold* [click](https://evil.example) &lt;b&gt;x&lt;/b&gt; @everyone'));
    assert.ok(!html.includes('<b>x</b>'), 'no markup from the event in the HTML');
    assert.ok(html.includes(`<a href="${base.links!.muteRule}">Mute this rule</a>`));
    assert.ok(html.includes('<td>1234</td>'));
  });
});
