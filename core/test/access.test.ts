/**
 * The one access rule (core/src/access, issue 18): every core function that reads or writes
 * tenant data takes the caller and checks through it, so an edge that forgets its own check
 * still cannot read another tenant's data, a member cannot do an admin's job, and a token cannot
 * do more than its scope, whichever edge calls.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { canSeeSecrets, sessionCaller, type Caller } from '../src/access';
import { signUp } from '../src/accounts';
import { listAlertRules } from '../src/alerts';
import { openDatabase, type Database } from '../src/db';
import { AppError } from '../src/errors';
import { listFeedback } from '../src/feedback';
import { deleteIssue, findEvent, findIssue, listIssues, mergeIssues, resolveIssues } from '../src/issues';
import { searchLogs } from '../src/logs';
import { findOrganization, listMembers, removeMember } from '../src/organizations';
import { createProject, findProject, listProjectKeys, updateProjectPrivacy } from '../src/projects';
import { listReleases, listUploadTokens, markRelease } from '../src/releases';
import { createTestPostgres, type TestPostgres } from '../src/testing';
import { resolveVitalsQuery, summarizeVitals, summarizeVitalsByUrl, vitalsSeries } from '../src/vitals';

const code = (c: string) => (err: unknown) => err instanceof AppError && err.code === c;

describe('one access rule for every core read and write', () => {
  let pg: TestPostgres;
  let db: Database;
  let organizationId: string;
  let projectId: string;
  let issueId: string;
  let eventId: string;
  let owner: Caller;
  let member: Caller;
  let stranger: Caller;

  before(async () => {
    pg = await createTestPostgres();
    db = await openDatabase({ databaseUrl: pg.url, dataDir: '' }, { migrate: true });
    const signUpAs = (org: string) =>
      signUp(
        db.ds,
        { email: `${randomUUID()}@example.com`, password: 'correct horse battery', organizationName: org },
        'pro',
      );
    const a = await signUpAs('A');
    const m = await signUpAs('M');
    const b = await signUpAs('B');
    organizationId = a.organization.id;
    owner = sessionCaller(a.user.id);
    member = sessionCaller(m.user.id);
    stranger = sessionCaller(b.user.id);
    await db.ds.query(`INSERT INTO memberships (organization_id, user_id, role) VALUES ($1, $2, 'member')`, [
      organizationId,
      m.user.id,
    ]);
    projectId = (await createProject(db.ds, a.user.id, organizationId, 'p')).project.id;
    const [issue] = await db.ds.query(
      `INSERT INTO issues (project_id, fingerprint, title, type, level, first_seen, last_seen, event_count)
       VALUES ($1, 'fp', 'TypeError: a', 'TypeError', 'error', now(), now(), 1) RETURNING id`,
      [projectId],
    );
    issueId = issue.id;
    const [event] = await db.ds.query(
      `INSERT INTO events (project_id, issue_id, event_id, timestamp, received_at, level, type, message, environment, retention_days)
       VALUES ($1, $2, $3, now(), now(), 'error', 'TypeError', 'a', 'production', 30) RETURNING event_id AS id`,
      [projectId, issueId, randomUUID()],
    );
    // An event is named by its UUID (issue 29).
    eventId = event.id;
  });
  after(async () => {
    await db?.close();
    await pg?.drop();
  });

  /** Every project read, as core exposes it: one row per function, so a new read is one line here. */
  const projectReads: Array<[string, (caller: Caller) => Promise<unknown>]> = [
    ['listIssues', (c) => listIssues(db.ds, c, { projectId })],
    ['searchLogs', (c) => searchLogs(db.ds, c, { projectId })],
    ['listFeedback', (c) => listFeedback(db.ds, c, { projectId })],
    ['listReleases', (c) => listReleases(db.ds, c, projectId)],
    ['listAlertRules', (c) => listAlertRules(db.ds, c, projectId)],
    ['listProjectKeys', (c) => listProjectKeys(db.ds, c, projectId)],
    ['summarizeVitals', (c) => summarizeVitals(db.ds, c, resolveVitalsQuery(projectId))],
    ['summarizeVitalsByUrl', (c) => summarizeVitalsByUrl(db.ds, c, resolveVitalsQuery(projectId), 10)],
    ['vitalsSeries', (c) => vitalsSeries(db.ds, c, resolveVitalsQuery(projectId), 'day')],
  ];

  test('a stranger reads nothing: NOT_FOUND, as for a project that does not exist', async () => {
    for (const [name, read] of projectReads) {
      await assert.rejects(read(stranger), code('NOT_FOUND'), `${name} as a stranger`);
      await assert.doesNotReject(read(member), `${name} as a member`);
    }
    assert.equal(await findProject(db.ds, stranger, projectId), null);
    assert.equal(await findIssue(db.ds, stranger, issueId), null);
    assert.equal(await findEvent(db.ds, stranger, eventId), null);
    assert.equal(await findOrganization(db.ds, stranger, organizationId), null);
    await assert.rejects(listMembers(db.ds, stranger, organizationId), code('NOT_FOUND'));
    assert.equal((await findIssue(db.ds, member, issueId))?.id, issueId);
    assert.equal((await findEvent(db.ds, member, eventId))?.eventId, eventId);
  });

  test("a member gets FORBIDDEN for an admin's read and write, with the message the API shows", async () => {
    await assert.rejects(listUploadTokens(db.ds, member, projectId), {
      code: 'FORBIDDEN',
      message: 'Only owners and admins can see upload tokens',
    });
    await assert.rejects(deleteIssue(db.ds, member, issueId), {
      code: 'FORBIDDEN',
      message: 'Only owners and admins can delete issues',
    });
    assert.deepEqual(await listUploadTokens(db.ds, owner, projectId), []);
  });

  test('a token caller is held to its scope in core too, not only by the API guard', async () => {
    const readToken: Caller = { userId: owner.userId, scopes: ['read'] };
    await assert.doesNotReject(listIssues(db.ds, readToken, { projectId }));
    await assert.rejects(resolveIssues(db.ds, { caller: readToken, ids: [issueId] }), code('FORBIDDEN'));
    await assert.rejects(markRelease(db.ds, readToken, { projectId, version: '1.0' }), code('FORBIDDEN'));
    const writeToken: Caller = { userId: owner.userId, scopes: ['write'] };
    await assert.rejects(deleteIssue(db.ds, writeToken, issueId), code('FORBIDDEN'));
    await assert.rejects(
      updateProjectPrivacy(db.ds, writeToken, projectId, { scrubIpAddresses: false }),
      code('FORBIDDEN'),
    );
    await assert.rejects(
      removeMember(db.ds, { caller: writeToken, organizationId, userId: member.userId }),
      code('FORBIDDEN'),
    );
    const status = await db.ds.query('SELECT status FROM issues WHERE id = $1', [issueId]);
    assert.equal(status[0].status, 'open');
  });

  test('ids are named: a merge cannot swap target and source by position', async () => {
    const [t, s] = await db.ds.query(
      `INSERT INTO issues (project_id, fingerprint, title, type, level, first_seen, last_seen, event_count)
       VALUES ($1, 'fp-t', 'T', 'T', 'error', now(), now(), 1), ($1, 'fp-s', 'S', 'S', 'error', now(), now(), 1)
       RETURNING id`,
      [projectId],
    );
    const merged = await mergeIssues(db.ds, { caller: member, sourceId: s.id, targetId: t.id });
    assert.equal(merged.id, t.id);
    assert.equal((await db.ds.query('SELECT id FROM issues WHERE id = $1', [s.id])).length, 0);
  });

  test('secrets show in full only to owners and admins with a session or an admin token', () => {
    const as = (scopes: Caller['scopes']): Caller => ({ userId: randomUUID(), scopes });
    assert.equal(canSeeSecrets(as(['read', 'write', 'admin']), 'owner'), true);
    assert.equal(canSeeSecrets(as(['admin']), 'admin'), true);
    assert.equal(canSeeSecrets(as(['write']), 'owner'), false);
    assert.equal(canSeeSecrets(as(['read']), 'admin'), false);
    assert.equal(canSeeSecrets(as(['admin']), 'member'), false);
    assert.equal(canSeeSecrets(as(['admin']), null), false);
  });
});
