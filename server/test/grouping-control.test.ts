/**
 * Grouping control end to end (issue 19), through the real edge, queue and worker, in both
 * storage modes: a discarded issue's new events are not stored and use no quota (dropped at the
 * edge, or by the worker when the edge could not tell yet), `/metrics` counts them by reason,
 * undo stores them again; snoozes by events and by users end on exactly the Nth.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { discardIssue, sessionCaller } from '@tracker/core';
import type { Tracker } from '../src';
import { buildEnvelope, errorEvent, item, sentryEventId } from './sentry-envelope';
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

const ISSUE = `query($id: ID!) { issue(id: $id) { id status isRegression eventCount userCount discarded
  snooze { kind forEvents forUsers remaining } } }`;
const USAGE = `query($o: ID!) { usage(organizationId: $o) { events { used } } }`;

for (const mode of MODES) {
  describe(`grouping control end to end (${mode})`, () => {
    let env: TestEnv;
    let tracker: Tracker;
    let url: string;

    before(async () => {
      env = await createTestEnv(mode);
      tracker = await startTracker(env);
      url = tracker.url;
    });
    after(async () => {
      await tracker.close();
      await env.cleanup();
    });

    async function metric(name: string, labels: string): Promise<number> {
      const text = await (await fetch(`${url}/metrics`)).text();
      const line = text.split('\n').find((l) => l.startsWith(`${name}${labels} `));
      return line ? Number(line.split(' ').pop()) : 0;
    }

    async function project() {
      const a = await signUpWithProject(url);
      const fingerprint = [randomUUID()];
      let issueId: string | undefined;
      const p = {
        ...a,
        async send(extra: Record<string, unknown> = {}) {
          const r = await sendError(url, a.key, {
            type: 'TypeError',
            message: 'grouping control',
            environment: 'production',
            fingerprint,
            ...extra,
          });
          assert.equal(r.status, 202, JSON.stringify(r.body));
        },
        async issueId(): Promise<string> {
          issueId ??= await waitFor('the issue', async () => {
            const rows = await tracker.db.ds.query('SELECT id FROM issues WHERE project_id = $1', [a.project.id]);
            return rows[0]?.id as string | undefined;
          });
          return issueId;
        },
        async issue() {
          return (await gqlOk(url, ISSUE, { id: await p.issueId() }, a.token)).issue;
        },
        async storedEvents(): Promise<number> {
          const rows = await tracker.db.ds.query('SELECT count(*)::int AS n FROM events WHERE project_id = $1', [
            a.project.id,
          ]);
          return rows[0].n;
        },
        /** The quota count once the edge has given back its unused block (idle ~2 s; docs/quotas.md). */
        async usageSettlesAt(expected: number) {
          await waitFor(
            `usage at ${expected}`,
            async () => (await gqlOk(url, USAGE, { o: a.organization.id }, a.token)).usage.events.used === expected,
            20_000,
          );
        },
      };
      return p;
    }

    test('discard: the edge drops new events before the quota, counts them, and undo stores them again', async () => {
      const p = await project();
      await p.send();
      await p.send();
      await waitFor('2 events', async () => (await p.storedEvents()) === 2);
      const before = await metric('tracker_events_discarded_total', '{reason="discarded_issue",where="edge"}');

      const d = await gqlOk(
        url,
        `mutation($id: ID!) { discardIssue(id: $id, discard: true) { id discarded discardedAt } }`,
        { id: await p.issueId() },
        p.token,
      );
      assert.equal(d.discardIssue.discarded, true);
      for (let i = 0; i < 5; i++) await p.send();
      assert.equal(
        await metric('tracker_events_discarded_total', '{reason="discarded_issue",where="edge"}'),
        before + 5,
      );
      // Discarded issues leave the default list and show under the filter.
      const LIST = `query($p: ID!, $d: Boolean) { issues(projectId: $p, discarded: $d) { totalCount nodes { id } } }`;
      assert.equal((await gqlOk(url, LIST, { p: p.project.id }, p.token)).issues.totalCount, 0);
      assert.equal((await gqlOk(url, LIST, { p: p.project.id, d: true }, p.token)).issues.totalCount, 1);
      await p.usageSettlesAt(2);
      assert.equal(await p.storedEvents(), 2);
      assert.equal((await p.issue()).eventCount, 2);

      const undo = await gqlOk(
        url,
        `mutation($id: ID!) { discardIssue(id: $id, discard: false) { discarded } }`,
        { id: await p.issueId() },
        p.token,
      );
      assert.equal(undo.discardIssue.discarded, false);
      await p.send();
      await waitFor('stored again', async () => (await p.storedEvents()) === 3);
      await p.usageSettlesAt(3);
    });

    test('discard: events the edge does not recognize yet are dropped by the worker, which gives the quota back', async () => {
      const p = await project();
      await p.send({ user: { id: 'u1' } });
      await waitFor('1 event', async () => (await p.storedEvents()) === 1);
      const a = await tracker.db.ds.query(
        'SELECT user_id FROM memberships m JOIN projects p ON p.organization_id = m.organization_id WHERE p.id = $1',
        [p.project.id],
      );
      // Discarded behind the edge's back: its key cache still says "nothing discarded".
      await discardIssue(tracker.db.ds, { caller: sessionCaller(a[0].user_id), id: await p.issueId(), discard: true });
      const before = await metric('tracker_events_discarded_total', '{reason="discarded_issue",where="worker"}');
      for (let i = 0; i < 3; i++) await p.send();
      await waitFor(
        'the worker dropped 3',
        async () =>
          (await metric('tracker_events_discarded_total', '{reason="discarded_issue",where="worker"}')) === before + 3,
      );
      assert.equal(await p.storedEvents(), 1);
      await p.usageSettlesAt(1);
    });

    test('discard covers Sentry envelope events too', async () => {
      const a = await signUpWithProject(url);
      const number = new URL(a.dsn).pathname.split('/').pop();
      const path = `${url}/api/${number}/envelope/?sentry_key=${a.key}&sentry_version=7`;
      const send = async () => {
        const id = sentryEventId();
        const res = await fetch(path, {
          method: 'POST',
          headers: { 'content-type': 'text/plain;charset=UTF-8' },
          body: buildEnvelope({ event_id: id }, [item('event', errorEvent(id))]),
        });
        assert.equal(res.status, 200, await res.text());
      };
      const stored = async () =>
        (await tracker.db.ds.query('SELECT count(*)::int AS n FROM events WHERE project_id = $1', [a.project.id]))[0].n;
      await send();
      await waitFor('the envelope event', async () => (await stored()) === 1);
      const [{ id }] = await tracker.db.ds.query('SELECT id FROM issues WHERE project_id = $1', [a.project.id]);
      await gqlOk(url, `mutation($id: ID!) { discardIssue(id: $id, discard: true) { id } }`, { id }, a.token);
      const before = await metric('tracker_events_discarded_total', '{reason="discarded_issue",where="edge"}');
      await send();
      await send();
      assert.equal(
        await metric('tracker_events_discarded_total', '{reason="discarded_issue",where="edge"}'),
        before + 2,
      );
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(await stored(), 1);
    });

    test('snooze until 3 more events: the 2nd keeps it snoozed, the 3rd reopens it with the reason', async () => {
      const p = await project();
      await p.send();
      await waitFor('1 event', async () => (await p.issue()).eventCount === 1);
      const s = await gqlOk(
        url,
        `mutation($id: ID!) { snoozeIssue(id: $id, forEvents: 3) { status snooze { kind forEvents remaining } } }`,
        { id: await p.issueId() },
        p.token,
      );
      assert.deepEqual(s.snoozeIssue, { status: 'SNOOZED', snooze: { kind: 'EVENTS', forEvents: 3, remaining: 3 } });
      for (let n = 1; n <= 2; n++) {
        await p.send();
        await waitFor(`event ${n + 1}`, async () => (await p.issue()).eventCount === n + 1);
        const i = await p.issue();
        assert.equal(i.status, 'SNOOZED');
        assert.equal(i.snooze.remaining, 3 - n);
      }
      await p.send();
      await waitFor('event 4', async () => (await p.issue()).eventCount === 4);
      const reopened = await p.issue();
      assert.equal(reopened.status, 'OPEN');
      assert.equal(reopened.isRegression, true);
      const [r] = await tracker.db.ds.query('SELECT reason FROM issue_regressions WHERE issue_id = $1', [
        await p.issueId(),
      ]);
      assert.equal(r.reason, '3 more events since snoozed');
    });

    test('snooze until 2 more users: repeat users do not count, the 2nd new user reopens it', async () => {
      const p = await project();
      await p.send({ user: { id: 'old' } });
      await waitFor('1 event', async () => (await p.issue()).eventCount === 1);
      await gqlOk(
        url,
        `mutation($id: ID!) { snoozeIssue(id: $id, forUsers: 2) { status } }`,
        { id: await p.issueId() },
        p.token,
      );
      const steps: Array<[string, string]> = [
        ['old', 'SNOOZED'],
        ['new1', 'SNOOZED'],
        ['new1', 'SNOOZED'],
        ['old', 'SNOOZED'],
        ['new2', 'OPEN'],
      ];
      let count = 1;
      for (const [user, status] of steps) {
        await p.send({ user: { id: user } });
        count += 1;
        await waitFor(`event ${count}`, async () => (await p.issue()).eventCount === count);
        assert.equal((await p.issue()).status, status, `after ${user}`);
      }
      const [r] = await tracker.db.ds.query('SELECT reason FROM issue_regressions WHERE issue_id = $1', [
        await p.issueId(),
      ]);
      assert.equal(r.reason, '2 more users since snoozed');
    });
  });
}
