/**
 * Issue 32 §3, email ownership (decision 066): sign-up never says whether an address has an
 * account (with email: the same answer, the same time, an email either way; without: a message
 * naming no account), a new account confirms its address by an emailed link (single use,
 * expiring, withdrawn by a newer one) before it has or joins an organization, and with email an
 * invitation proves the address only when its link went out by email. A real SMTP server
 * (smtp-server) that answers slowly, so a request that waited for its email would show it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ApolloServer } from '@apollo/server';
import { authenticateBearer, loadConfig, openDatabase, type Config, type Database } from '@tracker/core';
import {
  createTempDir,
  createTestPostgres,
  startSmtpReceiver,
  type SmtpReceiver,
  type TempDir,
  type TestPostgres,
} from '@tracker/core/testing';
import { createApollo } from '../src/api.plugin';
import { createContext, type Context } from '../src/context';

const PASSWORD = 'correct horse battery';
const SMTP_DELAY_MS = 400;
/** Median answer times of new and registered addresses may differ by at most this (the argon2 hash is ~20 ms). */
const TIMING_MARGIN_MS = 60;
const SIGNUP = `mutation($e: String!, $o: String!) { signup(email: $e, password: "${PASSWORD}", organizationName: $o) {
  token checkEmail user { id } organization { id } } }`;
const SIGN_IN = `mutation($e: String!) { login(email: $e, password: "${PASSWORD}") { token organization { id } user { id emailVerified } } }`;
const CONFIRM = `mutation($t: String!) { confirmEmailAddress(token: $t) { email organizationSlug } }`;
const RESEND = `mutation { resendEmailConfirmation }`;
const INVITE = `mutation($o: ID!, $e: String!) { inviteMember(organizationId: $o, email: $e) { emailSent link } }`;
const ACCEPT = `mutation($t: String!) { acceptInvitation(token: $t) { id } }`;
const SIGNUP_INVITED = `mutation($t: String!) { signupWithInvitation(token: $t, password: "${PASSWORD}") { token user { emailVerified } } }`;
const ORGS = `query { viewer { emailVerified organizations { slug } } }`;

for (const kind of ['postgres', 'pglite'] as const) {
  describe(`email ownership (${kind})`, () => {
    let pg: TestPostgres | undefined;
    let dir: TempDir | undefined;
    let db: Database;
    let smtp: SmtpReceiver;
    let apollo: ApolloServer<Context>;
    let withMail: Config;
    const withoutMail = loadConfig({ TRACKER_PUBLIC_URL: 'https://tracker.example.com' });
    let now = Date.UTC(2030, 5, 1, 8, 0, 0);
    let seq = 0;

    before(async () => {
      if (kind === 'postgres') pg = await createTestPostgres();
      else dir = createTempDir();
      db = await openDatabase({ databaseUrl: pg?.url, dataDir: dir?.path ?? '' }, { migrate: true });
      smtp = await startSmtpReceiver({ delayMs: SMTP_DELAY_MS });
      withMail = loadConfig({ TRACKER_PUBLIC_URL: 'https://tracker.example.com', TRACKER_SMTP_URL: smtp.url });
      apollo = await createApollo();
    });
    after(async () => {
      await apollo.stop();
      await smtp.close();
      await db.close();
      await pg?.drop();
      dir?.remove();
    });

    async function run(
      query: string,
      variables: Record<string, unknown> = {},
      o: { token?: string; config?: Config; address?: string } = {},
    ) {
      const auth = o.token ? await authenticateBearer(db.ds, o.token) : null;
      const response = await apollo.executeOperation(
        { query, variables },
        {
          contextValue: createContext(
            { ds: db.ds, config: o.config ?? withMail, clock: () => now },
            auth?.principal ?? null,
            {
              clientAddress: o.address ?? `10.2.${kind.length}.${seq % 200}`,
            },
          ),
        },
      );
      return JSON.parse(JSON.stringify((response.body as { singleResult: unknown }).singleResult));
    }
    const ok = (r: any) => {
      assert.equal(r.errors, undefined, JSON.stringify(r.errors));
      return r.data;
    };
    const err = (r: any) => ({ code: r.errors?.[0]?.extensions?.code, message: String(r.errors?.[0]?.message) });
    const fresh = () => `own${++seq}-${kind}@example.com`;
    /** The raw texts of the emails to `to`, once `count` have arrived. */
    async function mailsTo(to: string, count: number): Promise<string[]> {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const raw = smtp.messages.filter((m) => m.to.includes(to)).map((m) => m.raw.replace(/=\r?\n/g, ''));
        if (raw.length >= count) return raw;
        if (Date.now() > deadline) assert.fail(`expected ${count} emails to ${to}, got ${raw.length}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    const linkIn = (raw: string) => /verify-email\/(etv_[A-Za-z0-9_-]+)/.exec(raw)?.[1] ?? '';
    const invitationIn = (raw: string) => /invitations\/(eti_[A-Za-z0-9_-]+)/.exec(raw)?.[1] ?? '';
    /** An account made without email (no confirmation): an owner with an organization. */
    async function owner() {
      const email = fresh();
      const d = ok(await run(SIGNUP, { e: email, o: 'Owners' }, { config: withoutMail }));
      return { email, token: d.signup.token as string, org: d.signup.organization.id as string };
    }

    test('sign-up answers the same for a new and a registered address, in the same time, and emails each', async () => {
      const registered: string[] = [];
      const answers = new Set<string>();
      const times: Record<'new' | 'registered', number[]> = { new: [], registered: [] };
      const rounds = kind === 'postgres' ? 6 : 3;
      for (let i = 0; i < rounds; i++) {
        for (const which of ['new', 'registered'] as const) {
          // A registered address of its own each round: five sign-ups for one address and it must wait.
          const email = which === 'new' ? fresh() : (await owner()).email;
          if (which === 'registered') registered.push(email);
          const t0 = performance.now();
          const r = await run(SIGNUP, { e: email, o: 'Acme' }, { address: `10.3.${i}.${which.length}` });
          times[which].push(performance.now() - t0);
          answers.add(JSON.stringify(r));
        }
      }
      assert.deepEqual(
        [...answers],
        [JSON.stringify({ data: { signup: { token: null, checkEmail: true, user: null, organization: null } } })],
      );
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
      const gap = Math.abs(median(times.new) - median(times.registered));
      assert.ok(gap < TIMING_MARGIN_MS, `new ${median(times.new)} ms vs registered ${median(times.registered)} ms`);
      // The emails went out after the answers (each took SMTP_DELAY_MS to deliver).
      assert.ok(median(times.new) < SMTP_DELAY_MS, `answered in ${median(times.new)} ms: it waited for the email`);
      const [already] = await mailsTo(registered[0], 1);
      assert.match(already, /already has an account/);
      assert.match(already, /https:\/\/tracker\.example\.com\/forgot-password/);
      assert.doesNotMatch(already, /etv_|etr_/);
      // Nothing about the registered account changed.
      const rows = await db.ds.query('SELECT count(*)::int AS n FROM users WHERE email = $1', [registered[0]]);
      assert.equal(rows[0].n, 1);
    });

    test('a new account signs in without an organization and cannot join one before its address is confirmed', async () => {
      const email = fresh();
      ok(await run(SIGNUP, { e: email, o: 'Confirmed Co' }));
      const [mail] = await mailsTo(email, 1);
      const link = linkIn(mail);
      assert.match(link, /^etv_/);
      const stored = await db.ds.query('SELECT token_hash FROM email_confirmations WHERE token_hash = $1', [link]);
      assert.equal(stored.length, 0, 'the link is stored hashed');
      const session = ok(await run(SIGN_IN, { e: email })).login;
      assert.equal(session.organization, null);
      assert.equal(session.user.emailVerified, false);
      // An invitation handed to the inviter (no email) does not let the unverified account join.
      const inviter = await owner();
      const handed = ok(
        await run(INVITE, { o: inviter.org, e: email }, { token: inviter.token, config: withoutMail }),
      ).inviteMember;
      const refused = err(await run(ACCEPT, { t: handed.link.split('/invitations/')[1] }, { token: session.token }));
      assert.equal(refused.code, 'FORBIDDEN');
      assert.match(refused.message, /Confirm your email address first/);
      // A newer link withdraws the first; the first then answers NOT_FOUND.
      assert.equal(ok(await run(RESEND, {}, { token: session.token })).resendEmailConfirmation, true);
      const [, second] = await mailsTo(email, 2);
      assert.equal(err(await run(CONFIRM, { t: link }, { token: session.token })).code, 'NOT_FOUND');
      // Only the account's own session confirms it: signed out, or signed in as someone else
      // (the owner of an address another person registered, say), the link does nothing.
      assert.equal(err(await run(CONFIRM, { t: linkIn(second) })).code, 'UNAUTHENTICATED');
      const other = err(await run(CONFIRM, { t: linkIn(second) }, { token: inviter.token }));
      assert.equal(other.code, 'NOT_FOUND');
      assert.match(other.message, /belongs to another account/);
      assert.equal(ok(await run(ORGS, {}, { token: session.token })).viewer.emailVerified, false);
      const done = ok(await run(CONFIRM, { t: linkIn(second) }, { token: session.token })).confirmEmailAddress;
      assert.equal(done.email, email);
      assert.match(done.organizationSlug, /^confirmed-co/);
      // Single use.
      assert.equal(err(await run(CONFIRM, { t: linkIn(second) }, { token: session.token })).code, 'NOT_FOUND');
      const me = ok(await run(ORGS, {}, { token: session.token })).viewer;
      assert.equal(me.emailVerified, true);
      assert.deepEqual(
        me.organizations.map((o: any) => o.slug),
        [done.organizationSlug],
      );
      // Confirmed now: the handed invitation works.
      ok(await run(ACCEPT, { t: handed.link.split('/invitations/')[1] }, { token: session.token }));
      assert.equal(ok(await run(RESEND, {}, { token: session.token })).resendEmailConfirmation, false);
    });

    test('a confirmation link expires after 24 hours', async () => {
      const email = fresh();
      ok(await run(SIGNUP, { e: email, o: 'Late' }));
      const [mail] = await mailsTo(email, 1);
      const session = ok(await run(SIGN_IN, { e: email })).login;
      now += 24 * 3600_000 + 1000;
      const r = err(await run(CONFIRM, { t: linkIn(mail) }, { token: session.token }));
      assert.equal(r.code, 'FORBIDDEN');
      assert.match(r.message, /expired/);
      const rows = await db.ds.query('SELECT email_verified_at FROM users WHERE email = $1', [email]);
      assert.equal(rows[0].email_verified_at, null);
      assert.equal(err(await run(CONFIRM, { t: 'etv_made_up' }, { token: session.token })).code, 'NOT_FOUND');
    });

    test('with email, an invitation proves the address only when its link went out by email', async () => {
      const inviter = await owner();
      // Emailed: creating the account with it confirms the address.
      const emailed = fresh();
      assert.equal(
        ok(await run(INVITE, { o: inviter.org, e: emailed }, { token: inviter.token })).inviteMember.emailSent,
        true,
      );
      const [invitation] = await mailsTo(emailed, 1);
      const joined = ok(await run(SIGNUP_INVITED, { t: invitationIn(invitation) })).signupWithInvitation;
      assert.equal(joined.user.emailVerified, true);
      // Handed to the inviter (made while no email was sent): useless to create the account once mail works.
      const target = fresh();
      const handed = ok(
        await run(INVITE, { o: inviter.org, e: target }, { token: inviter.token, config: withoutMail }),
      ).inviteMember;
      const token = handed.link.split('/invitations/')[1];
      const refused = err(await run(SIGNUP_INVITED, { t: token }));
      assert.equal(refused.code, 'FORBIDDEN');
      assert.match(refused.message, /did not come by email/);
      assert.equal((await db.ds.query('SELECT 1 FROM users WHERE email = $1', [target])).length, 0);
      // Without email the same link still works, and the account is unverified (documented).
      const noMail = ok(await run(SIGNUP_INVITED, { t: token }, { config: withoutMail })).signupWithInvitation;
      assert.equal(noMail.user.emailVerified, false);
      // An unverified account accepting an emailed invitation confirms its address.
      const late = fresh();
      ok(await run(SIGNUP, { e: late, o: 'Late' }));
      await mailsTo(late, 1); // the account is made after the answer, with its email
      const session = ok(await run(SIGN_IN, { e: late })).login.token;
      ok(await run(INVITE, { o: inviter.org, e: late }, { token: inviter.token }));
      const mails = await mailsTo(late, 2);
      const emailedToken = mails.map(invitationIn).find(Boolean)!;
      ok(await run(ACCEPT, { t: emailedToken }, { token: session }));
      assert.equal(ok(await run(ORGS, {}, { token: session })).viewer.emailVerified, true);
    });

    test('without email a registered address gets a message naming no account; closed sign-up refuses everyone', async () => {
      const registered = await owner();
      const r = err(await run(SIGNUP, { e: registered.email, o: 'Again' }, { config: withoutMail }));
      assert.equal(r.code, 'BAD_USER_INPUT');
      assert.doesNotMatch(r.message, /already exists|has an account/);
      assert.match(r.message, /cannot be used to sign up/);
      const closed = { ...withoutMail, signupClosed: true };
      const c = err(await run(SIGNUP, { e: fresh(), o: 'Closed' }, { config: closed }));
      assert.equal(c.code, 'FORBIDDEN');
      assert.match(c.message, /Sign-up is closed/);
      assert.equal(
        err(await run(SIGNUP, { e: fresh(), o: 'Closed' }, { config: { ...withMail, signupClosed: true } })).code,
        'FORBIDDEN',
      );
    });

    test('"require two-factor" set to the value it has writes no audit row', async () => {
      const o = await owner();
      const SET = `mutation($o: ID!, $r: Boolean!) { setOrganizationRequireTwoFactor(organizationId: $o, required: $r) { requireTwoFactor } }`;
      const rows = async () =>
        (await db.ds.query(
          `SELECT changes FROM audit_log WHERE organization_id = $1 AND action = 'organization.require_two_factor_changed' ORDER BY id`,
          [o.org],
        )) as { changes: any }[];
      ok(await run(SET, { o: o.org, r: false }, { token: o.token }));
      assert.equal((await rows()).length, 0);
      // The owner has two-factor (written here: enrolment is two-factor.test.ts's), so they may require it.
      await db.ds.query(`UPDATE users SET totp_secret = 'JBSWY3DPEHPK3PXP' WHERE email = $1`, [o.email]);
      ok(await run(SET, { o: o.org, r: true }, { token: o.token }));
      ok(await run(SET, { o: o.org, r: true }, { token: o.token }));
      assert.equal((await rows()).length, 1);
      ok(await run(SET, { o: o.org, r: false }, { token: o.token }));
      ok(await run(SET, { o: o.org, r: false }, { token: o.token }));
      const written = await rows();
      assert.equal(written.length, 2);
      assert.deepEqual(
        written.map((w) => w.changes.after.requireTwoFactor),
        [true, false],
      );
    });
  });
}
