/**
 * Grouping control in GraphQL (issue 19): snoozeIssue's four kinds and their validation,
 * unmergeIssue, discardIssue (owners and admins), the list's `discarded` filter, and another
 * tenant seeing nothing — on PostgreSQL and on the embedded database.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createIssueFixture, type IssueFixture } from './issue-fixtures';

const T0 = Date.UTC(2026, 10, 20, 8);
const at = (minutes: number) => new Date(T0 + minutes * 60_000);

const SNOOZE = `mutation($id: ID!, $until: String, $minutes: Int, $forEvents: Int, $forUsers: Int) {
  snoozeIssue(id: $id, until: $until, minutes: $minutes, forEvents: $forEvents, forUsers: $forUsers) {
    status snoozedUntil snooze { kind until minutes forEvents forUsers remaining } } }`;
const UNMERGE = `mutation($id: ID!) { unmergeIssue(id: $id) { id title eventCount userCount firstSeen lastSeen mergedIssueCount } }`;
const DISCARD = `mutation($id: ID!, $d: Boolean!) { discardIssue(id: $id, discard: $d) { id discarded discardedAt } }`;
const MERGE = `mutation($t: ID!, $s: ID!) { mergeIssues(targetId: $t, sourceId: $s) { id eventCount mergedIssueCount } }`;

for (const kind of ['postgres', 'pglite'] as const) {
  describe(`grouping control in GraphQL (${kind})`, () => {
    let f: IssueFixture;
    before(async () => {
      f = await createIssueFixture(kind);
    });
    after(async () => {
      await f.close();
    });

    async function issueIdOf(projectId: string, fp: string): Promise<string> {
      const rows: Array<{ id: string }> = await f.db.ds.query(
        `SELECT DISTINCT issue_id AS id FROM events WHERE project_id = $1 AND fingerprint = $2::jsonb`,
        [projectId, JSON.stringify([fp])],
      );
      return rows[0].id;
    }

    test('snoozeIssue takes exactly one of until, minutes, forEvents, forUsers and reports the condition', async () => {
      const p = await f.account();
      await f.ingest(p.projectId, [
        { fingerprint: ['s'], at: at(1), user: { id: 'a' } },
        { fingerprint: ['s'], at: at(2), user: { id: 'b' } },
      ]);
      const id = await issueIdOf(p.projectId, 's');
      const bad = [
        {},
        { minutes: 5, forEvents: 5 },
        { forEvents: 0 },
        { forUsers: -2 },
        { until: '2001-01-01T00:00:00Z' },
      ];
      for (const args of bad) {
        const r = await f.run(SNOOZE, { id, ...args }, p.token);
        assert.equal(r.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT', JSON.stringify(args));
      }
      const byEvents = (await f.ok(SNOOZE, { id, forEvents: 100 }, p.token)).snoozeIssue;
      assert.deepEqual(byEvents, {
        status: 'SNOOZED',
        snoozedUntil: null,
        snooze: { kind: 'EVENTS', until: null, minutes: null, forEvents: 100, forUsers: null, remaining: 100 },
      });
      const byUsers = (await f.ok(SNOOZE, { id, forUsers: 10 }, p.token)).snoozeIssue;
      assert.equal(byUsers.snooze.kind, 'USERS');
      assert.equal(byUsers.snooze.remaining, 10);
      const forADay = (await f.ok(SNOOZE, { id, minutes: 1440 }, p.token)).snoozeIssue;
      assert.equal(forADay.snooze.kind, 'MINUTES');
      assert.equal(forADay.snooze.minutes, 1440);
      assert.equal(Date.parse(forADay.snoozedUntil) - Date.parse(forADay.snooze.until), 0);
      const until = (await f.ok(SNOOZE, { id, until: '2999-01-01T00:00:00Z' }, p.token)).snoozeIssue;
      assert.equal(until.snooze.kind, 'UNTIL');
      assert.equal(until.snoozedUntil, '2999-01-01T00:00:00.000Z');
      // The timeline records the kind of each snooze.
      const rows: Array<{ message: string }> = await f.db.ds.query(
        `SELECT message FROM issue_activity WHERE issue_id = $1 AND kind = 'SNOOZED' ORDER BY created_at, message`,
        [id],
      );
      assert.ok(rows.some((r) => r.message === 'Snoozed until 100 more events'));
      assert.ok(rows.some((r) => r.message === 'Snoozed until 10 more users'));
      assert.ok(rows.some((r) => r.message === 'Snoozed for 1 day'));
      assert.ok(rows.some((r) => r.message === 'Snoozed until 2999-01-01 00:00 UTC'));
    });

    test('unmergeIssue splits a merge back; mergedIssueCount says when there is something to split', async () => {
      const p = await f.account();
      await f.ingest(p.projectId, [
        { fingerprint: ['t'], message: 'target', at: at(2), user: { id: 'x' } },
        { fingerprint: ['s'], message: 'source', at: at(1), user: { id: 'y' } },
        { fingerprint: ['s'], message: 'source', at: at(3), user: { id: 'x' } },
      ]);
      const t = await issueIdOf(p.projectId, 't');
      const s = await issueIdOf(p.projectId, 's');
      const m = (await f.ok(MERGE, { t, s }, p.token)).mergeIssues;
      assert.deepEqual(m, { id: t, eventCount: 3, mergedIssueCount: 1 });
      const split = (await f.ok(UNMERGE, { id: t }, p.token)).unmergeIssue;
      assert.deepEqual(split, [
        {
          id: t,
          title: 'Error: target',
          eventCount: 1,
          userCount: 1,
          firstSeen: at(2).toISOString(),
          lastSeen: at(2).toISOString(),
          mergedIssueCount: 0,
        },
        {
          id: s,
          title: 'Error: source',
          eventCount: 2,
          userCount: 2,
          firstSeen: at(1).toISOString(),
          lastSeen: at(3).toISOString(),
          mergedIssueCount: 0,
        },
      ]);
      const again = await f.run(UNMERGE, { id: t }, p.token);
      assert.equal(again.errors[0].extensions.code, 'BAD_USER_INPUT');
    });

    test('discardIssue: owners only; the list leaves discarded issues out unless asked; undo restores', async () => {
      const p = await f.account();
      await f.ingest(p.projectId, [
        { fingerprint: ['d'], at: at(1) },
        { fingerprint: ['k'], at: at(2) },
      ]);
      const d = await issueIdOf(p.projectId, 'd');
      const member = await f.account();
      await f.db.ds.query(`INSERT INTO memberships (organization_id, user_id, role) VALUES ($1, $2, 'member')`, [
        p.organizationId,
        member.userId,
      ]);
      assert.equal((await f.run(DISCARD, { id: d, d: true }, member.token)).errors[0].extensions.code, 'FORBIDDEN');
      const done = (await f.ok(DISCARD, { id: d, d: true }, p.token)).discardIssue;
      assert.equal(done.discarded, true);
      assert.ok(done.discardedAt);
      const LIST = `query($p: ID!, $d: Boolean, $e: String) { issues(projectId: $p, discarded: $d, environment: $e) { totalCount nodes { id } } }`;
      const visible = (await f.ok(LIST, { p: p.projectId }, p.token)).issues;
      assert.equal(visible.totalCount, 1);
      assert.ok(!visible.nodes.some((n: { id: string }) => n.id === d));
      // The environment-only count takes its own path (issue_environments): it leaves them out too.
      assert.equal((await f.ok(LIST, { p: p.projectId, e: 'production' }, p.token)).issues.totalCount, 1);
      assert.deepEqual((await f.ok(LIST, { p: p.projectId, d: true }, p.token)).issues, {
        totalCount: 1,
        nodes: [{ id: d }],
      });
      const keys: Array<{ n: number }> = await f.db.ds.query(
        'SELECT count(*)::int AS n FROM issue_discard_keys WHERE issue_id = $1',
        [d],
      );
      assert.equal(keys[0].n, 1);
      // New events of a discarded issue are not stored (the worker's drop; the edge is tested in server/).
      await f.ingest(p.projectId, [{ fingerprint: ['d'], at: at(3) }]);
      assert.equal(
        (await f.ok(`query($id: ID!) { issue(id: $id) { eventCount } }`, { id: d }, p.token)).issue.eventCount,
        1,
      );
      const undone = (await f.ok(DISCARD, { id: d, d: false }, p.token)).discardIssue;
      assert.deepEqual(undone, { id: d, discarded: false, discardedAt: null });
      await f.ingest(p.projectId, [{ fingerprint: ['d'], at: at(4) }]);
      assert.equal(
        (await f.ok(`query($id: ID!) { issue(id: $id) { eventCount } }`, { id: d }, p.token)).issue.eventCount,
        2,
      );
      const kinds: Array<{ message: string }> = await f.db.ds.query(
        `SELECT message FROM issue_activity WHERE issue_id = $1 AND kind = 'DISCARDED' ORDER BY created_at`,
        [d],
      );
      assert.equal(kinds.length, 2);
    });

    test('another organization gets NOT_FOUND from every new mutation, as for a missing issue', async () => {
      const p = await f.account();
      await f.ingest(p.projectId, [
        { fingerprint: ['a'], at: at(1) },
        { fingerprint: ['b'], at: at(2) },
      ]);
      const a = await issueIdOf(p.projectId, 'a');
      await f.ok(MERGE, { t: a, s: await issueIdOf(p.projectId, 'b') }, p.token);
      const stranger = await f.account();
      for (const [source, vars] of [
        [UNMERGE, { id: a }],
        [DISCARD, { id: a, d: true }],
        [SNOOZE, { id: a, forEvents: 5 }],
      ] as const) {
        const theirs = await f.run(source, vars, stranger.token);
        const missing = await f.run(source, { ...vars, id: randomUUID() }, stranger.token);
        assert.equal(theirs.errors[0].extensions.code, 'NOT_FOUND');
        assert.deepEqual(theirs, missing);
      }
      // Nothing changed for the owner.
      const mine = (
        await f.ok(`query($id: ID!) { issue(id: $id) { status discarded mergedIssueCount } }`, { id: a }, p.token)
      ).issue;
      assert.deepEqual(mine, { status: 'OPEN', discarded: false, mergedIssueCount: 1 });
    });
  });
}
