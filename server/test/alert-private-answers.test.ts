/**
 * Issue 28, part 8: with TRACKER_ALLOW_PRIVATE_TARGETS=1 an alert rule can point at a service
 * inside the network, and its answers reached plain members: the first 300 characters of the
 * body in `deliveries.response`, the body again in `lastError`, and a redirect's full
 * `Location`. Now a receiver on a private address has no answer kept at all (the column stays
 * NULL), `lastError` names the status and never the body, and a redirect's target is left out.
 * Real HTTP receiver on 127.0.0.1, real alerts through the dispatcher and real test sends, read
 * back by an owner and by a plain member. (Who may read a public receiver's answer, owners and
 * admins only, is in api/test/secret-fields.test.ts.)
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Tracker } from '../src';
import {
  createTestEnv,
  gqlOk,
  MODES,
  sendError,
  signUpWithProject,
  startTracker,
  waitFor,
  type TestEnv,
} from './helpers';

/** What the internal service says: nothing of it may reach the delivery log. */
const INTERNAL_BODY = 'db=postgres://svc:hunter2@10.0.0.7/prod build=4f2a internal-only';
const INTERNAL_LOCATION = 'http://vault.internal:8200/v1/secret/data/tracker?token=s.internal-token';

/** `/fail` 500, `/moved` 302 to an internal address, anything else 200; every body is INTERNAL_BODY. */
async function startInternalService() {
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url === '/fail') res.writeHead(500, { 'content-type': 'text/plain' }).end(INTERNAL_BODY);
      else if (req.url === '/moved') res.writeHead(302, { location: INTERNAL_LOCATION }).end(INTERNAL_BODY);
      else res.writeHead(200, { 'content-type': 'text/plain' }).end(INTERNAL_BODY);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const RULE = `mutation($p: ID!, $c: AlertChannelInput!) { createAlertRule(projectId: $p, kind: NEW_ISSUE, channel: $c) { id } }`;
const FIELDS = `status lastStatus lastError response test`;
const RULES = `query($p: ID!) { alertRules(projectId: $p) { id channel { type } deliveries(first: 10) { ${FIELDS} } } }`;
const TEST = `mutation($id: ID!) { testAlertRule(id: $id) { ${FIELDS} } }`;

type Delivery = {
  status: string;
  lastStatus: number | null;
  lastError: string | null;
  response: string | null;
  test: boolean;
};

for (const mode of MODES) {
  describe(`a private receiver's answers are not kept or shown (${mode})`, () => {
    let env: TestEnv;
    let tracker: Tracker;
    let service: Awaited<ReturnType<typeof startInternalService>>;

    before(async () => {
      service = await startInternalService();
      env = await createTestEnv(mode, { allowPrivateTargets: true });
      tracker = await startTracker(env, {}, { alerts: { sweepMs: 50, timeoutMs: 2_000 } });
    });
    after(async () => {
      await tracker?.close();
      await env?.cleanup();
      await service?.close();
    });

    test(
      'real alerts and test sends: no body, no Location, for the owner or a member',
      { timeout: 120_000 },
      async () => {
        const url = tracker.url;
        const owner = await signUpWithProject(url);
        const member = await signUpWithProject(url);
        const [{ id: memberId }] = await tracker.db.ds.query('SELECT id FROM users WHERE email = $1', [member.email]);
        await tracker.db.ds.query(
          `INSERT INTO memberships (organization_id, user_id, role) VALUES ($1, $2, 'member')`,
          [owner.organization.id, memberId],
        );
        const targets = {
          ok: `${service.origin}/hook`,
          fail: `${service.origin}/fail`,
          moved: `${service.origin}/moved`,
        };
        const rules: Record<string, string> = {};
        for (const [name, target] of Object.entries(targets)) {
          rules[name] = (
            await gqlOk(url, RULE, { p: owner.project.id, c: { type: 'WEBHOOK', url: target } }, owner.token)
          ).createAlertRule.id;
        }

        // Test sends: the answer the owner gets back at once.
        const tested: Record<string, Delivery> = {};
        for (const [name, id] of Object.entries(rules))
          tested[name] = (await gqlOk(url, TEST, { id }, owner.token)).testAlertRule;
        assert.deepEqual(
          [tested.ok.status, tested.ok.lastStatus, tested.ok.response, tested.ok.lastError],
          ['DELIVERED', 200, null, null],
        );
        assert.deepEqual([tested.fail.status, tested.fail.lastStatus, tested.fail.response], ['FAILED', 500, null]);
        assert.equal(
          tested.fail.lastError,
          // A test is not retried, so its answer does not promise it (issue 31).
          'The webhook receiver answered HTTP 500 Internal Server Error. A test notification is sent once and not retried (real alerts are).',
        );
        assert.deepEqual([tested.moved.status, tested.moved.lastStatus, tested.moved.response], ['FAILED', 302, null]);
        assert.equal(
          tested.moved.lastError,
          'The webhook address answered HTTP 302, a redirect, which Tracker does not follow: use the final address. A test notification is sent once and not retried (real alerts are).',
        );

        // A real alert, through the worker and the dispatcher.
        assert.equal(
          (await sendError(url, owner.key, { type: 'E', message: 'boom', environment: 'production' })).status,
          202,
        );
        const read = (token: string) =>
          gqlOk(url, RULES, { p: owner.project.id }, token).then(
            (d) => d.alertRules as Array<{ id: string; deliveries: Delivery[] }>,
          );
        await waitFor('an attempt of every real alert', async () => {
          const all = await read(owner.token);
          return all.every((r) => r.deliveries.some((d) => !d.test && d.lastStatus !== null)) ? all : undefined;
        });

        for (const [who, token] of [
          ['owner', owner.token],
          ['member', member.token],
        ] as const) {
          for (const rule of await read(token)) {
            for (const d of rule.deliveries) {
              assert.equal(d.response, null, `${who}: response of ${JSON.stringify(d)}`);
              assert.ok(!d.lastError?.includes('hunter2'), `${who}: ${d.lastError}`);
              assert.ok(
                !d.lastError?.includes('vault.internal') && !d.lastError?.includes('token='),
                `${who}: ${d.lastError}`,
              );
            }
          }
        }
        // Not kept at all: nothing in the table for an admin, a later policy or a backup to show.
        const kept = await tracker.db.ds.query(
          `SELECT count(*)::int AS n FROM alert_deliveries WHERE project_id = $1 AND last_response IS NOT NULL`,
          [owner.project.id],
        );
        assert.equal(kept[0].n, 0);
        const errors = await tracker.db.ds.query(
          `SELECT last_error FROM alert_deliveries WHERE project_id = $1 AND last_error IS NOT NULL`,
          [owner.project.id],
        );
        assert.ok(errors.length >= 4, `${errors.length} failed attempts recorded`);
        for (const e of errors) assert.doesNotMatch(e.last_error, /hunter2|internal-only|vault\.internal|token=/);
      },
    );
  });
}
