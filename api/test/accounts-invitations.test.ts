import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { ApolloServer } from '@apollo/server';
import { authenticateBearer, loadConfig, openDatabase, type Config, type Database } from '@tracker/core';
import {
  createTestPostgres,
  type TestPostgres,
  startSmtpReceiver,
  type SmtpReceiver,
  type ReceivedMail,
} from '@tracker/core/testing';
import { createApollo } from '../src/api.plugin';
import { createContext, type Context } from '../src/context';

const SIGNUP = `mutation($e: String!, $p: String!, $o: String!) {
  signup(email: $e, password: $p, organizationName: $o) { token user { id } organization { id } } }`;
const INVITE = `mutation($o: ID!, $e: String!, $r: MemberRole) {
  inviteMember(organizationId: $o, email: $e, role: $r) { invitation { id email role expiresAt organizationId } emailSent link } }`;
const ACCEPT = `mutation($t: String!) { acceptInvitation(token: $t) { id name } }`;
const MEMBERS = `query($o: ID!) { members(organizationId: $o) { userId email role } }`;
const ROLE = `mutation($o: ID!, $u: ID!, $r: MemberRole!) { updateMemberRole(organizationId: $o, userId: $u, role: $r) { userId role } }`;
const REMOVE = `mutation($o: ID!, $u: ID!) { removeMember(organizationId: $o, userId: $u) }`;
const PASSWORD = 'correct horse battery';
const DAY = 86_400_000;

/** Enough quoted-printable decoding to find a link in nodemailer's output. */
const decodeQp = (raw: string) =>
  raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));

describe('organizations: invitations and members', () => {
  let pg: TestPostgres;
  let db: Database;
  let apollo: ApolloServer<Context>;
  let smtp: SmtpReceiver;
  const mails: ReceivedMail[] = [];
  let config: Config;
  let withSmtp: Config;
  let seq = 0;

  before(async () => {
    pg = await createTestPostgres();
    db = await openDatabase({ databaseUrl: pg.url, dataDir: '' }, { migrate: true });
    apollo = await createApollo();
    smtp = await startSmtpReceiver({ into: mails });
    const port = smtp.port;
    config = loadConfig({ TRACKER_PUBLIC_URL: 'https://tracker.example.com' });
    withSmtp = loadConfig({
      TRACKER_PUBLIC_URL: 'https://tracker.example.com',
      TRACKER_SMTP_URL: `smtp://127.0.0.1:${port}`,
      TRACKER_SMTP_FROM: 'Tracker <invites@tracker.example.com>',
    });
  });
  after(async () => {
    await apollo.stop();
    await smtp.close();
    await db.close();
    await pg.drop();
  });

  async function run(source: string, variables: Record<string, unknown> = {}, token?: string, cfg = config) {
    const auth = token ? await authenticateBearer(db.ds, token) : null;
    const response = await apollo.executeOperation(
      { query: source, variables },
      { contextValue: createContext({ ds: db.ds, config: cfg }, auth?.principal ?? null) },
    );
    return JSON.parse(JSON.stringify((response.body as { singleResult: unknown }).singleResult));
  }
  const ok = (r: any) => {
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    return r.data;
  };
  const code = (r: any) => r.errors?.[0]?.extensions?.code;

  async function signup(name = `user${++seq}`) {
    const email = `${name}@example.com`;
    const d = ok(await run(SIGNUP, { e: email, p: PASSWORD, o: `Org ${name}` }));
    return {
      email,
      token: d.signup.token as string,
      userId: d.signup.user.id as string,
      orgId: d.signup.organization.id as string,
    };
  }

  /** Invites without SMTP and returns the link's token. */
  async function invite(by: { token: string; orgId: string }, email: string, role = 'MEMBER') {
    const d = ok(await run(INVITE, { o: by.orgId, e: email, r: role }, by.token));
    return {
      id: d.inviteMember.invitation.id as string,
      token: (d.inviteMember.link as string).split('/invitations/')[1],
    };
  }

  test('without SMTP the invitation is created and the link returned; it is single use and stored hashed', async () => {
    const owner = await signup();
    const r = ok(
      await run(INVITE, { o: owner.orgId, e: ' New.Person@Example.com ', r: 'ADMIN' }, owner.token),
    ).inviteMember;
    assert.equal(r.emailSent, false);
    assert.match(r.link, /^https:\/\/tracker\.example\.com\/invitations\/eti_[A-Za-z0-9_-]{43}$/);
    assert.equal(r.invitation.email, 'new.person@example.com');
    assert.equal(r.invitation.role, 'ADMIN');
    const expires = new Date(r.invitation.expiresAt).getTime() - Date.now();
    assert.ok(expires > 7 * DAY - 60_000 && expires <= 7 * DAY, 'expires in 7 days');
    const token = r.link.split('/invitations/')[1];
    const rows = await db.ds.query(`SELECT * FROM invitations WHERE id = $1`, [r.invitation.id]);
    assert.equal(rows[0].token_hash, createHash('sha256').update(token).digest('hex'));
    assert.ok(!JSON.stringify(rows).includes(token));
    // The link's page, before signing in.
    const preview = ok(
      await run(`query($t: String!) { invitation(token: $t) { organizationName email role status } }`, { t: token }),
    );
    assert.deepEqual(preview.invitation, {
      organizationName: `Org user${seq}`,
      email: 'new.person@example.com',
      role: 'ADMIN',
      status: 'PENDING',
    });
    assert.equal(ok(await run(`query { invitation(token: "eti_nope") { email } }`)).invitation, null);
    // Pending list for admins.
    const pending = ok(
      await run(`query($o: ID!) { invitations(organizationId: $o) { id email } }`, { o: owner.orgId }, owner.token),
    );
    assert.deepEqual(pending.invitations, [{ id: r.invitation.id, email: 'new.person@example.com' }]);

    // A new person signs up through the link: no organization of their own, the invited role.
    const signed = ok(
      await run(
        `mutation($t: String!, $p: String!) { signupWithInvitation(token: $t, password: $p) { token user { email organizations { id } } organization { id } } }`,
        { t: token, p: PASSWORD },
      ),
    ).signupWithInvitation;
    assert.equal(signed.user.email, 'new.person@example.com');
    assert.deepEqual(signed.user.organizations, [{ id: owner.orgId }]);
    const members = ok(await run(MEMBERS, { o: owner.orgId }, signed.token)).members;
    assert.deepEqual(
      members.map((m: any) => [m.email, m.role]),
      [
        [owner.email, 'OWNER'],
        ['new.person@example.com', 'ADMIN'],
      ],
    );
    // Reused: refused, with CONFLICT, both ways; nothing changes.
    const again = await run(
      `mutation($t: String!, $p: String!) { signupWithInvitation(token: $t, password: $p) { token } }`,
      { t: token, p: PASSWORD },
    );
    assert.equal(code(again), 'CONFLICT');
    assert.equal(again.errors[0].message, 'This invitation has already been used');
    const other = await signup();
    assert.equal(code(await run(ACCEPT, { t: token }, other.token)), 'CONFLICT');
    assert.equal(
      ok(await run(`query($t: String!) { invitation(token: $t) { status } }`, { t: token })).invitation.status,
      'ACCEPTED',
    );
    assert.equal(ok(await run(MEMBERS, { o: owner.orgId }, owner.token)).members.length, 2);
  });

  test('accepting: the invited email only, once; expired and withdrawn links are refused', async () => {
    const owner = await signup();
    const invitee = await signup();
    const stranger = await signup();
    const inv = await invite(owner, invitee.email);
    // Forwarded link: another account cannot use it.
    const forwarded = await run(ACCEPT, { t: inv.token }, stranger.token);
    assert.equal(code(forwarded), 'FORBIDDEN');
    // Signed-out and API-token callers cannot accept.
    assert.equal(code(await run(ACCEPT, { t: inv.token })), 'UNAUTHENTICATED');
    const joined = ok(await run(ACCEPT, { t: inv.token }, invitee.token));
    assert.equal(joined.acceptInvitation.id, owner.orgId);
    const orgs = ok(await run(`{ viewer { organizations { id } } }`, {}, invitee.token)).viewer.organizations.map(
      (o: any) => o.id,
    );
    assert.deepEqual(orgs.sort(), [invitee.orgId, owner.orgId].sort());
    const reused = await run(ACCEPT, { t: inv.token }, invitee.token);
    assert.equal(code(reused), 'CONFLICT');
    assert.equal(reused.errors[0].message, 'This invitation has already been used');

    // Expired.
    const late = await invite(owner, stranger.email);
    await db.ds.query(`UPDATE invitations SET expires_at = now() - interval '1 second' WHERE id = $1`, [late.id]);
    const expired = await run(ACCEPT, { t: late.token }, stranger.token);
    assert.equal(code(expired), 'FORBIDDEN');
    assert.match(expired.errors[0].message, /expired/);
    // Withdrawn (explicitly, or by a newer invitation to the same address).
    const first = await invite(owner, stranger.email);
    const second = await invite(owner, stranger.email);
    assert.equal(code(await run(ACCEPT, { t: first.token }, stranger.token)), 'NOT_FOUND');
    ok(await run(`mutation($id: ID!) { revokeInvitation(id: $id) { revokedAt } }`, { id: second.id }, owner.token));
    const withdrawn = await run(ACCEPT, { t: second.token }, stranger.token);
    assert.equal(code(withdrawn), 'NOT_FOUND');
    assert.match(withdrawn.errors[0].message, /withdrawn/);
    // Unknown or malformed tokens.
    assert.equal(code(await run(ACCEPT, { t: 'eti_' + 'a'.repeat(43) }, stranger.token)), 'NOT_FOUND');
    assert.equal(code(await run(ACCEPT, { t: 'nonsense' }, stranger.token)), 'NOT_FOUND');
    // None of those made the stranger a member.
    assert.equal(ok(await run(MEMBERS, { o: owner.orgId }, owner.token)).members.length, 2);
    // Already a member: refused, and the invitation is not spent.
    assert.equal(code(await run(INVITE, { o: owner.orgId, e: invitee.email }, owner.token)), 'CONFLICT');
  });

  test('who may invite: owners anyone, admins not owners, members no one', async () => {
    const owner = await signup();
    const admin = await signup();
    const member = await signup();
    ok(await run(ACCEPT, { t: (await invite(owner, admin.email, 'ADMIN')).token }, admin.token));
    ok(await run(ACCEPT, { t: (await invite(owner, member.email, 'MEMBER')).token }, member.token));
    assert.equal(code(await run(INVITE, { o: owner.orgId, e: 'x@example.com' }, member.token)), 'FORBIDDEN');
    assert.equal(code(await run(INVITE, { o: owner.orgId, e: 'x@example.com', r: 'OWNER' }, admin.token)), 'FORBIDDEN');
    ok(await run(INVITE, { o: owner.orgId, e: 'x@example.com', r: 'ADMIN' }, admin.token));
    ok(await run(INVITE, { o: owner.orgId, e: 'y@example.com', r: 'OWNER' }, owner.token));
    assert.equal(code(await run(INVITE, { o: owner.orgId, e: 'not an email' }, owner.token)), 'BAD_USER_INPUT');
    assert.equal(
      code(await run(`query($o: ID!) { invitations(organizationId: $o) { id } }`, { o: owner.orgId }, member.token)),
      'FORBIDDEN',
    );
    // Members see the member list.
    assert.equal(ok(await run(MEMBERS, { o: owner.orgId }, member.token)).members.length, 3);
  });

  test('with SMTP the invitation is emailed with its link, and the link is not in the answer', async () => {
    const owner = await signup();
    mails.length = 0;
    const r = ok(await run(INVITE, { o: owner.orgId, e: 'mailed@example.com' }, owner.token, withSmtp)).inviteMember;
    assert.equal(r.emailSent, true);
    assert.equal(r.link, null);
    assert.equal(mails.length, 1);
    assert.deepEqual(mails[0].to, ['mailed@example.com']);
    const raw = decodeQp(mails[0].raw);
    assert.match(raw, /From: Tracker <invites@tracker\.example\.com>/);
    assert.match(raw, new RegExp(`Subject: ${owner.email.replace('.', '\\.')} invited you to Org user\\d+ on Tracker`));
    const link = /https:\/\/tracker\.example\.com\/invitations\/(eti_[A-Za-z0-9_-]{43})/.exec(raw);
    assert.ok(link, 'the email carries the link');
    // The emailed link works.
    const invitee = ok(
      await run(`mutation($t: String!, $p: String!) { signupWithInvitation(token: $t, password: $p) { token } }`, {
        t: link[1],
        p: PASSWORD,
      }),
    );
    assert.ok(invitee.signupWithInvitation.token);
  });

  test('SMTP unreachable: the invitation still exists and the link comes back', async () => {
    const owner = await signup();
    const dead = loadConfig({
      TRACKER_PUBLIC_URL: 'https://tracker.example.com',
      TRACKER_SMTP_URL: 'smtp://127.0.0.1:1',
    });
    const r = ok(await run(INVITE, { o: owner.orgId, e: 'later@example.com' }, owner.token, dead)).inviteMember;
    assert.equal(r.emailSent, false);
    assert.match(r.link, /\/invitations\/eti_/);
  });

  test('roles: owners change any role, admins not owners; the last owner can be neither demoted nor removed', async () => {
    const owner = await signup();
    const admin = await signup();
    const member = await signup();
    ok(await run(ACCEPT, { t: (await invite(owner, admin.email, 'ADMIN')).token }, admin.token));
    ok(await run(ACCEPT, { t: (await invite(owner, member.email)).token }, member.token));
    const o = owner.orgId;

    // The last owner.
    const demote = await run(ROLE, { o, u: owner.userId, r: 'ADMIN' }, owner.token);
    assert.equal(code(demote), 'CONFLICT');
    assert.match(demote.errors[0].message, /at least one owner/);
    assert.equal(code(await run(REMOVE, { o, u: owner.userId }, owner.token)), 'CONFLICT');
    // Members manage no one; admins not owners.
    assert.equal(code(await run(ROLE, { o, u: admin.userId, r: 'MEMBER' }, member.token)), 'FORBIDDEN');
    assert.equal(code(await run(REMOVE, { o, u: admin.userId }, member.token)), 'FORBIDDEN');
    assert.equal(code(await run(ROLE, { o, u: owner.userId, r: 'MEMBER' }, admin.token)), 'FORBIDDEN');
    assert.equal(code(await run(ROLE, { o, u: member.userId, r: 'OWNER' }, admin.token)), 'FORBIDDEN');
    assert.equal(code(await run(REMOVE, { o, u: owner.userId }, admin.token)), 'FORBIDDEN');
    assert.deepEqual(ok(await run(ROLE, { o, u: member.userId, r: 'ADMIN' }, admin.token)).updateMemberRole, {
      userId: member.userId,
      role: 'ADMIN',
    });
    ok(await run(ROLE, { o, u: member.userId, r: 'MEMBER' }, admin.token));
    // Unknown member.
    const missing = await run(ROLE, { o, u: '00000000-0000-4000-8000-000000000000', r: 'ADMIN' }, owner.token);
    assert.equal(code(missing), 'NOT_FOUND');
    assert.equal(missing.errors[0].message, 'Member not found');

    // A second owner: now the first may step down, and the second cannot then.
    ok(await run(ROLE, { o, u: admin.userId, r: 'OWNER' }, owner.token));
    ok(await run(ROLE, { o, u: owner.userId, r: 'MEMBER' }, owner.token));
    assert.equal(code(await run(ROLE, { o, u: admin.userId, r: 'MEMBER' }, admin.token)), 'CONFLICT');

    // Two owners demoting each other at the same time: one wins, an owner remains.
    ok(await run(ROLE, { o, u: owner.userId, r: 'OWNER' }, admin.token));
    const both = await Promise.all([
      run(ROLE, { o, u: owner.userId, r: 'MEMBER' }, admin.token),
      run(ROLE, { o, u: admin.userId, r: 'MEMBER' }, owner.token),
    ]);
    // The loser is refused: CONFLICT (no other owner left) or FORBIDDEN (no longer an owner itself).
    assert.equal(both.filter((r) => r.errors === undefined).length, 1, JSON.stringify(both));
    assert.equal(both.filter((r) => ['CONFLICT', 'FORBIDDEN'].includes(code(r))).length, 1, JSON.stringify(both));
    const owners = await db.ds.query(
      `SELECT count(*)::int AS n FROM memberships WHERE organization_id = $1 AND role = 'owner'`,
      [o],
    );
    assert.equal(owners[0].n, 1);
  });

  test('removal and leaving: a removed member sees nothing of the organization any more', async () => {
    const owner = await signup();
    const member = await signup();
    const leaver = await signup();
    ok(await run(ACCEPT, { t: (await invite(owner, member.email)).token }, member.token));
    ok(await run(ACCEPT, { t: (await invite(owner, leaver.email)).token }, leaver.token));
    const p = ok(
      await run(
        `mutation($o: ID!) { createProject(organizationId: $o, name: "web") { id } }`,
        { o: owner.orgId },
        owner.token,
      ),
    ).createProject;
    assert.ok(ok(await run(`query($id: ID!) { project(id: $id) { id } }`, { id: p.id }, member.token)).project);
    assert.equal(ok(await run(REMOVE, { o: owner.orgId, u: member.userId }, owner.token)).removeMember, true);
    assert.equal(
      ok(await run(`query($id: ID!) { project(id: $id) { id } }`, { id: p.id }, member.token)).project,
      null,
    );
    assert.equal(
      ok(await run(`query($o: ID!) { organization(id: $o) { id } }`, { o: owner.orgId }, member.token)).organization,
      null,
    );
    assert.equal(code(await run(MEMBERS, { o: owner.orgId }, member.token)), 'NOT_FOUND');
    // Leaving is removing yourself; any role may.
    assert.equal(ok(await run(REMOVE, { o: owner.orgId, u: leaver.userId }, leaver.token)).removeMember, true);
    assert.deepEqual(
      ok(await run(MEMBERS, { o: owner.orgId }, owner.token)).members.map((m: any) => m.email),
      [owner.email],
    );
    // A user in no organization (say, their last one was deleted) can still sign in, with
    // organization: null, and accept an invitation.
    const solo = ok(await run(SIGNUP, { e: 'solo@example.com', p: PASSWORD, o: 'Solo' })).signup;
    await db.ds.query(`DELETE FROM memberships WHERE user_id = $1`, [solo.user.id]);
    const login = ok(
      await run(`mutation { login(email: "solo@example.com", password: "${PASSWORD}") { token organization { id } } }`),
    );
    assert.equal(login.login.organization, null);
    ok(await run(ACCEPT, { t: (await invite(owner, 'solo@example.com')).token }, login.login.token));
    const orgs = ok(await run(`{ viewer { organizations { id } } }`, {}, login.login.token)).viewer.organizations;
    assert.deepEqual(orgs, [{ id: owner.orgId }]);
  });
});
