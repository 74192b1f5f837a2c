import assert from 'node:assert/strict';
import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { startSmtpReceiver, type SmtpReceiver } from '@tracker/core/testing';
import { createTracker, type Tracker } from '../src';
import { createTestEnv, gql, gqlOk, sendError, signUpWithProject, waitFor, type TestEnv } from './helpers';

interface Hit {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  raw: string;
}

/** A real HTTP receiver on loopback: records every POST; `/fail` answers 500 until told otherwise. */
async function startReceiver() {
  const hits: Hit[] = [];
  let failing = true;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      hits.push({ path: req.url ?? '', headers: req.headers, raw: Buffer.concat(chunks).toString('utf8') });
      const fail = req.url === '/fail' && failing;
      res.writeHead(fail ? 500 : 200, { 'content-type': 'text/plain' }).end(fail ? 'down for maintenance' : 'ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    hits,
    recover: () => (failing = false),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const RULE = `mutation($p: ID!, $k: AlertKind!, $c: AlertChannelInput!) {
  createAlertRule(projectId: $p, kind: $k, channel: $c) { id kind secret enabled channel { type url email } } }`;
const DELIVERIES = `query($p: ID!) { alertRules(projectId: $p) { id channel { type url email }
  deliveries { status attempts lastError lastStatus deliveredAt } } }`;

describe('alerts: a regression reaches a webhook, Slack and email; failures are retried and logged', () => {
  let env: TestEnv;
  let tracker: Tracker;
  let url: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let smtp: SmtpReceiver;

  before(async () => {
    receiver = await startReceiver();
    smtp = await startSmtpReceiver();
    env = await createTestEnv('postgres+redis', {
      allowPrivateTargets: true,
      smtp: { host: '127.0.0.1', port: smtp.port, secure: false, from: 'Tracker <alerts@tracker.test>' },
    });
    tracker = await createTracker({
      config: env.config,
      queue: { reclaimIdleMs: 1_000 },
      alerts: { sweepMs: 100, backoff: () => 300, timeoutMs: 2_000 },
    });
    url = await tracker.listen();
  });
  after(async () => {
    await tracker.close();
    await env.cleanup();
    await receiver.close();
    await smtp.close();
  });

  test('one regression: one signed webhook, one Slack post, one email; a failing target is retried and logged', async () => {
    const a = await signUpWithProject(url, 'Web', smtp);
    const project = a.project.id;
    const webhook = (
      await gqlOk(
        url,
        RULE,
        { p: project, k: 'REGRESSED_ISSUE', c: { type: 'WEBHOOK', url: `${receiver.origin}/hook` } },
        a.token,
      )
    ).createAlertRule;
    assert.match(webhook.secret, /^whsec_/);
    await gqlOk(
      url,
      RULE,
      { p: project, k: 'REGRESSED_ISSUE', c: { type: 'SLACK', url: `${receiver.origin}/slack` } },
      a.token,
    );
    await gqlOk(
      url,
      RULE,
      { p: project, k: 'REGRESSED_ISSUE', c: { type: 'EMAIL', email: 'oncall@example.com' } },
      a.token,
    );
    await gqlOk(
      url,
      RULE,
      { p: project, k: 'REGRESSED_ISSUE', c: { type: 'WEBHOOK', url: `${receiver.origin}/fail` } },
      a.token,
    );

    const fingerprint = [randomUUID()];
    const event = { type: 'TypeError', message: 'checkout exploded', environment: 'production', fingerprint };
    assert.equal((await sendError(url, a.key, event)).status, 202);
    const issueId = await waitFor('the issue', async () => {
      const r = await gqlOk(
        url,
        `query($p: ID!) { issues(projectId: $p) { nodes { id eventCount } } }`,
        { p: project },
        a.token,
      );
      return r.issues.nodes[0]?.eventCount === 1 ? (r.issues.nodes[0].id as string) : undefined;
    });
    await gqlOk(url, `mutation($id: ID!) { resolveIssue(id: $id) { status } }`, { id: issueId }, a.token);
    // No releases in the project: the next event is a regression.
    assert.equal((await sendError(url, a.key, event)).status, 202);

    await waitFor(
      'webhook, Slack and email',
      async () =>
        receiver.hits.some((h) => h.path === '/hook') &&
        receiver.hits.some((h) => h.path === '/slack') &&
        smtp.messages.length >= 1,
    );
    // The webhook: the payload, signed as docs/alerts.md says (recomputed here by hand).
    const hooks = receiver.hits.filter((h) => h.path === '/hook');
    assert.equal(hooks.length, 1);
    const hook = hooks[0];
    const timestamp = hook.headers['x-tracker-timestamp'] as string;
    const expected = `sha256=${createHmac('sha256', webhook.secret).update(`${timestamp}.${hook.raw}`).digest('hex')}`;
    assert.equal(hook.headers['x-tracker-signature'], expected);
    assert.ok(Math.abs(Number(timestamp) - Date.now() / 1000) < 60);
    const body = JSON.parse(hook.raw);
    assert.equal(body.kind, 'REGRESSED_ISSUE');
    assert.equal(body.issue.id, issueId);
    assert.equal(body.issue.title, 'TypeError: checkout exploded');
    assert.equal(body.issue.status, 'OPEN');
    assert.equal(body.issue.eventCount, 2);
    assert.equal(body.project.id, project);
    assert.equal(hook.headers['x-tracker-delivery'], body.deliveryId);

    const slack = receiver.hits.filter((h) => h.path === '/slack');
    assert.equal(slack.length, 1);
    assert.match(JSON.parse(slack[0].raw).text, /checkout exploded/);

    assert.equal(smtp.messages.length, 1);
    assert.deepEqual(smtp.messages[0].to, ['oncall@example.com']);
    assert.match(smtp.messages[0].raw, /Subject: .*Regression/);
    assert.match(smtp.messages[0].raw, /checkout exploded/);

    // The failing target: retried (500 each time) and the log says so; then it recovers.
    await waitFor('two failed attempts', async () => receiver.hits.filter((h) => h.path === '/fail').length >= 2);
    const log = await gqlOk(url, DELIVERIES, { p: project }, a.token);
    const failing = log.alertRules.find((r: any) => r.channel.url?.endsWith('/fail')).deliveries[0];
    assert.ok(failing.attempts >= 2);
    assert.equal(failing.lastStatus, 500);
    assert.match(failing.lastError, /500/);
    assert.notEqual(failing.status, 'DELIVERED');
    receiver.recover();
    await waitFor('the failing target delivered after recovering', async () => {
      const l = await gqlOk(url, DELIVERIES, { p: project }, a.token);
      return l.alertRules.find((r: any) => r.channel.url?.endsWith('/fail')).deliveries[0].status === 'DELIVERED';
    });
    const final = await gqlOk(url, DELIVERIES, { p: project }, a.token);
    for (const rule of final.alertRules) {
      assert.equal(rule.deliveries.length, 1, `one delivery for ${rule.channel.type}`);
      assert.equal(rule.deliveries[0].status, 'DELIVERED');
    }
    // Nothing was sent twice to the healthy targets.
    assert.equal(receiver.hits.filter((h) => h.path === '/hook').length, 1);
    assert.equal(smtp.messages.length, 1);

    // Issue 19: each delivery that succeeded is in the issue's timeline (the failed attempts are not),
    // without the target's address (a secret).
    const { activity } = (
      await gqlOk(
        url,
        `query($id: ID!) { issue(id: $id) { activity { kind actor { id } message data } } }`,
        { id: issueId },
        a.token,
      )
    ).issue;
    const sent = activity.filter((x: any) => x.kind === 'ALERT_SENT');
    assert.deepEqual(sent.map((x: any) => x.message).sort(), [
      'Regression alert sent by Slack',
      'Regression alert sent by email',
      'Regression alert sent by webhook',
      'Regression alert sent by webhook',
    ]);
    assert.ok(sent.every((x: any) => x.actor === null && x.data.alertKind === 'REGRESSED_ISSUE'));
    assert.ok(!JSON.stringify(activity).includes(receiver.origin), 'no target URL in the timeline');
    assert.ok(!JSON.stringify(activity).includes('oncall@example.com'), 'no target address in the timeline');
    assert.deepEqual(
      activity.filter((x: any) => x.kind !== 'ALERT_SENT').map((x: any) => x.kind),
      ['REGRESSED', 'RESOLVED', 'FIRST_SEEN'],
    );
  });

  test('a private target is refused when private targets are not allowed', async () => {
    const strict = await createTracker({ config: { ...env.config, allowPrivateTargets: false, roles: ['api'] } });
    const strictUrl = await strict.listen();
    try {
      const a = await signUpWithProject(strictUrl, 'Web', smtp);
      for (const target of [
        'http://127.0.0.1:8080/x',
        'http://localhost/x',
        'http://169.254.169.254/latest',
        'http://[::1]/x',
        'http://10.1.2.3/',
      ]) {
        const r = await gql(
          strictUrl,
          RULE,
          { p: a.project.id, k: 'NEW_ISSUE', c: { type: 'WEBHOOK', url: target } },
          a.token,
        );
        assert.equal(r.errors?.[0].extensions?.code, 'BAD_USER_INPUT', target);
        assert.match(r.errors![0].message, /private/);
      }
      const bad = await gql(
        strictUrl,
        RULE,
        { p: a.project.id, k: 'NEW_ISSUE', c: { type: 'WEBHOOK', url: 'ftp://example.com/x' } },
        a.token,
      );
      assert.equal(bad.errors?.[0].extensions?.code, 'BAD_USER_INPUT');
    } finally {
      await strict.close();
    }
  });

  test('rules are listed, updated and deleted by the project admins; another tenant cannot', async () => {
    const a = await signUpWithProject(url, 'Web', smtp);
    const rule = (
      await gqlOk(url, RULE, { p: a.project.id, k: 'NEW_ISSUE', c: { type: 'EMAIL', email: 'a@example.com' } }, a.token)
    ).createAlertRule;
    const upd = await gqlOk(
      url,
      `mutation($id: ID!) { updateAlertRule(id: $id, kind: REGRESSED_ISSUE, enabled: false) { kind enabled channel { email } } }`,
      { id: rule.id },
      a.token,
    );
    assert.deepEqual(upd.updateAlertRule, {
      kind: 'REGRESSED_ISSUE',
      enabled: false,
      channel: { email: 'a@example.com' },
    });
    const stranger = await signUpWithProject(url, 'Web', smtp);
    const denied = await gql(url, `mutation($id: ID!) { deleteAlertRule(id: $id) }`, { id: rule.id }, stranger.token);
    assert.equal(denied.errors?.[0].extensions?.code, 'NOT_FOUND');
    const list = await gql(
      url,
      `query($p: ID!) { alertRules(projectId: $p) { id } }`,
      { p: a.project.id },
      stranger.token,
    );
    assert.equal(list.errors?.[0].extensions?.code, 'NOT_FOUND');
    assert.equal(
      (await gqlOk(url, `mutation($id: ID!) { deleteAlertRule(id: $id) }`, { id: rule.id }, a.token)).deleteAlertRule,
      true,
    );
    assert.equal(
      (await gqlOk(url, `query($p: ID!) { alertRules(projectId: $p) { id } }`, { p: a.project.id }, a.token)).alertRules
        .length,
      0,
    );
  });
});
