/**
 * Uptime monitors end to end (issue 33), on both runtimes: a real local HTTP server answers 200,
 * then 503, then hangs, then refuses connections. With a failure tolerance of 3 the monitor's
 * issue opens on the third failure, a MONITOR_FAILED webhook alert is delivered, and the next
 * 200 resolves the issue. Time is held: each check is due a minute after the last.
 * Also the target rules: a private address, and a redirect to one, are refused unless allowed.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { runUptimeCheck } from '@tracker/ingest';
import type { Tracker } from '../src';
import { createTestEnv, gqlOk, MODES, signUpWithProject, startTracker, waitFor, type TestEnv } from './helpers';

type Mode = 'ok' | '503' | 'hang';

function startSite(port = 0): Promise<{ server: http.Server; port: number; setMode(m: Mode): void }> {
  let mode: Mode = 'ok';
  const server = http.createServer((req, res) => {
    if (req.url === '/moved') return void res.writeHead(302, { location: '/health' }).end();
    if (mode === 'hang') return; // never answers
    res.writeHead(mode === 'ok' ? 200 : 503, { 'content-type': 'text/plain' }).end(mode === 'ok' ? 'fine' : 'down');
  });
  return new Promise((resolve) =>
    server.listen(port, '127.0.0.1', () =>
      resolve({ server, port: (server.address() as AddressInfo).port, setMode: (m) => (mode = m) }),
    ),
  );
}

test('private targets are refused, also after a redirect, unless allowed', async () => {
  const site = await startSite();
  try {
    const direct = await runUptimeCheck(`http://127.0.0.1:${site.port}/health`, {
      timeoutMs: 2000,
      allowPrivate: false,
    });
    assert.equal(direct.ok, false);
    assert.match(direct.error!, /not a public address|private|loopback/i);
    // A public-looking name that resolves to loopback (DNS rebinding), behind a redirect.
    const resolveHost = async () => [{ address: '127.0.0.1', family: 4 }];
    const viaName = await runUptimeCheck(`http://status.example.com:${site.port}/moved`, {
      timeoutMs: 2000,
      allowPrivate: false,
      resolveHost,
    });
    assert.equal(viaName.ok, false);
    assert.match(viaName.error!, /resolves to 127\.0\.0\.1/);
    const allowed = await runUptimeCheck(`http://127.0.0.1:${site.port}/moved`, {
      timeoutMs: 2000,
      allowPrivate: true,
    });
    assert.deepEqual([allowed.ok, allowed.statusCode, allowed.responseBytes, allowed.error], [true, 200, 4, null]);
    assert.ok(allowed.ttfbMs !== null && allowed.ttfbMs >= 0);
  } finally {
    site.server.close();
  }
});

for (const mode of MODES) {
  describe(`uptime monitor end to end (${mode})`, () => {
    let env: TestEnv;
    let tracker: Tracker;
    let now = Date.parse('2026-09-01T12:00:00Z');
    const hooks: string[] = [];
    let receiver: http.Server;
    before(async () => {
      receiver = http.createServer((req, res) => {
        let body = '';
        req.on('data', (c) => (body += c));
        req.on('end', () => {
          hooks.push(body);
          res.writeHead(200).end('ok');
        });
      });
      await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
      env = await createTestEnv(mode, { allowPrivateTargets: true });
      tracker = await startTracker(env, {}, { clock: () => now, monitorTickMs: 200, alerts: { sweepMs: 200 } });
    });
    after(async () => {
      await tracker?.close();
      await env?.cleanup();
      receiver?.close();
    });

    test('opens an issue after 3 failures (503, hang, refused), alerts by webhook, resolves on 200', async () => {
      let site = await startSite();
      const port = site.port;
      const acct = await signUpWithProject(tracker.url, 'Site');
      const q = (query: string, variables: Record<string, unknown> = {}) =>
        gqlOk(tracker.url, query, variables, acct.token);
      await q(
        `mutation($p: ID!, $c: AlertChannelInput!) { createAlertRule(projectId: $p, kind: MONITOR_FAILED, channel: $c) { id } }`,
        {
          p: acct.project.id,
          c: { type: 'WEBHOOK', url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook` },
        },
      );
      await q(`mutation($p: ID!, $i: MonitorInput!) { createMonitor(projectId: $p, kind: UPTIME, input: $i) { id } }`, {
        p: acct.project.id,
        i: { slug: 'site', url: `http://127.0.0.1:${port}/health`, intervalMinutes: 1, timeoutSeconds: 2 },
      });
      const state = async () =>
        (
          await q(
            `query($p: ID!) { monitors(projectId: $p) { status environments { consecutiveFailures issueId }
               checkIns(first: 10) { status statusCode error responseBytes ttfbMs durationMs } } }`,
            { p: acct.project.id },
          )
        ).monitors[0];
      const checks = (n: number) =>
        waitFor(
          `${n} checks`,
          async () => {
            const s = await state();
            return s.checkIns.length >= n ? s : undefined;
          },
          60_000,
        );
      let s = await checks(1);
      assert.deepEqual(
        [s.checkIns[0].status, s.checkIns[0].statusCode, s.checkIns[0].responseBytes],
        ['OK'.toLowerCase(), 200, 4],
      );

      site.setMode('503');
      now += 60_000;
      s = await checks(2);
      assert.equal(s.checkIns[0].error, 'HTTP 503');
      assert.equal(s.environments[0].issueId, null, 'one failure of three');

      site.setMode('hang');
      now += 60_000;
      s = await checks(3);
      assert.equal(s.checkIns[0].error, 'timeout after 2 s');
      assert.equal(s.environments[0].issueId, null, 'two failures of three');

      await new Promise<void>((r) => {
        site.server.closeAllConnections();
        site.server.close(() => r());
      });
      now += 60_000;
      s = await checks(4);
      assert.equal(s.checkIns[0].error, 'connection refused');
      assert.equal(s.status, 'FAILING');
      const issueId = s.environments[0].issueId;
      assert.ok(issueId, 'the third failure opened the issue');
      const issue = await q(`query($id: ID!) { issue(id: $id) { title status } }`, { id: issueId });
      assert.equal(issue.issue.title, 'Uptime check of site failing: connection refused');
      const hook = await waitFor(
        'the webhook alert',
        async () => hooks.find((h) => h.includes('MONITOR_FAILED')),
        60_000,
      );
      assert.match(hook, /"slug":"site"/);

      site = await startSite(port);
      now += 60_000;
      s = await checks(5);
      assert.equal(s.checkIns[0].status, 'ok');
      assert.equal(s.status, 'OK');
      const resolved = await q(`query($id: ID!) { issue(id: $id) { status } }`, { id: issueId });
      assert.equal(resolved.issue.status, 'RESOLVED');
      // Each check ran once per due minute: five checks for five minutes, none twice.
      await new Promise((r) => setTimeout(r, 1_500));
      assert.equal((await state()).checkIns.length, 5);
      site.server.close();
    });
  });
}
