/**
 * Ownership and conversation over GraphQL (issue 19): assignIssue and Issue.assignee, the
 * `assigned` filter, comments, Issue.activity newest first, and the assignment email received by
 * a real SMTP server. On PostgreSQL and on PGlite (the rows are stored).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ApolloServer } from '@apollo/server';
import {
  authenticateBearer,
  createApiToken,
  loadConfig,
  openDatabase,
  type Config,
  type Database,
} from '@tracker/core';
import {
  createTempDir,
  createTestPostgres,
  type TestPostgres,
  startSmtpReceiver,
  type SmtpReceiver,
  type ReceivedMail,
} from '@tracker/core/testing';
import { createApollo } from '../src/api.plugin';
import { createContext, type Context } from '../src/context';

const SIGNUP = `mutation($e: String!, $o: String!) {
  signup(email: $e, password: "correct horse battery", organizationName: $o) { token user { id } organization { id } } }`;
const ASSIGN = `mutation($id: ID!, $u: ID) { assignIssue(id: $id, userId: $u) { id assignee { id email } } }`;
const ISSUE = `query($id: ID!, $first: Int) { issue(id: $id) { id assignee { id email }
  activity(first: $first) { kind actor { id email } createdAt message data comment { id body editable author { email } } } } }`;
const ISSUES = `query($p: ID!, $a: IssueAssignedFilter) { issues(projectId: $p, assigned: $a) { totalCount nodes { id assignee { email } } } }`;
const ADD = `mutation($i: ID!, $b: String!) { addComment(issueId: $i, body: $b) { id body editable createdAt updatedAt author { email } } }`;
const UPDATE = `mutation($id: ID!, $b: String!) { updateComment(id: $id, body: $b) { id body updatedAt } }`;
const DELETE = `mutation($id: ID!) { deleteComment(id: $id) }`;

const decodeQp = (raw: string) =>
  raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));

for (const kind of ['postgres', 'pglite'] as const) {
  describe(`ownership and conversation over GraphQL (${kind})`, () => {
    let pg: TestPostgres | undefined;
    const dir = createTempDir();
    let db: Database;
    let apollo: ApolloServer<Context>;
    let smtp: SmtpReceiver;
    const mails: ReceivedMail[] = [];
    let config: Config;
    let clockMs = Date.parse('2026-11-25T12:00:00.000Z');
    let projectId: string;
    let owner: { token: string; userId: string; email: string; org: string };
    let member: { token: string; userId: string; email: string };
    let stranger: { token: string; userId: string; email: string };
    let seq = 0;

    async function run(source: string, variables: Record<string, unknown>, token: string, cfg = config) {
      const auth = await authenticateBearer(db.ds, token);
      const response = await apollo.executeOperation(
        { query: source, variables },
        { contextValue: createContext({ ds: db.ds, config: cfg, clock: () => clockMs }, auth.principal) },
      );
      return JSON.parse(JSON.stringify((response.body as { singleResult: unknown }).singleResult));
    }
    async function ok(source: string, variables: Record<string, unknown>, token: string) {
      const r = await run(source, variables, token);
      assert.equal(r.errors, undefined, JSON.stringify(r.errors));
      return r.data;
    }
    const codeOf = (r: any) => r.errors?.[0]?.extensions?.code;
    async function signup(name: string) {
      const email = `${name}-${++seq}@example.com`;
      // Accounts made as without email (a session at once); the emails under test are activity ones.
      const r = await run(SIGNUP, { e: email, o: `Org ${name}` }, '', { ...config, smtp: undefined });
      assert.equal(r.errors, undefined, JSON.stringify(r.errors));
      const d = r.data;
      return { token: d.signup.token, userId: d.signup.user.id, email, org: d.signup.organization.id };
    }
    async function newIssue(title = 'TypeError: x'): Promise<string> {
      const [row] = await db.ds.query(
        `INSERT INTO issues (project_id, fingerprint, title, type, level, first_seen, last_seen, event_count)
         VALUES ($1, $2, $3, 'TypeError', 'error', now(), now(), 1) RETURNING id`,
        [projectId, `fp-${++seq}`, title],
      );
      return row.id;
    }
    async function waitForMail(to: string): Promise<ReceivedMail> {
      for (let i = 0; i < 200; i++) {
        const m = mails.find((x) => x.to.includes(to));
        if (m) return m;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`no mail to ${to}`);
    }

    before(async () => {
      pg = kind === 'postgres' ? await createTestPostgres() : undefined;
      config = loadConfig({ TRACKER_DATA_DIR: dir.path, ...(pg ? { DATABASE_URL: pg.url } : {}) });
      db = await openDatabase(config, { migrate: true });
      apollo = await createApollo();
      smtp = await startSmtpReceiver({ into: mails });
      const port = smtp.port;
      config = loadConfig({
        TRACKER_DATA_DIR: dir.path,
        ...(pg ? { DATABASE_URL: pg.url } : {}),
        TRACKER_PUBLIC_URL: 'https://tracker.example.com',
        TRACKER_SMTP_URL: `smtp://127.0.0.1:${port}`,
        TRACKER_SMTP_FROM: 'Tracker <tracker@tracker.example.com>',
      });
      owner = await signup('owner');
      member = await signup('member');
      stranger = await signup('stranger');
      await db.ds.query(`INSERT INTO memberships (organization_id, user_id, role) VALUES ($1, $2, 'member')`, [
        owner.org,
        member.userId,
      ]);
      const p = await ok(
        `mutation($o: ID!) { createProject(organizationId: $o, name: "shop") { id } }`,
        { o: owner.org },
        owner.token,
      );
      projectId = p.createProject.id;
    });
    after(async () => {
      await apollo.stop();
      await smtp.close();
      await db.close();
      await pg?.drop();
      dir.remove();
    });

    test('assign: the assignee is emailed with a link; the list filters ME and NONE; the timeline says who', async () => {
      const id = await newIssue('TypeError: cart is <undefined>');
      const other = await newIssue();
      clockMs += 60_000;
      const d = await ok(ASSIGN, { id, u: member.userId }, owner.token);
      assert.deepEqual(d.assignIssue.assignee, { id: member.userId, email: member.email });

      const mail = await waitForMail(member.email);
      const body = decodeQp(mail.raw);
      assert.match(body, new RegExp(`https://tracker.example.com/projects/${projectId}/issues/${id}`));
      assert.match(body, /assigned you/);
      assert.ok(body.includes(owner.email), 'says who assigned it');
      assert.ok(!body.includes('<undefined>') || body.includes('&lt;undefined&gt;'), 'the html part escapes the title');

      const mine = await ok(ISSUES, { p: projectId, a: 'ME' }, member.token);
      assert.deepEqual(
        mine.issues.nodes.map((n: any) => n.id),
        [id],
      );
      assert.equal(mine.issues.nodes[0].assignee.email, member.email);
      assert.equal((await ok(ISSUES, { p: projectId, a: 'ME' }, owner.token)).issues.totalCount, 0);
      const none = await ok(ISSUES, { p: projectId, a: 'NONE' }, owner.token);
      assert.ok(none.issues.nodes.some((n: any) => n.id === other));
      assert.ok(!none.issues.nodes.some((n: any) => n.id === id));

      // Assigning oneself sends nothing.
      const before = mails.length;
      await ok(ASSIGN, { id: other, u: owner.userId }, owner.token);
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(mails.length, before);

      clockMs += 60_000;
      await ok(ASSIGN, { id, u: null }, member.token);
      const issue = (await ok(ISSUE, { id }, owner.token)).issue;
      assert.equal(issue.assignee, null);
      assert.deepEqual(
        issue.activity.map((a: any) => [a.kind, a.actor.email, a.message]),
        [
          ['ASSIGNED', member.email, `Unassigned (was ${member.email})`],
          ['ASSIGNED', owner.email, `Assigned to ${member.email}`],
        ],
      );
      assert.equal(issue.activity[1].createdAt, new Date(clockMs - 60_000).toISOString());
      assert.equal(issue.activity[1].data.assigneeId, member.userId);
    });

    test("assigning to someone outside the organization is BAD_USER_INPUT; another org's member cannot assign, comment or read", async () => {
      const id = await newIssue();
      const r = await run(ASSIGN, { id, u: stranger.userId }, owner.token);
      assert.equal(codeOf(r), 'BAD_USER_INPUT');
      assert.match(r.errors[0].message, /not a member of this issue's organization/);
      assert.equal(codeOf(await run(ASSIGN, { id, u: stranger.userId }, stranger.token)), 'NOT_FOUND');
      assert.equal(codeOf(await run(ADD, { i: id, b: 'hi' }, stranger.token)), 'NOT_FOUND');
      assert.equal((await ok(ISSUE, { id }, stranger.token)).issue, null);
      const readToken = (await createApiToken(db.ds, owner.userId, { name: 'r', scopes: ['read'] })).token;
      assert.equal(codeOf(await run(ADD, { i: id, b: 'hi' }, readToken)), 'FORBIDDEN');
      assert.equal(codeOf(await run(ISSUE, { id, first: 500 }, owner.token)), 'BAD_USER_INPUT');
    });

    test('comments: a plain member comments; only the author edits or deletes; the timeline shows the current text', async () => {
      const id = await newIssue();
      clockMs += 60_000;
      const c = (await ok(ADD, { i: id, b: 'look at https://example.com/a?b=1 <b>bold</b>' }, member.token)).addComment;
      assert.equal(c.body, 'look at https://example.com/a?b=1 <b>bold</b>');
      assert.equal(c.editable, true);
      assert.equal(c.author.email, member.email);
      const tooLong = await run(ADD, { i: id, b: 'x'.repeat(10_001) }, member.token);
      assert.equal(codeOf(tooLong), 'BAD_USER_INPUT');
      assert.match(tooLong.errors[0].message, /at most 10,000 characters/);
      assert.equal(codeOf(await run(UPDATE, { id: c.id, b: 'owner edit' }, owner.token)), 'FORBIDDEN');
      assert.equal(codeOf(await run(DELETE, { id: c.id }, owner.token)), 'FORBIDDEN');
      assert.equal(codeOf(await run(UPDATE, { id: c.id, b: 'x' }, stranger.token)), 'NOT_FOUND');

      clockMs += 60_000;
      const edited = (await ok(UPDATE, { id: c.id, b: 'fixed typo' }, member.token)).updateComment;
      assert.equal(edited.updatedAt, new Date(clockMs).toISOString());
      let issue = (await ok(ISSUE, { id }, owner.token)).issue;
      assert.deepEqual(
        issue.activity.map((a: any) => [a.kind, a.message, a.comment?.body, a.comment?.editable]),
        [['COMMENTED', 'fixed typo', 'fixed typo', false]],
      );
      assert.equal((await ok(ISSUE, { id }, member.token)).issue.activity[0].comment.editable, true);
      assert.equal((await ok(DELETE, { id: c.id }, member.token)).deleteComment, c.id);
      issue = (await ok(ISSUE, { id }, owner.token)).issue;
      assert.deepEqual(issue.activity, []);
    });

    test('transitions are recorded with their actor, newest first', async () => {
      const id = await newIssue();
      clockMs += 60_000;
      await ok(`mutation($id: ID!) { resolveIssue(id: $id) { id } }`, { id }, member.token);
      clockMs += 60_000;
      await ok(`mutation($id: ID!) { reopenIssue(id: $id) { id } }`, { id }, owner.token);
      clockMs += 60_000;
      await ok(
        `mutation($id: ID!, $u: String!) { snoozeIssue(id: $id, until: $u) { id } }`,
        { id, u: new Date(clockMs + 3_600_000).toISOString() },
        member.token,
      );
      const issue = (await ok(ISSUE, { id, first: 2 }, owner.token)).issue;
      assert.deepEqual(
        issue.activity.map((a: any) => [a.kind, a.actor.email]),
        [
          ['SNOOZED', member.email],
          ['REOPENED', owner.email],
        ],
      );
    });
  });
}
