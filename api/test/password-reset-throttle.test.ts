/**
 * Issue 32, part 3: password reset by email (a real SMTP server, smtp-server), the answer that
 * never tells whether an email has an account, email ownership (an unverified account taken over
 * by a reset), and the sign-in throttle per account (exponential wait with a time to retry) and
 * per client address (429 with Retry-After), with a held clock. PostgreSQL and PGlite; the
 * throttle's counters are in the database here (Redis: server/test/sign-in-throttle.test.ts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ApolloServer } from '@apollo/server';
import { accountRetryAt, authenticateBearer, loadConfig, openDatabase, type Config, type Database } from '@tracker/core';
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
const T0 = Date.UTC(2030, 5, 1, 8, 0, 0);
const SIGNUP = `mutation($e: String!, $p: String!) { signup(email: $e, password: $p, organizationName: "Acme") { token user { id emailVerified } } }`;
const SIGN_IN = `mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { session { token } } }`;
const REQUEST = `mutation($e: String!) { requestPasswordReset(email: $e) { emailConfigured } }`;
const CHECK = `query($t: String!) { passwordReset(token: $t) { email } }`;
const RESET = `mutation($t: String!, $p: String!) { resetPassword(token: $t, newPassword: $p) }`;

for (const kind of ['postgres', 'pglite'] as const) {
  describe(`password reset and sign-in throttling (${kind})`, () => {
    let pg: TestPostgres | undefined;
    let dir: TempDir | undefined;
    let db: Database;
    let smtp: SmtpReceiver;
    let apollo: ApolloServer<Context>;
    let withMail: Config;
    const withoutMail = loadConfig({ TRACKER_PUBLIC_URL: 'https://tracker.example.com' });
    let now = T0;
    let seq = 0;

    before(async () => {
      if (kind === 'postgres') pg = await createTestPostgres();
      else dir = createTempDir();
      db = await openDatabase({ databaseUrl: pg?.url, dataDir: dir?.path ?? '' }, { migrate: true });
      smtp = await startSmtpReceiver();
      withMail = loadConfig({
        TRACKER_PUBLIC_URL: 'https://tracker.example.com',
        TRACKER_SMTP_URL: smtp.url,
        TRACKER_SMTP_FROM: 'tracker@example.com',
      });
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
      options: { token?: string; address?: string; config?: Config } = {},
    ) {
      const auth = options.token ? await authenticateBearer(db.ds, options.token) : null;
      const response = await apollo.executeOperation(
        { query, variables },
        {
          contextValue: createContext(
            { ds: db.ds, config: options.config ?? withMail, clock: () => now },
            auth?.principal ?? null,
            { authProblem: auth && !auth.principal ? auth.problem : null, clientAddress: options.address ?? '10.1.0.1' },
          ),
        },
      );
      const result = JSON.parse(JSON.stringify((response.body as { singleResult: unknown }).singleResult));
      return { ...result, status: response.http.status, retryAfter: response.http.headers.get('retry-after') };
    }
    const ok = (r: any) => {
      assert.equal(r.errors, undefined, JSON.stringify(r.errors));
      return r.data;
    };
    const code = (r: any) => r.errors?.[0]?.extensions?.code;
    async function signup() {
      const email = `pr${++seq}-${kind}@example.com`;
      // Made without email (unverified, with a session at once): sign-up with email is email-ownership.test.ts's.
      const d = ok(await run(SIGNUP, { e: email, p: PASSWORD }, { config: withoutMail }));
      return { email, token: d.signup.token as string, userId: d.signup.user.id as string, verified: d.signup.user.emailVerified };
    }
    /** The reset links mailed to `to`, oldest first. */
    async function linksTo(to: string, count: number): Promise<string[]> {
      const deadline = Date.now() + 30_000;
      let links: string[] = [];
      while (Date.now() < deadline) {
        links = smtp.messages
          .filter((m) => m.to.includes(to))
          .map((m) => /reset-password\/(etr_[A-Za-z0-9_-]+)/.exec(m.raw.replace(/=\r?\n/g, ''))?.[1] ?? '');
        if (links.length >= count) return links;
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.fail(`expected ${count} reset emails to ${to}, got ${links.length}`);
    }

    test('a reset link by email: single use, newest only, 1 hour, ends every session', async () => {
      now = T0;
      const u = await signup();
      assert.equal(u.verified, false);
      const other = await signIn(u.email, PASSWORD);
      // The same answer for an address with and without an account; mail only to the account.
      const answers = [
        await run(REQUEST, { e: u.email }),
        await run(REQUEST, { e: `nobody-${kind}@example.com` }),
      ].map((r) => JSON.stringify(r.data));
      assert.equal(answers[0], answers[1]);
      assert.equal(JSON.parse(answers[0]).requestPasswordReset.emailConfigured, true);
      const [first] = await linksTo(u.email, 1);
      assert.equal(ok(await run(CHECK, { t: first })).passwordReset.email, u.email);
      // A newer request withdraws the first link.
      ok(await run(REQUEST, { e: u.email }));
      const [, second] = await linksTo(u.email, 2);
      assert.equal(ok(await run(CHECK, { t: first })).passwordReset, null);
      assert.equal(code(await run(RESET, { t: first, p: 'a new long password' })), 'NOT_FOUND');
      // Too short: bad input, the link stays usable.
      assert.equal(code(await run(RESET, { t: second, p: 'short' })), 'BAD_USER_INPUT');
      ok(await run(RESET, { t: second, p: 'a new long password' }));
      // Used: refused; every session ended; the new password works, the old does not.
      assert.equal(code(await run(RESET, { t: second, p: 'another long password' })), 'NOT_FOUND');
      for (const t of [u.token, other]) assert.equal((await authenticateBearer(db.ds, t)).principal, null);
      assert.equal(code(await run(SIGN_IN, { e: u.email, p: PASSWORD })), 'UNAUTHENTICATED');
      ok(await run(SIGN_IN, { e: u.email, p: 'a new long password' }));
      // The link came by email: the address is now verified.
      const v = await db.ds.query('SELECT email_verified_at FROM users WHERE id = $1', [u.userId]);
      assert.ok(v[0].email_verified_at);
      // Expiry: a link older than an hour is refused.
      ok(await run(REQUEST, { e: u.email }));
      const [, , third] = await linksTo(u.email, 3);
      now += 60 * 60_000 + 1000;
      assert.equal(ok(await run(CHECK, { t: third })).passwordReset, null);
      assert.equal(code(await run(RESET, { t: third, p: 'a third long password' })), 'NOT_FOUND');
    });

    async function signIn(email: string, password: string, address?: string) {
      return ok(await run(SIGN_IN, { e: email, p: password }, { address })).signIn.session.token as string;
    }

    test('taking over an unverified account: its API tokens and two-factor go with the old sessions', async () => {
      now = T0 + 24 * 3600_000;
      const squatter = await signup();
      const apiToken = ok(
        await run(`mutation { createApiToken(name: "x", scopes: [READ]) { token } }`, {}, { token: squatter.token }),
      ).createApiToken.token;
      ok(await run(REQUEST, { e: squatter.email }));
      const [link] = await linksTo(squatter.email, 1);
      ok(await run(RESET, { t: link, p: 'the real owner password' }));
      assert.equal((await authenticateBearer(db.ds, apiToken)).principal, null);
      assert.equal((await authenticateBearer(db.ds, squatter.token)).principal, null);
    });

    test('without SMTP: no email, no token; the answer says to ask the operator', async () => {
      now = T0 + 48 * 3600_000;
      const u = await signup();
      const before = smtp.messages.length;
      const r = ok(await run(REQUEST, { e: u.email }, { config: withoutMail }));
      assert.equal(r.requestPasswordReset.emailConfigured, false);
      const rows = await db.ds.query('SELECT count(*)::int AS n FROM password_reset_tokens WHERE user_id = $1', [u.userId]);
      assert.equal(rows[0].n, 0);
      await new Promise((res) => setTimeout(res, 300));
      assert.equal(smtp.messages.length, before);
      assert.equal(code(await run(REQUEST, { e: 'not an email' })), 'BAD_USER_INPUT');
    });

    test('per account: after 5 failures each attempt waits longer, and the message says when', async () => {
      now = T0 + 72 * 3600_000;
      const u = await signup();
      for (let i = 0; i < 5; i++) {
        // From different addresses: the account's count is the account's.
        assert.equal(code(await run(SIGN_IN, { e: u.email, p: `wrong ${i}` }, { address: `10.2.0.${i}` })), 'UNAUTHENTICATED');
      }
      let r = await run(SIGN_IN, { e: u.email, p: PASSWORD }, { address: '10.2.1.1' });
      assert.equal(code(r), 'RATE_LIMITED');
      assert.match(r.errors[0].message, /Too many failed attempts for this account: try again at 08:00:30 UTC \(in 30 s\)/);
      // The same for an email without an account (nothing revealed).
      const ghost = `ghost-${kind}@example.com`;
      for (let i = 0; i < 5; i++) await run(SIGN_IN, { e: ghost, p: 'x' }, { address: `10.3.0.${i}` });
      assert.match((await run(SIGN_IN, { e: ghost, p: 'x' }, { address: '10.3.1.1' })).errors[0].message, /try again at/);
      now += 30_000;
      assert.equal(code(await run(SIGN_IN, { e: u.email, p: 'wrong again' })), 'UNAUTHENTICATED');
      // The sixth failure doubles the wait: 60 s.
      now += 59_000;
      r = await run(SIGN_IN, { e: u.email, p: PASSWORD });
      assert.match(r.errors[0].message, /in 1 s\)/);
      now += 1_000;
      // A success ends the count.
      await signIn(u.email, PASSWORD);
      assert.equal(code(await run(SIGN_IN, { e: u.email, p: 'wrong after success' })), 'UNAUTHENTICATED');
      await signIn(u.email, PASSWORD);
      // The cap: 15 minutes however many failures.
      const waits = [5, 6, 7, 8, 9, 10, 11, 40].map(
        (failures) => accountRetryAt('sign-in', { failures, firstAt: 0, lastAt: 0 }) / 1000,
      );
      assert.deepEqual(waits, [30, 60, 120, 240, 480, 900, 900, 900]);
    });

    test('per client address: 50 failures in 15 minutes answer 429 with Retry-After; reset requests count', async () => {
      now = T0 + 96 * 3600_000;
      const address = '10.5.5.5';
      for (let i = 0; i < 45; i++) {
        const r = await run(SIGN_IN, { e: `spray${i}-${kind}@example.com`, p: 'guess' }, { address });
        assert.equal(code(r), 'UNAUTHENTICATED');
      }
      for (let i = 0; i < 4; i++) ok(await run(REQUEST, { e: `spray-reset${i}-${kind}@example.com` }, { address }));
      // A guessed invitation link counts too.
      const guess = await run(`mutation($t: String!) { signupWithInvitation(token: $t, password: "long enough password") { token } }`, {
        t: 'eti_guessed',
      }, { address });
      assert.equal(code(guess), 'NOT_FOUND');
      const u = await signup();
      for (const attempt of [
        () => run(SIGN_IN, { e: u.email, p: PASSWORD }, { address }),
        () => run(REQUEST, { e: u.email }, { address }),
        () => run(RESET, { t: 'etr_guess', p: 'a long enough password' }, { address }),
        // Invitation acceptance is under the same throttle.
        () =>
          run(`mutation($t: String!) { signupWithInvitation(token: $t, password: "long enough password") { token } }`, {
            t: 'eti_guess',
          }, { address }),
      ]) {
        const r = await attempt();
        assert.equal(r.status, 429);
        assert.equal(code(r), 'RATE_LIMITED');
        assert.ok(Number(r.retryAfter) > 0 && Number(r.retryAfter) <= 900, String(r.retryAfter));
      }
      // Another address is not affected.
      await signIn(u.email, PASSWORD, '10.5.5.6');
      now += 15 * 60_000 + 1000;
      await signIn(u.email, PASSWORD, address);
    });
  });
}
