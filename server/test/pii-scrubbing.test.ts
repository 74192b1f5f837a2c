import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { gql, gqlOk, MODES, createTestEnv, signUpWithProject, startTracker, waitFor, type TestEnv } from './helpers';
import type { Tracker } from '../src';

/**
 * Issue 15 §4: secrets and personal data are scrubbed at the ingest edge, before the queue, so
 * nothing unscrubbed is stored (docs/privacy.md). Error events go through both the fast path
 * (`application/json; charset=utf-8`, the canonical body enqueued as received) and fastify's
 * route (`application/json`), on both runtimes; logs and feedback through their routes. The
 * project's own settings (extra key names, IP addresses) change what is stored.
 */
const FAST = 'application/json; charset=utf-8';
const ROUTE = 'application/json';
const F = '[Filtered]';
const VISA = '4111111111111111';

const PRIVACY = `mutation($id: ID!, $input: ProjectPrivacyInput!) {
  updateProjectPrivacy(id: $id, input: $input) { id privacy { scrubDefaults sensitiveFields scrubIpAddresses } } }`;
const READ_PRIVACY = `query($id: ID!) { project(id: $id) { privacy { scrubDefaults sensitiveFields scrubIpAddresses } } }`;

for (const mode of MODES) {
  describe(`PII scrubbing at the edge (${mode})`, () => {
    let env: TestEnv;
    let tracker: Tracker;

    before(async () => {
      env = await createTestEnv(mode);
      tracker = await startTracker(env);
    });
    after(async () => {
      await tracker?.close();
      await env?.cleanup();
    });

    async function post(key: string, path: string, body: unknown, type = ROUTE) {
      const res = await fetch(`${tracker.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': type, authorization: `DSN ${key}` },
        body: JSON.stringify(body),
      });
      const answer = (await res.json()) as { id: string };
      assert.equal(res.status, 202, JSON.stringify(answer));
      return answer.id;
    }

    async function storedEvent(eventId: string) {
      return waitFor(`event ${eventId}`, async () => {
        const [row] = await tracker.db.ds.query(
          'SELECT message, stack, context, tags, "user" FROM events WHERE event_id = $1',
          [eventId],
        );
        return row;
      });
    }

    /**
     * The same event through fastify's route, then through the fast path (which takes a request
     * only for a key in the edge's cache: the route's request puts it there); the stored rows.
     */
    async function sendBothWays(key: string, event: Record<string, unknown>) {
      const rows = [];
      for (const type of [ROUTE, FAST]) {
        const taken = tracker.ingestFastPath!.taken;
        const eventId = randomUUID();
        await post(key, '/ingest/error', { ...event, eventId }, type);
        assert.equal(tracker.ingestFastPath!.taken, type === FAST ? taken + 1 : taken, `${type}: the path meant`);
        rows.push({ type, row: await storedEvent(eventId) });
      }
      return rows;
    }

    test('by default: sensitive keys at any depth, card numbers; user.id, user.email and other values untouched', async () => {
      const { key } = await signUpWithProject(tracker.url);
      const event = {
        message: `charge failed for card ${VISA.replace(/(\d{4})(?!$)/g, '$1 ')}, order 4111111111111112`,
        type: 'PaymentError',
        environment: 'production',
        stack: `PaymentError: charge failed for ${VISA}\n    at pay (https://shop.example.com/app.js:10:20)`,
        context: {
          request: {
            method: 'POST',
            url: 'https://shop.example.com/pay',
            headers: { Authorization: 'Bearer s3cr3t', Cookie: 'sid=abc', Accept: 'text/html' },
            cookies: { sid: 'abc' },
            data: { username: 'ann', password: 'hunter2', card: VISA, items: [{ sku: 'A1', api_key: 'k' }] },
          },
          deep: { a: { b: { c: { sessionId: 'sess', keep: 'yes' } } } },
          client: '203.0.113.9',
          build: '1718035200001',
        },
        tags: { session_id: 'abc', browser: 'Firefox' },
        user: { id: 'u-1', email: 'ann@example.com', username: 'ann', auth_token: 'tok', ip_address: '203.0.113.9' },
      };
      for (const { type, row } of await sendBothWays(key, event)) {
        assert.equal(row.message, `charge failed for card ${F}, order 4111111111111112`, type);
        assert.equal(row.stack, `PaymentError: charge failed for ${F}\n    at pay (https://shop.example.com/app.js:10:20)`, type);
        assert.deepEqual(
          row.context,
          {
            request: {
              method: 'POST',
              url: 'https://shop.example.com/pay',
              headers: { Authorization: F, Cookie: F, Accept: 'text/html' },
              cookies: F,
              data: { username: 'ann', password: F, card: F, items: [{ sku: 'A1', api_key: F }] },
            },
            deep: { a: { b: { c: { sessionId: F, keep: 'yes' } } } },
            // IP addresses are kept unless the project turns their scrubbing on.
            client: '203.0.113.9',
            build: '1718035200001',
          },
          type,
        );
        assert.deepEqual(row.tags, { session_id: F, browser: 'Firefox' }, type);
        assert.deepEqual(
          row.user,
          { id: 'u-1', email: 'ann@example.com', username: 'ann', auth_token: F, ip_address: '203.0.113.9' },
          type,
        );
      }
    });

    test('an event with nothing to scrub is stored as sent, through the fast path', async () => {
      const { key } = await signUpWithProject(tracker.url);
      const event = {
        message: 'x is undefined',
        type: 'TypeError',
        environment: 'production',
        context: { route: '/home', n: 1 },
        tags: { browser: 'Firefox' },
        user: { id: '42' },
      };
      for (const { type, row } of await sendBothWays(key, event)) {
        assert.equal(row.message, event.message, type);
        assert.deepEqual(row.context, event.context, type);
        assert.deepEqual(row.tags, event.tags, type);
        assert.deepEqual(row.user, event.user, type);
      }
    });

    test('logs (message, context, tags) and feedback (message) are scrubbed too', async () => {
      const { key, project } = await signUpWithProject(tracker.url);
      const logId = await post(key, '/ingest/log', {
        level: 'info',
        message: `paid with ${VISA}`,
        context: { headers: { 'set-cookie': 'sid=1' }, db: { PASSWORD: 'p' }, step: 'charge' },
        tags: { csrf_token: 't', region: 'eu' },
      });
      const log = await waitFor('log', async () => {
        const [row] = await tracker.db.ds.query('SELECT message, context, tags FROM logs WHERE id = $1', [logId]);
        return row;
      });
      assert.equal(log.message, `paid with ${F}`);
      assert.deepEqual(log.context, { headers: { 'set-cookie': F }, db: { PASSWORD: F }, step: 'charge' });
      assert.deepEqual(log.tags, { csrf_token: F, region: 'eu' });

      const feedbackId = await post(key, '/ingest/feedback', {
        message: `I was charged twice on 4111-1111-1111-1111`,
        email: 'ann@example.com',
      });
      const feedback = await waitFor('feedback', async () => {
        const [row] = await tracker.db.ds.query('SELECT message, email FROM feedback WHERE project_id = $1 AND id = $2', [
          project.id,
          feedbackId,
        ]);
        return row;
      });
      assert.equal(feedback.message, `I was charged twice on ${F}`);
      assert.equal(feedback.email, 'ann@example.com');
    });

    test("the project's settings (its own key names, IP addresses) change what is stored, from the next event", async () => {
      const owner = await signUpWithProject(tracker.url);
      const projectId: string = owner.project.id;
      const event = {
        message: 'connect ECONNREFUSED 10.0.0.7:5432 from 2001:db8::8a2e:370:7334',
        type: 'Error',
        environment: 'production',
        context: { patient: { ssn_last4: '1234', name: 'Ann' }, client: '203.0.113.9', token: 't' },
        tags: { Customer_SSN: 'x', browser: 'Firefox' },
        user: { id: 'u-1', ip_address: '203.0.113.9' },
      };
      // Before: the defaults. This also puts the key in the edge's cache with the old settings.
      for (const { type, row } of await sendBothWays(owner.key, event)) {
        assert.equal(row.message, event.message, type);
        assert.deepEqual(row.context, { ...event.context, token: F }, type);
        assert.deepEqual(row.tags, event.tags, type);
        assert.deepEqual(row.user, event.user, type);
      }

      const defaults = await gqlOk(tracker.url, READ_PRIVACY, { id: projectId }, owner.token);
      assert.deepEqual(defaults.project.privacy, { scrubDefaults: true, sensitiveFields: [], scrubIpAddresses: false });
      const updated = await gqlOk(
        tracker.url,
        PRIVACY,
        { id: projectId, input: { sensitiveFields: [' ssn ', 'SSN', 'patient_name'], scrubIpAddresses: true } },
        owner.token,
      );
      assert.deepEqual(updated.updateProjectPrivacy.privacy, {
        scrubDefaults: true,
        sensitiveFields: ['ssn', 'patient_name'],
        scrubIpAddresses: true,
      });

      for (const { type, row } of await sendBothWays(owner.key, event)) {
        assert.equal(row.message, `connect ECONNREFUSED ${F}:5432 from ${F}`, type);
        assert.deepEqual(row.context, { patient: { ssn_last4: F, name: 'Ann' }, client: F, token: F }, type);
        assert.deepEqual(row.tags, { Customer_SSN: F, browser: 'Firefox' }, type);
        assert.deepEqual(row.user, { id: 'u-1', ip_address: F }, type);
      }

      // Built-in scrubbing off: only the project's own names remain.
      await gqlOk(tracker.url, PRIVACY, { id: projectId, input: { scrubDefaults: false, scrubIpAddresses: false } }, owner.token);
      for (const { type, row } of await sendBothWays(owner.key, { ...event, message: `card ${VISA}` })) {
        assert.equal(row.message, `card ${VISA}`, type);
        assert.deepEqual(row.context, { patient: { ssn_last4: F, name: 'Ann' }, client: '203.0.113.9', token: 't' }, type);
      }
    });

    test('members read the settings; only owners and admins change them; bad names are refused', async () => {
      const owner = await signUpWithProject(tracker.url);
      const projectId: string = owner.project.id;
      const email = `member-${randomUUID()}@example.com`;
      const invited = await gqlOk(
        tracker.url,
        `mutation($o: ID!, $e: String!) { inviteMember(organizationId: $o, email: $e, role: MEMBER) { link } }`,
        { o: owner.organization.id, e: email },
        owner.token,
      );
      // The invitation is for that address: the member signs up with it, then accepts.
      const member = await gqlOk(
        tracker.url,
        `mutation($e: String!) { signup(email: $e, password: "correct horse battery", organizationName: "Own") { token } }`,
        { e: email },
      );
      await gqlOk(
        tracker.url,
        `mutation($t: String!) { acceptInvitation(token: $t) { id } }`,
        { t: (invited.inviteMember.link as string).split('/invitations/')[1] },
        member.signup.token,
      );
      const memberToken: string = member.signup.token;
      const read = await gqlOk(tracker.url, READ_PRIVACY, { id: projectId }, memberToken);
      assert.deepEqual(read.project.privacy, { scrubDefaults: true, sensitiveFields: [], scrubIpAddresses: false });
      const refused = await gql(tracker.url, PRIVACY, { id: projectId, input: { scrubDefaults: false } }, memberToken);
      assert.equal(refused.errors?.[0]?.extensions?.code, 'FORBIDDEN');

      const empty = await gql(tracker.url, PRIVACY, { id: projectId, input: { sensitiveFields: [' '] } }, owner.token);
      assert.equal(empty.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
      const many = Array.from({ length: 51 }, (_, i) => `field${i}`);
      const tooMany = await gql(tracker.url, PRIVACY, { id: projectId, input: { sensitiveFields: many } }, owner.token);
      assert.equal(tooMany.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
      const after = await gqlOk(tracker.url, READ_PRIVACY, { id: projectId }, owner.token);
      assert.deepEqual(after.project.privacy, { scrubDefaults: true, sensitiveFields: [], scrubIpAddresses: false });
    });
  });
}
