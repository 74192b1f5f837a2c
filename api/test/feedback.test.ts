/** User feedback reads: per project and per issue, paginated, each with its event and issue. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { persistFeedback, type PreparedFeedback } from '@tracker/core';
import { Client } from 'pg';
import { createHarness, type Harness, type Tenant } from './read-harness';

const FEEDBACK = `query($p: ID!, $i: ID, $n: Int, $a: String) {
  feedback(projectId: $p, issueId: $i, first: $n, after: $a) {
    totalCount
    nodes { id message email eventId receivedAt event { eventId message environment } issue { id title } }
    edges { cursor node { id } }
    pageInfo { hasNextPage endCursor }
  }
}`;
const T0 = Date.parse('2026-05-01T00:00:00.000Z');

describe('feedback query', () => {
  let h: Harness;
  let owner: Tenant;
  let other: Tenant;
  let issue: string;
  let otherIssue: string;
  /** One SDK event id used in both tenants' projects: ids chosen by clients are unique per project only. */
  const sharedEventId = randomUUID();
  const feedbackIds: string[] = [];

  async function issueWithEvent(t: Tenant, title: string, message: string): Promise<string> {
    const [row] = await h.db.ds.query(
      `INSERT INTO issues (project_id, fingerprint, title, type, level, first_seen, last_seen, event_count)
       VALUES ($1, $2, $3, 'TypeError', 'error', now(), now(), 1) RETURNING id`,
      [t.project, randomUUID(), title],
    );
    await h.db.ds.query(
      `INSERT INTO events (project_id, issue_id, event_id, timestamp, received_at, level, type, message, environment, retention_days)
       VALUES ($1, $2, $3, now(), now(), 'error', 'TypeError', $4, 'production', 30)`,
      [t.project, row.id, sharedEventId, message],
    );
    return row.id;
  }

  before(async () => {
    h = await createHarness();
    owner = await h.tenant();
    other = await h.tenant();
    issue = await issueWithEvent(owner, 'TypeError: mine', 'mine');
    otherIssue = await issueWithEvent(other, 'TypeError: theirs', 'theirs');
    const rows: PreparedFeedback[] = [];
    for (let i = 0; i < 30; i++) {
      const id = randomUUID();
      feedbackIds.push(id);
      rows.push({
        projectId: owner.project,
        id,
        message: `feedback ${i}`,
        email: i % 2 ? `u${i}@example.com` : null,
        // A third about the stored event, a third about an event never stored, a third about none.
        eventId: i % 3 === 0 ? sharedEventId : i % 3 === 1 ? randomUUID() : null,
        // Pairs share a time: the id breaks the tie.
        receivedAt: new Date(T0 + Math.floor(i / 2) * 1000),
      });
    }
    // The other tenant: the same feedback ids, naming its own event with the same SDK id.
    const theirs = rows.slice(0, 6).map((r) => ({ ...r, projectId: other.project, message: `theirs ${r.message}` }));
    await h.db.ds.transaction((em) => persistFeedback(em, [...rows, ...theirs]));
  });
  after(() => h.close());

  const expectedOrder = () => {
    const keyed = feedbackIds.map((id, i) => ({ id, at: Math.floor(i / 2) }));
    return keyed.sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1)).map((k) => k.id);
  };

  test('newest first, paginated (25 then 5), with totalCount and the linked event and issue', async () => {
    const p1 = await h.ok(FEEDBACK, { p: owner.project }, owner.token);
    assert.equal(p1.feedback.totalCount, 30);
    assert.equal(p1.feedback.nodes.length, 25);
    assert.equal(p1.feedback.pageInfo.hasNextPage, true);
    const p2 = await h.ok(FEEDBACK, { p: owner.project, a: p1.feedback.pageInfo.endCursor }, owner.token);
    assert.equal(p2.feedback.nodes.length, 5);
    assert.equal(p2.feedback.pageInfo.hasNextPage, false);
    const nodes = [...p1.feedback.nodes, ...p2.feedback.nodes];
    assert.deepEqual(
      nodes.map((n: any) => n.id),
      expectedOrder(),
    );
    for (const n of nodes) {
      const i = Number(n.message.split(' ')[1]);
      if (i % 3 === 0) {
        // The owner's own event and issue, never the other tenant's with the same SDK event id.
        assert.deepEqual(n.event, { eventId: sharedEventId, message: 'mine', environment: 'production' });
        assert.deepEqual(n.issue, { id: issue, title: 'TypeError: mine' });
      } else {
        assert.equal(n.event, null);
        assert.equal(n.issue, null);
        assert.equal(n.eventId === null, i % 3 === 2);
      }
    }
    const tail = await h.ok(FEEDBACK, { p: owner.project, a: p2.feedback.edges.at(-1).cursor }, owner.token);
    assert.deepEqual(tail.feedback.nodes, []);
    assert.equal(tail.feedback.pageInfo.endCursor, null);
  });

  test("per issue: only that issue's feedback; Issue.feedback agrees", async () => {
    const d = await h.ok(FEEDBACK, { p: owner.project, i: issue, n: 100 }, owner.token);
    assert.equal(d.feedback.totalCount, 10);
    assert.deepEqual(
      d.feedback.nodes.map((n: any) => n.id),
      expectedOrder().filter((id) => feedbackIds.indexOf(id) % 3 === 0),
    );
    const viaIssue = await h.ok(
      `query($id: ID!) { issue(id: $id) { feedback { id event { message } } } }`,
      { id: issue },
      owner.token,
    );
    assert.deepEqual(
      viaIssue.issue.feedback.map((f: any) => f.id),
      d.feedback.nodes.map((n: any) => n.id),
    );
    assert.ok(viaIssue.issue.feedback.every((f: any) => f.event.message === 'mine'));
    // Another tenant's issue, or a missing one, in my project: nothing.
    for (const i of [otherIssue, randomUUID()]) {
      const none = await h.ok(FEEDBACK, { p: owner.project, i }, owner.token);
      assert.deepEqual(none.feedback, {
        totalCount: 0,
        nodes: [],
        edges: [],
        pageInfo: { hasNextPage: false, endCursor: null },
      });
    }
  });

  test('a page of feedback with events and issues costs a constant number of SQL statements', async () => {
    // Every statement TypeORM sends goes through pg's Client#query.
    const original = Client.prototype.query;
    let statements: string[] = [];
    (Client.prototype as any).query = function (this: Client, ...args: unknown[]) {
      const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string })?.text;
      statements.push(String(text));
      return (original as any).apply(this, args);
    };
    const count = async (n: number) => {
      statements = [];
      const d = await h.ok(FEEDBACK, { p: owner.project, n }, owner.token);
      assert.equal(d.feedback.nodes.length, n);
      // Signing in refreshes the session's last-seen time at most once a minute: not the page's cost.
      return statements.filter((s) => !/^UPDATE "?sessions"?/i.test(s.trim())).length;
    };
    try {
      // The newest 6 (i = 24 … 29) include linked feedback (24, 27), so both loaders run.
      const small = await count(6);
      const large = await count(30);
      // Authentication (session, user and the two-factor requirement in one statement), access
      // check, page, count, events, issues: the same for 6 rows as for 30.
      assert.equal(large, small);
      assert.equal(large, 6);
    } finally {
      Client.prototype.query = original;
    }
  });

  test('bad input answers BAD_USER_INPUT', async () => {
    assert.equal(await h.code(FEEDBACK, { p: owner.project, a: 'nope' }, owner.token), 'BAD_USER_INPUT');
    assert.equal(await h.code(FEEDBACK, { p: owner.project, i: 'not-an-id' }, owner.token), 'BAD_USER_INPUT');
    for (const n of [0, 101])
      assert.equal(await h.code(FEEDBACK, { p: owner.project, n }, owner.token), 'BAD_USER_INPUT');
  });

  test("another tenant's project answers like a missing one; each sees its own", async () => {
    const foreign = await h.run(FEEDBACK, { p: owner.project }, other.token);
    const missing = await h.run(FEEDBACK, { p: randomUUID() }, other.token);
    assert.deepEqual(foreign, missing);
    assert.equal(foreign.errors[0].extensions.code, 'NOT_FOUND');
    const own = await h.ok(FEEDBACK, { p: other.project, n: 100 }, other.token);
    assert.equal(own.feedback.totalCount, 6);
    assert.equal(own.feedback.nodes.filter((n: any) => n.event).length, 2);
    for (const n of own.feedback.nodes) {
      assert.match(n.message, /^theirs /);
      if (n.event) assert.equal(n.event.message, 'theirs');
      if (n.issue) assert.equal(n.issue.id, otherIssue);
    }
    assert.equal(await h.code(FEEDBACK, { p: owner.project }), 'UNAUTHENTICATED');
  });
});
