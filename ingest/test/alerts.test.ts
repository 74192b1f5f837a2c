import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { isAppError } from '@tracker/core';
import { startSmtpReceiver, type ReceivedMail, type SmtpReceiver } from '@tracker/core/testing';
import {
  assertPublicUrl,
  BACKOFF_CAP_MS,
  backoffDelayMs,
  classifyAddress,
  createGuardedLookup,
  deliverAlert,
  DeliveryError,
  MAX_DELIVERY_ATTEMPTS,
  isPrivatePeer,
  MAX_RESPONSE_CHARS,
  nextRetryAt,
  redirectHint,
  RETRY_WINDOW_MS,
  verifyWebhookSignature,
  type AlertChannel,
  type AlertIssue,
  type AlertPayload,
  type DeliveryOptions,
  type HostResolver,
} from '../src/alerts';

// Every server here listens on 127.0.0.1; nothing leaves the loopback interface. The guard
// cases aim at other addresses only to be refused before any socket is opened.

const SECRET = 'whsec_test_0123456789abcdef';

const payload: AlertPayload & { issue: AlertIssue } = {
  kind: 'REGRESSED_ISSUE',
  ruleId: '7a1c2b8e-1111-4c1a-9d43-0e7b9a1f0001',
  deliveryId: '5b0f9f5e-2222-4a7d-8c1e-3f4a5b6c0002',
  triggeredAt: '2026-01-02T03:04:05.000Z',
  project: { id: 'c0ffee00-3333-4b2b-8f00-000000000003', name: 'Shop & <Web>' },
  issue: {
    id: 'deadbeef-4444-4e4e-a0a0-000000000004',
    title: "TypeError: <script>alert('x')</script> & cannot read 'id'",
    type: 'TypeError',
    culprit: 'app/cart.ts in addItem',
    status: 'OPEN',
    eventCount: 1234,
    userCount: 56,
    firstSeen: '2025-12-01T00:00:00.000Z',
    lastSeen: '2026-01-02T03:04:05.000Z',
    url: 'https://tracker.example.com/issues/deadbeef-4444-4e4e-a0a0-000000000004',
  },
  event: {
    eventId: '9e8d7c6b-5555-4a5a-b5b5-000000000005',
    release: 'shop@2.4.1',
    environment: 'production',
    message: "Cannot read properties of undefined (reading 'id')",
  },
};

const local: DeliveryOptions = { allowPrivateTargets: true, timeoutMs: 3000, userAgent: 'Tracker-Test/1.0' };
const guarded: DeliveryOptions = { ...local, allowPrivateTargets: false };

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  raw: string;
}

/** A real HTTP receiver on loopback that records every connection and request. */
async function startReceiver(answer: (req: Received, res: http.ServerResponse) => void = (_r, res) => res.end('ok')) {
  const requests: Received[] = [];
  let connections = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r = {
        method: req.method!,
        url: req.url!,
        headers: req.headers,
        raw: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(r);
      answer(r, res);
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    requests,
    connections: () => connections,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

async function deliveryError(promise: Promise<unknown>): Promise<DeliveryError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof DeliveryError, `expected a DeliveryError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected the delivery to fail');
}

async function closedPort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

describe('webhook channel', () => {
  let rx: Receiver;
  let verified: { ok: boolean; why?: string }[];
  before(async () => {
    verified = [];
    rx = await startReceiver((req, res) => {
      // The receiver side exactly as docs/alerts.md tells integrators to write it.
      const timestamp = String(req.headers['x-tracker-timestamp']);
      const signature = String(req.headers['x-tracker-signature']);
      const expected = 'sha256=' + createHmac('sha256', SECRET).update(`${timestamp}.${req.raw}`).digest('hex');
      const fresh = Math.abs(Date.now() / 1000 - Number(timestamp)) <= 300;
      const same =
        Buffer.byteLength(expected) === Buffer.byteLength(signature) &&
        timingSafeEqual(Buffer.from(expected), Buffer.from(signature));
      verified.push({ ok: fresh && same, why: !fresh ? 'stale' : !same ? 'signature' : undefined });
      res.statusCode = fresh && same ? 204 : 401;
      res.end();
    });
  });
  after(() => rx.close());

  test('POSTs the payload as JSON with a signature the receiver verifies', async () => {
    const channel: AlertChannel = { type: 'WEBHOOK', url: `${rx.url}/hooks/tracker?team=1`, secret: SECRET };
    const result = await deliverAlert(channel, payload, local);
    assert.equal(result.channel, 'WEBHOOK');
    assert.equal(result.status, 204);
    assert.deepEqual(verified, [{ ok: true, why: undefined }]);
    const req = rx.requests.at(-1)!;
    assert.equal(req.method, 'POST');
    assert.equal(req.url, '/hooks/tracker?team=1');
    assert.equal(req.headers['content-type'], 'application/json');
    assert.equal(req.headers['user-agent'], 'Tracker-Test/1.0');
    assert.equal(req.headers['x-tracker-delivery'], payload.deliveryId);
    assert.equal(req.headers['x-tracker-event'], 'REGRESSED_ISSUE');
    assert.match(String(req.headers['x-tracker-signature']), /^sha256=[0-9a-f]{64}$/);
    assert.deepEqual(JSON.parse(req.raw), payload);

    // The exported helper agrees, and refuses a changed body, another secret, or a replay.
    const ts = String(req.headers['x-tracker-timestamp']);
    const sig = String(req.headers['x-tracker-signature']);
    assert.equal(verifyWebhookSignature({ secret: SECRET, rawBody: req.raw, timestamp: ts, signature: sig }), true);
    assert.equal(
      verifyWebhookSignature({ secret: SECRET, rawBody: req.raw + ' ', timestamp: ts, signature: sig }),
      false,
    );
    assert.equal(
      verifyWebhookSignature({ secret: 'whsec_other', rawBody: req.raw, timestamp: ts, signature: sig }),
      false,
    );
    assert.equal(
      verifyWebhookSignature({
        secret: SECRET,
        rawBody: req.raw,
        timestamp: ts,
        signature: sig,
        now: Date.now() + 301_000,
      }),
      false,
    );
    assert.equal(
      verifyWebhookSignature({ secret: SECRET, rawBody: req.raw, timestamp: undefined, signature: sig }),
      false,
    );
  });

  test('a retry keeps the delivery id and signs a new timestamp', async () => {
    const channel: AlertChannel = { type: 'WEBHOOK', url: rx.url, secret: SECRET };
    const t0 = Date.now();
    await deliverAlert(channel, payload, { ...local, now: () => t0 - 60_000 });
    await deliverAlert(channel, payload, { ...local, now: () => t0 });
    const [a, b] = rx.requests.slice(-2);
    assert.equal(a.headers['x-tracker-delivery'], b.headers['x-tracker-delivery']);
    assert.equal(Number(b.headers['x-tracker-timestamp']) - Number(a.headers['x-tracker-timestamp']), 60);
    assert.notEqual(a.headers['x-tracker-signature'], b.headers['x-tracker-signature']);
  });

  test('a channel without a secret is refused before any request', async () => {
    const before = rx.connections();
    const err = await deliveryError(deliverAlert({ type: 'WEBHOOK', url: rx.url, secret: '' }, payload, local));
    assert.equal(err.code, 'INVALID_CHANNEL');
    assert.equal(err.retryable, false);
    assert.equal(rx.connections(), before);
  });
});

describe('failures are DeliveryErrors that say whether to retry', () => {
  let rx: Receiver;
  let target: Receiver;
  before(async () => {
    target = await startReceiver();
    rx = await startReceiver((req, res) => {
      const code = Number(new URL(req.url, 'http://x').searchParams.get('status'));
      if (code === 0) return; // never answer: the timeout case
      if (code === 429) res.setHeader('Retry-After', '7');
      if (code === 503) res.setHeader('Retry-After', 'Sat, 15 Mar 2031 12:00:30 GMT');
      if (code === 302) res.setHeader('Location', `${target.url}/moved`);
      res.statusCode = code;
      res.end(code === 500 ? 'database is down\n' : 'nope');
    });
  });
  after(async () => {
    await rx.close();
    await target.close();
  });

  const webhook = (status: number): AlertChannel => ({
    type: 'WEBHOOK',
    url: `${rx.url}/?status=${status}`,
    secret: SECRET,
  });

  test('500: retryable, with the status; the body apart from the message', async () => {
    const err = await deliveryError(deliverAlert(webhook(500), payload, local));
    assert.equal(err.code, 'HTTP_STATUS');
    assert.equal(err.status, 500);
    assert.equal(err.retryable, true);
    // The message is every member's to read (lastError): it never carries the receiver's body (issue 28).
    assert.equal(err.message, 'The webhook receiver answered HTTP 500 Internal Server Error. Tracker will try again.');
    // The answer's body, cleaned (its newline flattened), for the delivery log and the test button…
    assert.equal(err.response, 'database is down');
    // …marked as a loopback receiver's, which createAlertSender does not pass on to be stored.
    assert.equal(err.privateTarget, true);
  });

  test('the answer is kept bounded and cleaned, on success too', async () => {
    const chatty = await startReceiver((_req, res) => {
      res.setHeader('content-type', 'text/plain');
      // Control characters and a long body: the excerpt is one line of at most MAX_RESPONSE_CHARS.
      res.end(`accepted\u0000\u001b[31m red\r\n${'x'.repeat(50_000)}`);
    });
    try {
      const r = await deliverAlert({ type: 'WEBHOOK', url: chatty.url, secret: SECRET }, payload, local);
      assert.equal(r.status, 200);
      assert.ok(r.response!.startsWith('accepted [31m red x'), r.response);
      assert.equal(r.response!.length, MAX_RESPONSE_CHARS);
      assert.ok(!/[\u0000-\u001f]/.test(r.response!));
    } finally {
      await chatty.close();
    }
  });

  test('400: not retryable', async () => {
    const err = await deliveryError(deliverAlert(webhook(400), payload, local));
    assert.equal(err.status, 400);
    assert.equal(err.retryable, false);
  });

  test('408 and 429 are retryable; Retry-After is passed on', async () => {
    const e408 = await deliveryError(deliverAlert(webhook(408), payload, local));
    assert.equal(e408.retryable, true);
    const e429 = await deliveryError(deliverAlert(webhook(429), payload, local));
    assert.equal(e429.retryable, true);
    assert.equal(e429.status, 429);
    assert.equal(e429.retryAfterMs, 7000);
  });

  test('an HTTP-date Retry-After is measured from the clock the delivery is given', async () => {
    const now = Date.parse('2031-03-15T12:00:00Z');
    const err = await deliveryError(deliverAlert(webhook(503), payload, { ...local, now: () => now }));
    assert.equal(err.retryable, true);
    assert.equal(err.retryAfterMs, 30_000);
  });

  test('a redirect is not followed and not retried', async () => {
    const err = await deliveryError(deliverAlert(webhook(302), payload, local));
    assert.equal(err.status, 302);
    assert.equal(err.retryable, false);
    assert.match(err.message, /a redirect, which Tracker does not follow/);
    assert.equal(target.requests.length, 0, 'the Location target was never called');
    // A private receiver's redirect names a host inside the network: left out of the message (issue 28).
    assert.equal(
      err.message,
      'The webhook address answered HTTP 302, a redirect, which Tracker does not follow: use the final address.',
    );
  });

  test("a public receiver's redirect is named by its origin only; a private one's not at all", () => {
    const base = new URL('https://hooks.example.com/tracker');
    assert.equal(
      redirectHint('https://other.example.com:8443/a/b?token=s.x#f', base, false),
      ' (it points to https://other.example.com:8443)',
    );
    assert.equal(redirectHint('/moved?token=x', base, false), ' (it points to https://hooks.example.com)');
    assert.equal(redirectHint('https://other.example.com/a', base, true), '');
    assert.equal(redirectHint('javascript:alert(1)', base, false), '');
    assert.equal(redirectHint(undefined, base, false), '');
  });

  test('which connected addresses count as private (their answers are not kept)', () => {
    for (const a of ['127.0.0.1', '::1', '::ffff:127.0.0.1', '10.0.0.7', '192.168.1.2', '169.254.169.254', 'fd00::1']) {
      assert.equal(isPrivatePeer(a), true, a);
    }
    for (const a of ['93.184.216.34', '2606:4700::6810:84e5']) assert.equal(isPrivatePeer(a), false, a);
    assert.equal(isPrivatePeer(undefined), true, 'unknown counts as private');
  });

  test('no answer within timeoutMs: retryable TIMEOUT', async () => {
    const started = Date.now();
    const err = await deliveryError(deliverAlert(webhook(0), payload, { ...local, timeoutMs: 300 }));
    assert.equal(err.code, 'TIMEOUT');
    assert.equal(err.retryable, true);
    assert.equal(err.status, undefined);
    assert.ok(Date.now() - started < 2000, 'gave up near the timeout');
  });

  test('connection refused: retryable CONNECTION', async () => {
    const port = await closedPort();
    const err = await deliveryError(deliverAlert({ type: 'SLACK', url: `http://127.0.0.1:${port}/x` }, payload, local));
    assert.equal(err.code, 'CONNECTION');
    assert.equal(err.retryable, true);
    // In users' words: no errno codes, no stack.
    assert.match(err.message, /^Could not deliver to the Slack address: 127\.0\.0\.1:\d+ refused the connection/);
    assert.doesNotMatch(err.message, /ECONNREFUSED|\n\s+at /);
  });
});

describe('Slack channel', () => {
  let rx: Receiver;
  before(async () => {
    // Slack's incoming webhooks answer 200 "ok", or 4xx with a reason.
    rx = await startReceiver((req, res) => {
      if (req.url.startsWith('/services/gone')) {
        res.statusCode = 404;
        return res.end('no_service');
      }
      const body = JSON.parse(req.raw);
      res.statusCode = typeof body.text === 'string' && Array.isArray(body.blocks) ? 200 : 400;
      res.end(res.statusCode === 200 ? 'ok' : 'invalid_payload');
    });
  });
  after(() => rx.close());

  test('posts text and blocks with title, project, counts and a link', async () => {
    const result = await deliverAlert({ type: 'SLACK', url: `${rx.url}/services/T0/B0/xyz` }, payload, local);
    assert.equal(result.status, 200);
    const req = rx.requests.at(-1)!;
    assert.equal(req.headers['content-type'], 'application/json');
    const body = JSON.parse(req.raw);
    // mrkdwn escaping: & < > only.
    assert.match(body.text, /^Regression in Shop &amp; &lt;Web&gt;: </);
    assert.ok(body.text.includes(`<${payload.issue!.url}|TypeError: &lt;script&gt;`));
    const types = body.blocks.map((b: any) => b.type);
    assert.deepEqual(types, ['header', 'section', 'section', 'actions', 'context']);
    assert.equal(body.blocks[0].text.type, 'plain_text');
    assert.ok(body.blocks[0].text.text.startsWith("Regression: TypeError: <script>alert('x')</script>"));
    assert.ok(body.blocks[0].text.text.length <= 150);
    assert.match(body.blocks[1].text.text, /app\/cart\.ts in addItem/);
    const fields = body.blocks[2].fields.map((f: any) => f.text);
    assert.ok(fields.includes('*Project*\nShop &amp; &lt;Web&gt;'));
    assert.ok(fields.includes('*Events*\n1234'));
    assert.ok(fields.includes('*Users*\n56'));
    assert.ok(fields.includes('*Release*\nshop@2.4.1'));
    assert.ok(fields.length <= 10);
    assert.equal(body.blocks[3].elements[0].url, payload.issue!.url);
  });

  test('404 no_service: not retryable', async () => {
    const err = await deliveryError(deliverAlert({ type: 'SLACK', url: `${rx.url}/services/gone` }, payload, local));
    assert.equal(err.status, 404);
    assert.equal(err.retryable, false);
    assert.equal(err.response, 'no_service');
    assert.doesNotMatch(err.message, /no_service/);
  });
});

// ---- email -------------------------------------------------------------------------------

/** Just enough MIME for nodemailer's multipart/alternative output. */
function parseMail(raw: string) {
  const split = (block: string) => {
    const at = block.indexOf('\r\n\r\n');
    const headers = new Map<string, string>();
    for (const line of block
      .slice(0, at)
      .replace(/\r\n[ \t]+/g, ' ')
      .split('\r\n')) {
      const colon = line.indexOf(':');
      headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
    }
    return { headers, body: block.slice(at + 4) };
  };
  const decode = (body: string, encoding = '7bit') => {
    if (/base64/i.test(encoding)) return Buffer.from(body, 'base64').toString('utf8');
    if (!/quoted-printable/i.test(encoding)) return body;
    const soft = body.replace(/=\r\n/g, '');
    const bytes: number[] = [];
    for (let i = 0; i < soft.length; i++) {
      if (soft[i] === '=' && /^[0-9A-F]{2}$/i.test(soft.slice(i + 1, i + 3))) {
        bytes.push(parseInt(soft.slice(i + 1, i + 3), 16));
        i += 2;
      } else bytes.push(...Buffer.from(soft[i], 'utf8'));
    }
    return Buffer.from(bytes).toString('utf8');
  };
  const top = split(raw);
  const boundary = /boundary="?([^";]+)"?/.exec(top.headers.get('content-type') ?? '')?.[1];
  assert.ok(boundary, 'multipart message');
  const parts = top.body
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((p) => split(p.replace(/^\r\n/, '')));
  const part = (type: string) => {
    const p = parts.find((x) => (x.headers.get('content-type') ?? '').startsWith(type));
    assert.ok(p, `has a ${type} part`);
    return decode(p.body.replace(/\r\n$/, ''), p.headers.get('content-transfer-encoding')).replace(/\r\n/g, '\n');
  };
  return { headers: top.headers, text: part('text/plain'), html: part('text/html') };
}

describe('email channel', () => {
  let smtp: SmtpReceiver;
  let port: number;
  const mails: ReceivedMail[] = [];
  before(async () => {
    smtp = await startSmtpReceiver({
      into: mails,
      // A recipient named like `550@…` is refused with that reply code.
      onRcptTo(address, _session, callback) {
        const m = /^(\d{3})@/.exec(address.address);
        if (m) {
          const err = Object.assign(new Error(`mailbox says ${m[1]}`), { responseCode: Number(m[1]) });
          return callback(err);
        }
        callback();
      },
    });
    port = smtp.port;
  });
  after(() => smtp.close());

  const withSmtp = (): DeliveryOptions => ({
    ...guarded, // the SMTP relay is operator configuration: the target guard is not about it
    smtp: { host: '127.0.0.1', port, secure: false, from: '"Tracker" <alerts@tracker.example.com>' },
  });

  test('sends text and HTML to the recipient with the documented subject', async () => {
    const result = await deliverAlert({ type: 'EMAIL', email: 'oncall@example.com' }, payload, withSmtp());
    assert.equal(result.channel, 'EMAIL');
    assert.equal(result.status, 250);
    assert.ok(result.messageId);
    assert.equal(mails.length, 1);
    const mail = mails[0];
    assert.deepEqual(mail.to, ['oncall@example.com']);
    assert.equal(mail.from, 'alerts@tracker.example.com');
    const parsed = parseMail(mail.raw);
    assert.equal(parsed.headers.get('subject'), `[Tracker] Regression: ${payload.issue!.title}`);
    assert.equal(parsed.headers.get('to'), 'oncall@example.com');
    assert.equal(parsed.headers.get('x-tracker-delivery'), payload.deliveryId);
    assert.equal(parsed.headers.get('auto-submitted'), 'auto-generated');
    assert.match(parsed.text, /^Regression in Shop & <Web>\n/);
    assert.match(parsed.text, /Events:\s+1234\n/);
    assert.match(parsed.text, /Users:\s+56\n/);
    assert.match(parsed.text, /Release:\s+shop@2\.4\.1\n/);
    assert.ok(parsed.text.includes(`View the issue: ${payload.issue!.url}`));
    assert.ok(
      parsed.html.includes(
        `<a href="${payload.issue!.url}">TypeError: &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp;`,
      ),
    );
    assert.ok(!parsed.html.includes('<script>'), 'the title is escaped in HTML');
    assert.ok(parsed.html.includes('<td>1234</td>'));
  });

  test('new-issue subject', async () => {
    await deliverAlert({ type: 'EMAIL', email: 'oncall@example.com' }, { ...payload, kind: 'NEW_ISSUE' }, withSmtp());
    assert.equal(parseMail(mails.at(-1)!.raw).headers.get('subject'), `[Tracker] New issue: ${payload.issue!.title}`);
  });

  test('a 5xx SMTP reply is final, a 4xx one retryable', async () => {
    const e550 = await deliveryError(deliverAlert({ type: 'EMAIL', email: '550@example.com' }, payload, withSmtp()));
    assert.equal(e550.code, 'SMTP');
    assert.equal(e550.status, 550);
    assert.equal(e550.retryable, false);
    const e451 = await deliveryError(deliverAlert({ type: 'EMAIL', email: '451@example.com' }, payload, withSmtp()));
    assert.equal(e451.status, 451);
    assert.equal(e451.retryable, true);
  });

  test('SMTP server down: retryable', async () => {
    const down = await closedPort();
    const options = withSmtp();
    const err = await deliveryError(
      deliverAlert({ type: 'EMAIL', email: 'oncall@example.com' }, payload, {
        ...options,
        smtp: { ...options.smtp!, port: down },
      }),
    );
    assert.equal(err.retryable, true);
  });

  test('an SMTP server that never greets: retryable TIMEOUT', async () => {
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const options = withSmtp();
      const started = Date.now();
      const err = await deliveryError(
        deliverAlert({ type: 'EMAIL', email: 'oncall@example.com' }, payload, {
          ...options,
          timeoutMs: 300,
          smtp: { ...options.smtp!, port: (silent.address() as AddressInfo).port },
        }),
      );
      assert.equal(err.code, 'TIMEOUT');
      assert.equal(err.retryable, true);
      assert.ok(Date.now() - started < 2000);
    } finally {
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  test('a list of addresses or a missing SMTP configuration is refused, not retried', async () => {
    const sent = mails.length;
    const list = await deliveryError(
      deliverAlert({ type: 'EMAIL', email: 'a@example.com, b@example.com' }, payload, withSmtp()),
    );
    assert.equal(list.code, 'INVALID_CHANNEL');
    assert.equal(list.retryable, false);
    const header = await deliveryError(
      deliverAlert({ type: 'EMAIL', email: 'a@example.com\r\nBcc: b@example.com' }, payload, withSmtp()),
    );
    assert.equal(header.code, 'INVALID_CHANNEL');
    const none = await deliveryError(deliverAlert({ type: 'EMAIL', email: 'a@example.com' }, payload, guarded));
    assert.equal(none.code, 'NOT_CONFIGURED');
    assert.equal(none.retryable, false);
    assert.equal(mails.length, sent);
  });
});

// ---- the outbound guard ------------------------------------------------------------------

describe('outbound guard (allowPrivateTargets = false)', () => {
  let rx: Receiver;
  before(async () => {
    rx = await startReceiver();
  });
  after(() => rx.close());

  const refusedTargets = () => [
    `http://127.0.0.1:${rx.port}/`,
    `http://localhost:${rx.port}/`,
    `http://LOCALHOST.:${rx.port}/`,
    `http://api.localhost:${rx.port}/`,
    `http://[::1]:${rx.port}/`,
    `http://[::ffff:127.0.0.1]:${rx.port}/`, // IPv4-mapped IPv6
    `http://[::ffff:7f00:1]:${rx.port}/`,
    `http://2130706433:${rx.port}/`, // 127.0.0.1 as one number
    `http://0x7f.1:${rx.port}/`,
    `http://0.0.0.0:${rx.port}/`,
    `http://[::]:${rx.port}/`,
    'http://169.254.169.254/latest/meta-data/',
    'http://[::ffff:169.254.169.254]/latest/meta-data/',
    'http://10.0.0.1/',
    'http://172.16.5.4/',
    'http://192.168.1.1/',
    'http://100.64.0.1/',
    'http://224.0.0.1/',
    'http://[fd00::1]/',
    'http://[fe80::1]/',
    'http://[64:ff9b::a00:1]/', // NAT64 form of 10.0.0.1
  ];

  test('webhook and Slack targets on non-public addresses are refused and never contacted', async () => {
    for (const url of refusedTargets()) {
      for (const channel of [
        { type: 'WEBHOOK', url, secret: SECRET },
        { type: 'SLACK', url },
      ] as AlertChannel[]) {
        const err = await deliveryError(deliverAlert(channel, payload, guarded));
        assert.equal(err.code, 'PRIVATE_TARGET', `${channel.type} ${url}: ${err.message}`);
        assert.equal(err.retryable, false);
        assert.match(err.message, /TRACKER_ALLOW_PRIVATE_TARGETS=1/);
      }
    }
    assert.equal(rx.connections(), 0, 'the receiver saw no connection at all');
    assert.equal(rx.requests.length, 0);
  });

  test('a host name resolving to loopback is refused at connect time (DNS rebinding)', async () => {
    const asked: string[] = [];
    // The name passes every check that needs no DNS; only the resolved address gives it away.
    const rebinding: HostResolver = async (hostname) => {
      asked.push(hostname);
      return [{ address: '127.0.0.1', family: 4 }];
    };
    const url = `http://hooks.example.test:${rx.port}/in`;
    assert.equal(assertPublicUrl(url, false).hostname, 'hooks.example.test');
    for (const channel of [
      { type: 'WEBHOOK', url, secret: SECRET },
      { type: 'SLACK', url },
    ] as AlertChannel[]) {
      const err = await deliveryError(deliverAlert(channel, payload, { ...guarded, resolveHost: rebinding }));
      assert.equal(err.code, 'PRIVATE_TARGET');
      assert.equal(err.retryable, false);
      assert.match(err.message, /hooks\.example\.test resolves to 127\.0\.0\.1/);
    }
    assert.deepEqual(asked, ['hooks.example.test', 'hooks.example.test'], 'the check ran on the resolved address');
    assert.equal(rx.connections(), 0);

    // IPv4-mapped IPv6 answers are judged by the IPv4 address inside.
    const mapped: HostResolver = async () => [{ address: '::ffff:127.0.0.1', family: 6 }];
    const err = await deliveryError(deliverAlert({ type: 'SLACK', url }, payload, { ...guarded, resolveHost: mapped }));
    assert.equal(err.code, 'PRIVATE_TARGET');
    assert.equal(rx.connections(), 0);

    // The same resolver with private targets allowed does reach the receiver: the refusal above was the guard.
    await deliverAlert({ type: 'SLACK', url }, payload, { ...local, resolveHost: rebinding });
    assert.equal(rx.requests.length, 1);
    assert.equal(rx.requests[0].headers.host, `hooks.example.test:${rx.port}`);
  });

  test('the connect-time lookup refuses a name if ANY of its addresses is private', async () => {
    const lookup = (resolved: { address: string; family: number }[], all: boolean) =>
      new Promise<{ err: Error | null; address: unknown }>((resolve) =>
        createGuardedLookup(false, async () => resolved)('multi.example.test', { all }, (err, address) =>
          resolve({ err, address }),
        ),
      );
    const mixed = await lookup(
      [
        { address: '93.184.216.34', family: 4 },
        { address: '10.1.2.3', family: 4 },
      ],
      true,
    );
    assert.ok(mixed.err instanceof DeliveryError && mixed.err.code === 'PRIVATE_TARGET');
    const fine = await lookup(
      [
        { address: '93.184.216.34', family: 4 },
        { address: '2606:2800:220:1::1', family: 6 },
      ],
      true,
    );
    assert.equal(fine.err, null);
    assert.equal((fine.address as unknown[]).length, 2);
    const single = await lookup([{ address: '93.184.216.34', family: 4 }], false);
    assert.equal(single.address, '93.184.216.34');
  });

  test('classifyAddress', () => {
    const publicOnes = ['8.8.8.8', '93.184.216.34', '2606:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808'];
    const privateOnes = {
      '127.0.0.1': 'loopback',
      '127.9.9.9': 'loopback',
      '10.0.0.1': 'private',
      '172.31.255.255': 'private',
      '192.168.0.1': 'private',
      '169.254.169.254': 'linkLocal',
      '100.64.0.1': 'carrierGradeNat',
      '100.127.255.254': 'carrierGradeNat',
      '0.0.0.0': 'unspecified',
      '0.1.2.3': 'unspecified',
      '224.0.0.251': 'multicast',
      '255.255.255.255': 'broadcast',
      '192.0.2.1': 'reserved',
      '::1': 'loopback',
      '::': 'unspecified',
      'fe80::1': 'linkLocal',
      'fc00::1': 'uniqueLocal',
      'fd12:3456::1': 'uniqueLocal',
      'ff02::1': 'multicast',
      '::ffff:127.0.0.1': 'ipv4Mapped:loopback',
      '::ffff:10.0.0.1': 'ipv4Mapped:private',
      '::ffff:169.254.169.254': 'ipv4Mapped:linkLocal',
      '::ffff:0:127.0.0.1': 'rfc6145:loopback',
      '64:ff9b::7f00:1': 'rfc6052:loopback',
      '2002:a00:1::1': '6to4:private',
      '::7f00:1': 'notGlobalUnicast',
      '2001:db8::1': 'reserved',
      'not-an-ip': 'invalid',
    };
    for (const a of publicOnes) assert.equal(classifyAddress(a).public, true, a);
    for (const [a, range] of Object.entries(privateOnes))
      assert.deepEqual(classifyAddress(a), { public: false, range }, a);
  });
});

describe('assertPublicUrl (rule creation)', () => {
  const refused = (url: string, allowPrivate: boolean, message: RegExp) => {
    assert.throws(
      () => assertPublicUrl(url, allowPrivate),
      (err: unknown) => isAppError(err) && err.code === 'BAD_USER_INPUT' && message.test(err.message),
      url,
    );
  };

  test('accepts public http(s) URLs and returns them parsed', () => {
    assert.equal(assertPublicUrl('https://hooks.slack.com/services/T0/B0/xyz', false).host, 'hooks.slack.com');
    assert.equal(assertPublicUrl('http://example.com:8080/hook?x=1', false).port, '8080');
    assert.equal(assertPublicUrl('https://8.8.8.8/hook', false).hostname, '8.8.8.8');
    assert.equal(assertPublicUrl('https://[2606:4700::1111]/hook', false).hostname, '[2606:4700::1111]');
  });

  test('refuses bad syntax, other schemes and credentials, whatever allowPrivate says', () => {
    for (const allow of [false, true]) {
      refused('not a url', allow, /not a valid absolute URL/);
      refused('', allow, /not a valid absolute URL/);
      refused('/relative/path', allow, /not a valid absolute URL/);
      refused('ftp://example.com/x', allow, /scheme must be http or https, not ftp/);
      refused('javascript:alert(1)', allow, /scheme must be http or https/);
      refused('file:///etc/passwd', allow, /scheme must be http or https/);
      refused('https://user:pass@example.com/hook', allow, /must not contain a user name or password/);
      refused('https://token@example.com/hook', allow, /must not contain a user name or password/);
      refused(`https://example.com/${'a'.repeat(3000)}`, allow, /longer than 2048/);
    }
  });

  test('refuses literal private addresses and localhost unless allowed', () => {
    for (const url of [
      'http://127.0.0.1:3000/hook',
      'http://localhost:3000/hook',
      'http://[::1]/hook',
      'http://169.254.169.254/',
      'http://10.0.0.1/',
      'http://[::ffff:127.0.0.1]/',
      'http://[fd00::1]/',
      'http://100.64.1.1/',
      'http://0.0.0.0/',
    ]) {
      refused(url, false, /not a public address|is this machine/);
      refused(url, false, /TRACKER_ALLOW_PRIVATE_TARGETS=1/);
      assert.ok(assertPublicUrl(url, true) instanceof URL, url);
    }
  });
});

describe('back-off', () => {
  test('exponential from 30 s, capped at 1 h, with jitter between half and all of it', () => {
    const nominal = [30e3, 60e3, 120e3, 240e3, 480e3, 960e3, 1920e3, 3600e3, 3600e3, 3600e3];
    nominal.forEach((n, i) => {
      assert.equal(
        backoffDelayMs(i + 1, () => 1),
        n,
        `attempt ${i + 1}, max`,
      );
      assert.equal(
        backoffDelayMs(i + 1, () => 0),
        n / 2,
        `attempt ${i + 1}, min`,
      );
      const d = backoffDelayMs(i + 1);
      assert.ok(d >= n / 2 && d <= n, `attempt ${i + 1}: ${d}`);
    });
    assert.equal(
      backoffDelayMs(500, () => 1),
      BACKOFF_CAP_MS,
    );
    assert.equal(
      backoffDelayMs(0, () => 1),
      30e3,
    );
    assert.equal(
      backoffDelayMs(Number.NaN, () => 1),
      30e3,
    );
  });

  test('retries stop an hour after the first attempt; the last one is made at the hour', () => {
    const t0 = Date.parse('2026-03-01T00:00:00Z');
    const full = (n: number) => backoffDelayMs(n, () => 1);
    // Walk the schedule with the longest delays: 30 s, 1, 2, 4, 8, 16 min, then cut to the hour.
    let now = t0;
    const at: number[] = [];
    for (let attempt = 1; ; attempt++) {
      const next = nextRetryAt({ attempt, firstAttemptAt: t0, now, backoff: full });
      if (next === null) break;
      at.push((next - t0) / 60_000);
      now = next;
    }
    assert.deepEqual(at, [0.5, 1.5, 3.5, 7.5, 15.5, 31.5, 60]);
    assert.equal(nextRetryAt({ attempt: 8, firstAttemptAt: t0, now: t0 + RETRY_WINDOW_MS, backoff: full }), null);
    // A Retry-After longer than the back-off wins, but never past the hour.
    assert.equal(
      nextRetryAt({ attempt: 1, firstAttemptAt: t0, now: t0, retryAfterMs: 120_000, backoff: full }),
      t0 + 120_000,
    );
    assert.equal(
      nextRetryAt({ attempt: 2, firstAttemptAt: t0, now: t0 + 59 * 60_000, retryAfterMs: 600_000, backoff: full }),
      t0 + RETRY_WINDOW_MS,
    );
    // Even the shortest jitter fits fewer than MAX_DELIVERY_ATTEMPTS attempts in the hour (nine),
    // the last at the hour: the window, not the backstop, ends an alert's retries.
    const shortest = (n: number) => backoffDelayMs(n, () => 0);
    now = t0;
    let attempts = 1;
    for (;;) {
      const next = nextRetryAt({ attempt: attempts, firstAttemptAt: t0, now, backoff: shortest });
      if (next === null) break;
      now = next;
      attempts += 1;
    }
    assert.equal(attempts, 9);
    assert.equal(now, t0 + RETRY_WINDOW_MS);
    assert.equal(nextRetryAt({ attempt: MAX_DELIVERY_ATTEMPTS, firstAttemptAt: t0, now: t0 }), null);
  });
});
