/**
 * Ownership and conversation (issue 19) in core: assignment, comments, the activity timeline
 * written by people's transitions and merges, the "assigned" filter, and who may do what.
 * Both runtimes: the rows are stored.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { sessionCaller, type Caller } from '../src/access';
import { signUp } from '../src/accounts';
import {
  addComment,
  deleteComment,
  listIssueActivity,
  MAX_COMMENT_CHARS,
  recordIssueActivity,
  updateComment,
} from '../src/activity';
import { loadConfig } from '../src/config';
import { openDatabase, type Database } from '../src/db';
import { AppError } from '../src/errors';
import {
  assignIssue,
  listIssues,
  mergeIssues,
  renderAssignmentEmail,
  reopenIssue,
  resolveIssues,
  snoozeIssue,
} from '../src/issues';
import { removeMember } from '../src/organizations';
import { createProject } from '../src/projects';
import { createTempDir, createTestPostgres, type TestPostgres } from '../src/testing';
import { regressionReason } from '../src/lifecycle';

const code = (c: string) => (err: unknown) => err instanceof AppError && err.code === c;
const T0 = new Date('2026-11-25T12:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

for (const kind of ['postgres', 'pglite'] as const) {
  describe(`issue ownership and activity (${kind})`, () => {
    let pg: TestPostgres | undefined;
    const dir = createTempDir();
    let db: Database;
    let projectId: string;
    let owner: Caller & { email: string };
    let member: Caller & { email: string };
    let stranger: Caller & { email: string };
    let readToken: Caller;

    async function newIssue(title = 'TypeError: a'): Promise<string> {
      const [issue] = await db.ds.query(
        `INSERT INTO issues (project_id, fingerprint, title, type, level, first_seen, last_seen, event_count)
         VALUES ($1, $2, $3, 'TypeError', 'error', $4, $4, 1) RETURNING id`,
        [projectId, randomUUID(), title, T0.toISOString()],
      );
      return issue.id as string;
    }

    before(async () => {
      pg = kind === 'postgres' ? await createTestPostgres() : undefined;
      db = await openDatabase(loadConfig({ TRACKER_DATA_DIR: dir.path, ...(pg ? { DATABASE_URL: pg.url } : {}) }), {
        migrate: true,
      });
      const signUpAs = async (org: string) => {
        const email = `${randomUUID()}@example.com`;
        const s = await signUp(db.ds, { email, password: 'correct horse battery', organizationName: org }, 'pro');
        return { s, caller: { ...sessionCaller(s.user.id), email } };
      };
      const a = await signUpAs('A');
      const m = await signUpAs('M');
      const b = await signUpAs('B');
      owner = a.caller;
      member = m.caller;
      stranger = b.caller;
      readToken = { userId: a.s.user.id, scopes: ['read'] };
      await db.ds.query(`INSERT INTO memberships (organization_id, user_id, role) VALUES ($1, $2, 'member')`, [
        a.s.organization.id,
        m.s.user.id,
      ]);
      projectId = (await createProject(db.ds, a.s.user.id, a.s.organization.id, 'p')).project.id;
    });
    after(async () => {
      await db.close();
      await pg?.drop();
      dir.remove();
    });

    test('a member assigns to a member; the filter finds it; unassigning is recorded', async () => {
      const id = await newIssue();
      const other = await newIssue('other');
      const r = await assignIssue(db.ds, { caller: member, id, userId: owner.userId, now: at(1) });
      assert.equal(r.changed, true);
      assert.equal(r.issue.assigneeId, owner.userId);
      assert.deepEqual(r.assignee, { id: owner.userId, email: owner.email });
      assert.equal(r.actor.email, member.email);
      const again = await assignIssue(db.ds, { caller: member, id, userId: owner.userId, now: at(2) });
      assert.equal(again.changed, false, 'the same assignee: nothing changes, no second row or email');

      const mine = await listIssues(db.ds, owner, { projectId, assignee: { userId: owner.userId } });
      assert.deepEqual(
        mine.issues.map((i) => i.id),
        [id],
      );
      assert.equal(mine.issues[0].assigneeId, owner.userId);
      const byEmail = await listIssues(db.ds, owner, { projectId, assignee: { email: owner.email.toUpperCase() } });
      assert.deepEqual(
        byEmail.issues.map((i) => i.id),
        [id],
      );
      const none = await listIssues(db.ds, owner, { projectId, assignee: { none: true } });
      assert.ok(none.issues.some((i) => i.id === other));
      assert.ok(!none.issues.some((i) => i.id === id));
      assert.equal((await listIssues(db.ds, owner, { projectId, assignee: { userId: 'not-a-uuid' } })).totalCount, 0);

      await assignIssue(db.ds, { caller: owner, id, userId: null, now: at(3) });
      const activity = await listIssueActivity(db.ds, { caller: member, issueId: id });
      assert.deepEqual(
        activity.map((a) => [a.kind, a.actor?.email, a.message]),
        [
          ['ASSIGNED', owner.email, `Unassigned (was ${owner.email})`],
          ['ASSIGNED', member.email, `Assigned to ${owner.email}`],
        ],
      );
      assert.equal(activity[1].data.assigneeId, owner.userId);
      assert.equal(activity[1].createdAt.toISOString(), at(1).toISOString());
    });

    test('assigning to someone outside the organization is a clear BAD_USER_INPUT; strangers get NOT_FOUND', async () => {
      const id = await newIssue();
      await assert.rejects(
        assignIssue(db.ds, { caller: owner, id, userId: stranger.userId, now: at(1) }),
        (err: unknown) =>
          code('BAD_USER_INPUT')(err) && /not a member of this issue's organization/.test((err as Error).message),
      );
      await assert.rejects(
        assignIssue(db.ds, { caller: owner, id, userId: 'nope', now: at(1) }),
        code('BAD_USER_INPUT'),
      );
      await assert.rejects(
        assignIssue(db.ds, { caller: stranger, id, userId: stranger.userId, now: at(1) }),
        code('NOT_FOUND'),
      );
      await assert.rejects(assignIssue(db.ds, { caller: readToken, id, userId: null, now: at(1) }), code('FORBIDDEN'));
      await assert.rejects(listIssueActivity(db.ds, { caller: stranger, issueId: id }), code('NOT_FOUND'));
      await assert.rejects(listIssueActivity(db.ds, { caller: owner, issueId: id, first: 0 }), code('BAD_USER_INPUT'));
      const [row] = await db.ds.query('SELECT assignee_id FROM issues WHERE id = $1', [id]);
      assert.equal(row.assignee_id, null);
    });

    test('comments: any member writes; only the author edits or deletes; strangers see nothing', async () => {
      const id = await newIssue();
      const c = await addComment(db.ds, {
        caller: member,
        issueId: id,
        body: '  see https://example.com/x  ',
        now: at(5),
      });
      assert.equal(c.body, 'see https://example.com/x');
      assert.equal(c.author?.email, member.email);
      await assert.rejects(
        addComment(db.ds, { caller: stranger, issueId: id, body: 'hi', now: at(5) }),
        code('NOT_FOUND'),
      );
      await assert.rejects(
        addComment(db.ds, { caller: readToken, issueId: id, body: 'hi', now: at(5) }),
        code('FORBIDDEN'),
      );
      await assert.rejects(
        addComment(db.ds, { caller: owner, issueId: id, body: '   ', now: at(5) }),
        code('BAD_USER_INPUT'),
      );
      await assert.rejects(
        addComment(db.ds, { caller: owner, issueId: id, body: 'x'.repeat(MAX_COMMENT_CHARS + 1), now: at(5) }),
        (err: unknown) => code('BAD_USER_INPUT')(err) && /at most 10,000 characters/.test((err as Error).message),
      );
      await assert.rejects(
        updateComment(db.ds, { caller: owner, id: c.id, body: 'mine now', now: at(6) }),
        code('FORBIDDEN'),
      );
      await assert.rejects(
        updateComment(db.ds, { caller: stranger, id: c.id, body: 'x', now: at(6) }),
        code('NOT_FOUND'),
      );
      await assert.rejects(deleteComment(db.ds, { caller: owner, id: c.id }), code('FORBIDDEN'));
      await assert.rejects(deleteComment(db.ds, { caller: stranger, id: c.id }), code('NOT_FOUND'));
      await assert.rejects(deleteComment(db.ds, { caller: member, id: 'nope' }), code('NOT_FOUND'));

      const edited = await updateComment(db.ds, { caller: member, id: c.id, body: 'edited text', now: at(7) });
      assert.equal(edited.body, 'edited text');
      assert.equal(edited.updatedAt.toISOString(), at(7).toISOString());
      const second = await addComment(db.ds, { caller: owner, issueId: id, body: 'second', now: at(8) });
      let activity = await listIssueActivity(db.ds, { caller: owner, issueId: id });
      assert.deepEqual(
        activity.map((a) => [a.kind, a.actor?.email, a.message, a.comment?.id]),
        [
          ['COMMENTED', owner.email, 'second', second.id],
          ['COMMENTED', member.email, 'edited text', c.id],
        ],
      );
      assert.equal(await deleteComment(db.ds, { caller: member, id: c.id }), c.id);
      activity = await listIssueActivity(db.ds, { caller: owner, issueId: id });
      assert.deepEqual(
        activity.map((a) => a.comment?.id),
        [second.id],
        "a deleted comment's row goes with it",
      );
    });

    test('resolve, snooze and reopen are recorded with their actor, newest first; first limits', async () => {
      const id = await newIssue();
      await resolveIssues(db.ds, { caller: member, ids: [id], now: at(10) });
      await resolveIssues(db.ds, { caller: owner, ids: [id], now: at(11) }); // no change: no row
      await reopenIssue(db.ds, { caller: owner, id, now: at(12) });
      await snoozeIssue(db.ds, { caller: member, id, until: at(120), now: at(13) });
      await reopenIssue(db.ds, { caller: member, id, now: at(14) });
      const activity = await listIssueActivity(db.ds, { caller: owner, issueId: id });
      assert.deepEqual(
        activity.map((a) => [a.kind, a.actor?.email, a.message]),
        [
          ['REOPENED', member.email, 'Reopened (snooze cancelled)'],
          ['SNOOZED', member.email, 'Snoozed until 2026-11-25 14:00 UTC'],
          ['REOPENED', owner.email, 'Reopened'],
          ['RESOLVED', member.email, 'Resolved (the project had no release)'],
        ],
      );
      assert.deepEqual(
        (await listIssueActivity(db.ds, { caller: owner, issueId: id, first: 2 })).map((a) => a.kind),
        ['REOPENED', 'SNOOZED'],
      );
    });

    test('a merge moves the source timeline and comments to the target and records MERGED', async () => {
      const target = await newIssue('target');
      const source = await newIssue('source');
      await addComment(db.ds, { caller: member, issueId: source, body: 'on the source', now: at(20) });
      await db.ds.transaction((em) =>
        recordIssueActivity(em, { issueId: source, projectId, kind: 'FIRST_SEEN', message: 'First seen', at: at(19) }),
      );
      await mergeIssues(db.ds, { caller: owner, targetId: target, sourceId: source, now: at(21) });
      const activity = await listIssueActivity(db.ds, { caller: owner, issueId: target });
      assert.deepEqual(
        activity.map((a) => [a.kind, a.message]),
        [
          ['MERGED', 'Merged source (1 event) into this issue'],
          ['COMMENTED', 'on the source'],
          ['FIRST_SEEN', 'First seen'],
        ],
      );
      assert.equal(activity[0].data.sourceId, source);
    });

    test('someone who leaves the organization is unassigned from its issues', async () => {
      const id = await newIssue();
      await assignIssue(db.ds, { caller: owner, id, userId: member.userId, now: at(30) });
      const [org] = await db.ds.query('SELECT organization_id FROM projects WHERE id = $1', [projectId]);
      await removeMember(db.ds, { caller: owner, organizationId: org.organization_id, userId: member.userId });
      const [row] = await db.ds.query('SELECT assignee_id FROM issues WHERE id = $1', [id]);
      assert.equal(row.assignee_id, null);
      const [latest] = await listIssueActivity(db.ds, { caller: owner, issueId: id });
      assert.equal(latest.kind, 'ASSIGNED');
      assert.match(latest.message, /no longer a member/);
      await db.ds.query(`INSERT INTO memberships (organization_id, user_id, role) VALUES ($1, $2, 'member')`, [
        org.organization_id,
        member.userId,
      ]);
    });
  });
}

test('the assignment email escapes what users wrote and links the issue', () => {
  const mail = renderAssignmentEmail({
    publicUrl: 'https://tracker.example.com/',
    projectId: 'p1',
    projectName: 'Shop\r\nBcc: x@evil',
    issueId: 'i1',
    issueTitle: '<script>alert(1)</script>',
    assignerEmail: 'ann@example.com',
  });
  assert.ok(!/[\r\n]/.test(mail.subject));
  assert.match(mail.text, /https:\/\/tracker\.example\.com\/projects\/p1\/issues\/i1/);
  assert.ok(!mail.html.includes('<script>'));
  assert.match(mail.html, /&lt;script&gt;/);
});

test('a regression says why: release, deploy time and environment, and what it was resolved in', () => {
  const deployedAt = new Date('2026-11-25T12:03:00.000Z');
  const resolved = {
    status: 'resolved' as const,
    isRegression: false,
    resolvedAt: new Date('2026-11-24T09:00:00.000Z'),
    resolvedIn: { id: 'r1', version: '1.3.2', environment: 'production', deployedAt: new Date('2026-11-20T00:00:00Z') },
    snoozedUntil: null,
  };
  const event = {
    receivedAt: new Date('2026-11-25T12:10:00.000Z'),
    release: '1.4.0',
    releaseRecord: { id: 'r2', version: '1.4.0', environment: 'production', deployedAt },
    projectHasReleases: true,
    environment: 'production',
  };
  const r = regressionReason(resolved, event);
  assert.equal(
    r.message,
    'event in release 1.4.0, deployed 2026-11-25 12:03 UTC to production, after resolved in 1.3.2',
  );
  assert.equal(r.data.reason, 'newer-release');
  assert.equal(r.data.deployedAt, deployedAt.toISOString());
  assert.match(
    regressionReason({ ...resolved, resolvedIn: null }, event).message,
    /after resolved at 2026-11-24 09:00 UTC \(no release then\)/,
  );
  assert.equal(
    regressionReason(resolved, { ...event, release: null, releaseRecord: null, projectHasReleases: false }).message,
    'new event after it was resolved at 2026-11-24 09:00 UTC (the project records no releases)',
  );
  assert.equal(
    regressionReason(
      {
        ...resolved,
        status: 'snoozed',
        resolvedAt: null,
        resolvedIn: null,
        snoozedUntil: new Date('2026-11-25T12:00:00Z'),
      },
      event,
    ).message,
    'snoozed until 2026-11-25 12:00 UTC, which has passed',
  );
});
