/**
 * Channels and delivery (issue 20), end to end on both runtimes: a receiver that is killed gets
 * retries on the back-off schedule and then the delivery is given up an hour after the first
 * attempt, all by a held clock; 4xx, 5xx and refused connections are recorded as such; test
 * sends go through the real channel code to real HTTP and SMTP receivers; another tenant can
 * neither test a rule nor read its deliveries.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { startSmtpReceiver, type SmtpReceiver } from '@tracker/core/testing';
import type { Tracker } from '../src';
import {
  createTestEnv,
  gql,
  gqlOk,
  MODES,
  sendError,
  signUpWithProject,
  startTracker,
  waitFor,
  type TestEnv,
} from './helpers';

interface Hit {
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
}

/** A real HTTP receiver: `/status/<code>` answers that code with a body naming it; anything else 200 "ok". */
async function startReceiver(port = 0) {
  const hits: Hit[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      hits.push({ path: req.url ?? '', headers: req.headers, raw: Buffer.concat(chunks).toString('utf8') });
      const m = /^\/status\/(\d{3})/.exec(req.url ?? '');
      const status = m ? Number(m[1]) : 200;
      res.writeHead(status, { 'content-type': 'text/plain' }).end(m ? `receiver says ${status}` : 'ok');
    });
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    hits,
    /** Kills it: the port then refuses connections. */
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const RULE = `mutation($p: ID!, $k: AlertKind!, $c: AlertChannelInput!) {
  createAlertRule(projectId: $p, kind: $k, channel: $c) { id secret } }`;
const DELIVERY_FIELDS = `id status attempts lastStatus lastError response test createdAt lastAttemptAt nextAttemptAt deliveredAt`;
const RULES = `query($p: ID!) { alertRules(projectId: $p) { id failing recentFailures channel { url }
  deliveries(first: 50) { ${DELIVERY_FIELDS} } } }`;
const TEST = `mutation($id: ID!) { testAlertRule(id: $id) { ${DELIVERY_FIELDS} } }`;

type Delivery = {
  id: string;
  status: string;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  response: string | null;
  test: boolean;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
};

const MINUTE = 60_000;

for (const mode of MODES) {
  describe(`alert delivery (${mode})`, () => {
    let env: TestEnv;
    let tracker: Tracker;
    let url: string;
    let smtp: SmtpReceiver;
    // The tracker's clock, held by the test: it decides when a retry is due and when the hour ends.
    // Each test starts it a little ahead of the wall clock (and so of the database's), which also
    // counts as due (decision 027), so the database's clock never makes a retry due early.
    let now = Date.now();
    const restartClock = () => (now = Date.now() + 10_000);

    before(async () => {
      smtp = await startSmtpReceiver();
      env = await createTestEnv(mode, {
        allowPrivateTargets: true,
        smtp: { host: '127.0.0.1', port: smtp.port, secure: false, from: 'Tracker <alerts@tracker.test>' },
      });
      tracker = await startTracker(env, {}, { clock: () => now, alerts: { sweepMs: 50, timeoutMs: 2_000 } });
      url = tracker.url;
    });
    after(async () => {
      await tracker?.close();
      await env?.cleanup();
      await smtp?.close();
    });

    async function rulesOf(token: string, project: string) {
      return (await gqlOk(url, RULES, { p: project }, token)).alertRules as Array<{
        id: string;
        failing: boolean;
        recentFailures: number;
        channel: { url: string | null };
        deliveries: Delivery[];
      }>;
    }

    test('4xx is final, 5xx and a refused connection are retried by the clock, then given up after an hour', async () => {
      restartClock();
      const a = await signUpWithProject(url, 'Web', smtp);
      const rx = await startReceiver();
      const dead = await startReceiver();
      try {
        const deadUrl = `${dead.origin}/hook`;
        await dead.close(); // killed before the alert: every attempt is refused
        const targets = { c400: `${rx.origin}/status/400`, c503: `${rx.origin}/status/503`, refused: deadUrl };
        for (const target of Object.values(targets)) {
          await gqlOk(url, RULE, { p: a.project.id, k: 'NEW_ISSUE', c: { type: 'WEBHOOK', url: target } }, a.token);
        }
        assert.equal(
          (await sendError(url, a.key, { type: 'E', message: 'boom', environment: 'production' })).status,
          202,
        );

        const byTarget = async () => {
          const rules = await rulesOf(a.token, a.project.id);
          const of = (t: string) => rules.find((r) => r.channel.url === t)!;
          return { c400: of(targets.c400), c503: of(targets.c503), refused: of(targets.refused) };
        };
        const first = await waitFor('one attempt each', async () => {
          const r = await byTarget();
          const done = Object.values(r).every(
            (x) => x.deliveries[0]?.attempts === 1 && x.deliveries[0].status !== 'SENDING',
          );
          return done ? r : undefined;
        });
        // 4xx: the receiver refused this alert; retrying would not change its mind.
        assert.deepEqual(
          pick(first.c400.deliveries[0], ['status', 'attempts', 'lastStatus', 'response', 'nextAttemptAt', 'test']),
          {
            status: 'FAILED',
            attempts: 1,
            lastStatus: 400,
            // A receiver on loopback: its answer is not kept (issue 28, alert-private-answers.test.ts).
            response: null,
            nextAttemptAt: null,
            test: false,
          },
        );
        assert.equal(
          first.c400.deliveries[0].lastError,
          'The webhook receiver answered HTTP 400 Bad Request. Tracker will not retry: check the address and the receiver.',
        );
        // 5xx: retryable, with the status recorded.
        assert.deepEqual(pick(first.c503.deliveries[0], ['status', 'attempts', 'lastStatus', 'response']), {
          status: 'PENDING',
          attempts: 1,
          lastStatus: 503,
          response: null,
        });
        // Refused: nothing answered, so no status; the reason in words.
        assert.deepEqual(pick(first.refused.deliveries[0], ['status', 'attempts', 'lastStatus', 'response']), {
          status: 'PENDING',
          attempts: 1,
          lastStatus: null,
          response: null,
        });
        assert.match(
          first.refused.deliveries[0].lastError!,
          /^Could not deliver to the webhook address: 127\.0\.0\.1:\d+ refused the connection/,
        );
        for (const r of Object.values(first)) assert.equal(r.failing, true, 'a failing rule is flagged');

        // Walk the refused delivery's retries by moving the clock to each due time.
        const firstAt = Date.parse(first.refused.deliveries[0].lastAttemptAt!);
        const attemptsAt = [firstAt];
        let d = first.refused.deliveries[0];
        while (d.status === 'PENDING') {
          const due = Date.parse(d.nextAttemptAt!);
          // Not a moment before it is due: the sweeper runs every 50 ms and must leave it alone.
          now = due - 1_000;
          await new Promise((r) => setTimeout(r, 300));
          assert.equal(
            (await byTarget()).refused.deliveries[0].attempts,
            d.attempts,
            'no attempt before the back-off ends',
          );
          now = due;
          const attempts = d.attempts;
          d = await waitFor(`attempt ${attempts + 1}`, async () => {
            const x = (await byTarget()).refused.deliveries[0];
            return x.attempts === attempts + 1 && x.status !== 'SENDING' ? x : undefined;
          });
          attemptsAt.push(Date.parse(d.lastAttemptAt!));
        }
        const gaps = attemptsAt.slice(1).map((t, i) => t - attemptsAt[i]);
        // Equal jitter: each wait is between half and all of 30 s × 2^(n−1) (capped at 1 h), except
        // the last, cut short so the final attempt is exactly an hour after the first.
        gaps.slice(0, -1).forEach((gap, i) => {
          const nominal = Math.min(30_000 * 2 ** i, 60 * MINUTE);
          assert.ok(gap >= nominal / 2 && gap <= nominal, `wait ${i + 1}: ${gap} ms, nominal ${nominal}`);
        });
        assert.equal(attemptsAt.at(-1)! - firstAt, 60 * MINUTE, 'the last attempt is at the hour');
        assert.ok(attemptsAt.length >= 8 && attemptsAt.length <= 9, `${attemptsAt.length} attempts`);
        assert.equal(d.status, 'FAILED');
        assert.equal(d.nextAttemptAt, null);
        assert.match(
          d.lastError!,
          /refused the connection \(nothing is listening there\)\. Gave up after \d+ attempts over an hour\.$/,
        );

        const after = await byTarget();
        assert.equal(after.refused.failing, true);
        assert.equal(after.refused.recentFailures, 1);
        // The 503 target had its own retries meanwhile (its clock moved too): it failed in the hour as well.
        await waitFor(
          'the 503 delivery given up',
          async () => (await byTarget()).c503.deliveries[0].status === 'FAILED',
        );
        assert.equal((await byTarget()).c503.deliveries[0].lastStatus, 503);
        // A receiver that comes back: a test send succeeds and clears the warning.
        const back = await startReceiver(Number(new URL(deadUrl).port));
        try {
          const sent = (await gqlOk(url, TEST, { id: after.refused.id }, a.token)).testAlertRule as Delivery;
          assert.deepEqual(pick(sent, ['status', 'lastStatus', 'response', 'test']), {
            status: 'DELIVERED',
            lastStatus: 200,
            response: null,
            test: true,
          });
          const cleared = await byTarget();
          assert.equal(cleared.refused.failing, false);
          assert.equal(cleared.refused.recentFailures, 1, 'the given-up alert still counts as a recent failure');
          assert.equal(back.hits.length, 1);
        } finally {
          await back.close();
        }
      } finally {
        await rx.close();
      }
    });

    test('Send test notification: the real channel code, marked as a test, the answer returned and logged', async () => {
      restartClock();
      const a = await signUpWithProject(url, 'Shop', smtp);
      const rx = await startReceiver();
      try {
        const hook = (
          await gqlOk(
            url,
            RULE,
            { p: a.project.id, k: 'REGRESSED_ISSUE', c: { type: 'WEBHOOK', url: `${rx.origin}/h` } },
            a.token,
          )
        ).createAlertRule;
        const sent = (await gqlOk(url, TEST, { id: hook.id }, a.token)).testAlertRule as Delivery;
        assert.deepEqual(pick(sent, ['status', 'attempts', 'lastStatus', 'response', 'lastError', 'test']), {
          status: 'DELIVERED',
          attempts: 1,
          lastStatus: 200,
          // On loopback: the answer is not kept (issue 28); the status is.
          response: null,
          lastError: null,
          test: true,
        });
        const hit = rx.hits.at(-1)!;
        assert.equal(hit.headers['x-tracker-test'], '1');
        const ts = hit.headers['x-tracker-timestamp'] as string;
        assert.equal(Number(ts), Math.floor(now / 1000), 'signed at the tracker clock');
        assert.equal(
          hit.headers['x-tracker-signature'],
          `sha256=${createHmac('sha256', hook.secret).update(`${ts}.${hit.raw}`).digest('hex')}`,
        );
        const body = JSON.parse(hit.raw);
        assert.equal(body.test, true);
        assert.equal(body.kind, 'REGRESSED_ISSUE');
        assert.equal(body.deliveryId, sent.id);
        assert.equal(body.project.name, 'Shop');
        assert.equal(body.issue.title, 'Test notification from Tracker');
        assert.match(body.links.muteRule, new RegExp(`/projects/${a.project.id}/alerts/mute\\?rule=${hook.id}$`));
        // It is in the log, marked, and it is never picked up by the dispatcher again.
        await new Promise((r) => setTimeout(r, 300));
        const [logged] = (await rulesOf(a.token, a.project.id))[0].deliveries;
        assert.equal(logged.id, sent.id);
        assert.equal(logged.test, true);
        assert.equal(rx.hits.length, 1, 'sent once');

        // Every chat channel, to the same receiver: what each answered comes back.
        for (const type of ['SLACK', 'TEAMS', 'DISCORD'] as const) {
          const rule = (
            await gqlOk(
              url,
              RULE,
              { p: a.project.id, k: 'NEW_ISSUE', c: { type, url: `${rx.origin}/${type}` } },
              a.token,
            )
          ).createAlertRule;
          const r = (await gqlOk(url, TEST, { id: rule.id }, a.token)).testAlertRule as Delivery;
          assert.deepEqual([r.status, r.lastStatus, r.response], ['DELIVERED', 200, null], type);
        }
        const [slack, teams, discord] = rx.hits.slice(-3).map((h) => JSON.parse(h.raw));
        assert.equal(slack.blocks[0].text.text, 'Test · New issue: Test notification from Tracker');
        assert.equal(teams.attachments[0].contentType, 'application/vnd.microsoft.card.adaptive');
        assert.equal(discord.embeds[0].title, 'Test · New issue: Test notification from Tracker');

        // Failures come back too, in words, and are not retried.
        for (const [path, status] of [
          ['/status/404', 404],
          ['/status/500', 500],
        ] as const) {
          const rule = (
            await gqlOk(
              url,
              RULE,
              { p: a.project.id, k: 'NEW_ISSUE', c: { type: 'SLACK', url: `${rx.origin}${path}` } },
              a.token,
            )
          ).createAlertRule;
          const r = (await gqlOk(url, TEST, { id: rule.id }, a.token)).testAlertRule as Delivery;
          assert.deepEqual([r.status, r.lastStatus, r.response, r.nextAttemptAt], ['FAILED', status, null, null]);
          assert.match(r.lastError!, new RegExp(`^The Slack receiver answered HTTP ${status} `));
        }
      } finally {
        await rx.close();
      }
    });

    test('email: a test goes to a real SMTP server as multipart text and HTML', async () => {
      const a = await signUpWithProject(url, 'Web', smtp);
      const rule = (
        await gqlOk(
          url,
          RULE,
          { p: a.project.id, k: 'NEW_ISSUE', c: { type: 'EMAIL', email: 'oncall@example.com' } },
          a.token,
        )
      ).createAlertRule;
      const r = (await gqlOk(url, TEST, { id: rule.id }, a.token)).testAlertRule as Delivery;
      assert.equal(r.status, 'DELIVERED');
      assert.equal(r.lastStatus, 250);
      assert.match(r.response!, /^250 /);
      const mail = smtp.messages.at(-1)!;
      assert.deepEqual(mail.to, ['oncall@example.com']);
      assert.match(mail.raw, /Content-Type: multipart\/alternative;/);
      assert.match(mail.raw, /Content-Type: text\/plain; charset=utf-8/);
      assert.match(mail.raw, /Content-Type: text\/html; charset=utf-8/);
      assert.match(mail.raw, /X-Tracker-Test: 1/);
    });

    test('another organization can neither test a rule nor read its deliveries; members cannot test', async () => {
      restartClock();
      const a = await signUpWithProject(url, 'Web', smtp);
      const b = await signUpWithProject(url, 'Web', smtp);
      const rx = await startReceiver();
      try {
        const rule = (
          await gqlOk(
            url,
            RULE,
            { p: a.project.id, k: 'NEW_ISSUE', c: { type: 'WEBHOOK', url: `${rx.origin}/iso` } },
            a.token,
          )
        ).createAlertRule;
        await gqlOk(url, TEST, { id: rule.id }, a.token);
        const sentByA = rx.hits.length;

        const byB = await gql(url, TEST, { id: rule.id }, b.token);
        assert.equal(byB.errors?.[0].extensions?.code, 'NOT_FOUND');
        const readByB = await gql(url, RULES, { p: a.project.id }, b.token);
        assert.equal(readByB.errors?.[0].extensions?.code, 'NOT_FOUND');
        assert.equal(readByB.data, null);

        // A plain member of A reads the log but cannot send.
        const member = await signUpWithProject(url, 'Web', smtp);
        const [{ id: memberId }] = await tracker.db.ds.query('SELECT id FROM users WHERE email = $1', [member.email]);
        await tracker.db.ds.query(
          `INSERT INTO memberships (organization_id, user_id, role) VALUES ($1, $2, 'member')`,
          [a.organization.id, memberId],
        );
        const byMember = await gql(url, TEST, { id: rule.id }, member.token);
        assert.equal(byMember.errors?.[0].extensions?.code, 'FORBIDDEN');
        const readByMember = await rulesOf(member.token, a.project.id);
        assert.equal(readByMember[0].deliveries.length, 1);
        assert.equal(rx.hits.length, sentByA, 'nothing was sent for B or the member');

        // At most five test sends a minute per rule; the clock decides the minute.
        for (let i = 0; i < 4; i++) await gqlOk(url, TEST, { id: rule.id }, a.token);
        const sixth = await gql(url, TEST, { id: rule.id }, a.token);
        assert.equal(sixth.errors?.[0].extensions?.code, 'RATE_LIMITED');
        now += MINUTE + 1_000;
        await gqlOk(url, TEST, { id: rule.id }, a.token);
      } finally {
        await rx.close();
      }
    });
  });
}

describe('an instance without SMTP, and private targets refused', () => {
  let env: TestEnv;
  let tracker: Tracker;
  before(async () => {
    env = await createTestEnv('embedded', { allowPrivateTargets: false, roles: ['api'] });
    tracker = await startTracker(env);
  });
  after(async () => {
    await tracker?.close();
    await env?.cleanup();
  });

  test('email rules are refused in words, and alertChannels says what this instance can deliver', async () => {
    const a = await signUpWithProject(tracker.url);
    const r = await gql(
      tracker.url,
      RULE,
      { p: a.project.id, k: 'NEW_ISSUE', c: { type: 'EMAIL', email: 'a@example.com' } },
      a.token,
    );
    assert.equal(r.errors?.[0].extensions?.code, 'BAD_USER_INPUT');
    assert.match(
      r.errors![0].message,
      /^Email alerts are not available on this Tracker instance: it has no mail server configured\./,
    );
    const channels = (
      await gqlOk(
        tracker.url,
        `{ alertChannels { type name target available unavailableReason help privateTargetsAllowed } }`,
        {},
        a.token,
      )
    ).alertChannels as Array<Record<string, any>>;
    assert.deepEqual(
      channels.map((c) => [c.type, c.available, c.privateTargetsAllowed]),
      [
        ['WEBHOOK', true, false],
        ['SLACK', true, false],
        ['TEAMS', true, false],
        ['DISCORD', true, false],
        ['EMAIL', false, false],
      ],
    );
    for (const c of channels.filter((x) => x.target === 'URL'))
      assert.match(c.help, /refuses private, local and loopback addresses/);
    assert.match(channels[4].unavailableReason, /no mail server configured/);
    const refused = await gql(
      tracker.url,
      RULE,
      { p: a.project.id, k: 'NEW_ISSUE', c: { type: 'DISCORD', url: 'http://127.0.0.1:9/api/webhooks/1/x' } },
      a.token,
    );
    assert.equal(refused.errors?.[0].extensions?.code, 'BAD_USER_INPUT');
    assert.match(
      refused.errors![0].message,
      /is not a public address \(this machine\); this Tracker instance only sends alerts to public addresses/,
    );
    const anonymous = await gql(tracker.url, `{ alertChannels { type } }`);
    assert.equal(anonymous.errors?.[0].extensions?.code, 'UNAUTHENTICATED');
  });
});

function pick<T extends object>(o: T, keys: Array<keyof T>): Partial<T> {
  return Object.fromEntries(keys.map((k) => [k, o[k]])) as Partial<T>;
}
