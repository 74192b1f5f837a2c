/**
 * Issue 32, part 2: TOTP two-factor with a held clock (decision 021): enrolment, the ±1 step
 * window, a code accepted once, recovery codes single use, the 5-wrong-codes lock, disabling,
 * bad input (5 or 7 digits), "require two-factor" of an organization, API tokens unaffected.
 * Both runtimes: PostgreSQL and the embedded one (PGlite).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ApolloServer } from '@apollo/server';
import { authenticateBearer, loadConfig, openDatabase, totpCodeAt, type Database } from '@tracker/core';
import { createTempDir, createTestPostgres, type TempDir, type TestPostgres } from '@tracker/core/testing';
import { createApollo } from '../src/api.plugin';
import { createContext, type Context } from '../src/context';

const PASSWORD = 'correct horse battery';
const T0 = Date.UTC(2030, 0, 1, 12, 0, 0);
const STEP = 30_000;

const SIGNUP = `mutation($e: String!, $p: String!) { signup(email: $e, password: $p, organizationName: "Acme") { token user { id } organization { id } } }`;
const SIGN_IN = `mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { session { token } twoFactorChallenge twoFactorEnrolmentRequired } }`;
const CODE_STEP = `mutation($c: String!, $code: String!) { signInWithTwoFactor(challenge: $c, code: $code) { token user { twoFactorEnabled } } }`;
const START = `mutation { startTwoFactorEnrolment { secret uri qrCodeDataUrl } }`;
const CONFIRM = `mutation($code: String!) { confirmTwoFactor(code: $code) }`;
const STATUS = `{ twoFactor { enabled recoveryCodesLeft } }`;

for (const kind of ['postgres', 'pglite'] as const) {
  describe(`two-factor authentication (${kind})`, () => {
    let pg: TestPostgres | undefined;
    let dir: TempDir | undefined;
    let db: Database;
    let apollo: ApolloServer<Context>;
    const config = loadConfig({ TRACKER_PUBLIC_URL: 'https://tracker.example.com' });
    let now = T0;
    let seq = 0;

    before(async () => {
      if (kind === 'postgres') pg = await createTestPostgres();
      else dir = createTempDir();
      db = await openDatabase({ databaseUrl: pg?.url, dataDir: dir?.path ?? '' }, { migrate: true });
      apollo = await createApollo();
    });
    after(async () => {
      await apollo.stop();
      await db.close();
      await pg?.drop();
      dir?.remove();
    });

    async function run(query: string, variables: Record<string, unknown> = {}, token?: string, address = '10.0.0.1') {
      const auth = token ? await authenticateBearer(db.ds, token) : null;
      const response = await apollo.executeOperation(
        { query, variables },
        {
          contextValue: createContext({ ds: db.ds, config, clock: () => now }, auth?.principal ?? null, {
            authProblem: auth && !auth.principal ? auth.problem : null,
            clientAddress: address,
          }),
        },
      );
      assert.equal(response.body.kind, 'single');
      const result = JSON.parse(JSON.stringify((response.body as { singleResult: unknown }).singleResult));
      return { ...result, status: response.http.status };
    }
    const ok = (r: any) => {
      assert.equal(r.errors, undefined, JSON.stringify(r.errors));
      return r.data;
    };
    const code = (r: any) => r.errors?.[0]?.extensions?.code;

    async function signup() {
      const email = `tf${++seq}-${kind}@example.com`;
      const d = ok(await run(SIGNUP, { e: email, p: PASSWORD }));
      return { email, token: d.signup.token as string, userId: d.signup.user.id as string, orgId: d.signup.organization.id as string };
    }

    /** Enrols at `now`; answers the secret and the recovery codes. */
    async function enrol(session: string) {
      const { secret, uri, qrCodeDataUrl } = ok(await run(START, {}, session)).startTwoFactorEnrolment;
      assert.match(uri, /^otpauth:\/\/totp\/Tracker:.*secret=/);
      assert.match(qrCodeDataUrl, /^data:image\/svg\+xml;base64,/);
      assert.match(Buffer.from(qrCodeDataUrl.split(',')[1], 'base64').toString(), /<svg/);
      const codes = ok(await run(CONFIRM, { code: totpCodeAt(secret, now) }, session)).confirmTwoFactor as string[];
      return { secret, codes };
    }

    async function challenge(email: string) {
      const d = ok(await run(SIGN_IN, { e: email, p: PASSWORD }));
      assert.equal(d.signIn.session, null);
      assert.match(d.signIn.twoFactorChallenge, /^etf_/);
      return d.signIn.twoFactorChallenge as string;
    }

    test('enrolment: bad codes change nothing; a right code turns it on with 10 recovery codes', async () => {
      now = T0;
      const u = await signup();
      const { secret } = ok(await run(START, {}, u.token)).startTwoFactorEnrolment;
      for (const bad of ['12345', '1234567', 'abc', '']) {
        const r = await run(CONFIRM, { code: bad }, u.token);
        assert.equal(code(r), 'BAD_USER_INPUT', bad);
        assert.match(r.errors[0].message, /6-digit code/);
      }
      const wrong = String((Number(totpCodeAt(secret, now)) + 1) % 1_000_000).padStart(6, '0');
      assert.equal(code(await run(CONFIRM, { code: wrong }, u.token)), 'BAD_USER_INPUT');
      assert.deepEqual(ok(await run(STATUS, {}, u.token)).twoFactor, { enabled: false, recoveryCodesLeft: 0 });
      const codes = ok(await run(CONFIRM, { code: totpCodeAt(secret, now) }, u.token)).confirmTwoFactor;
      assert.equal(codes.length, 10);
      assert.equal(new Set(codes).size, 10);
      for (const c of codes) assert.match(c, /^[a-z2-7]{5}-[a-z2-7]{5}$/);
      assert.deepEqual(ok(await run(STATUS, {}, u.token)).twoFactor, { enabled: true, recoveryCodesLeft: 10 });
      // Stored hashed: no code appears in the table.
      const rows = await db.ds.query('SELECT code_hash FROM recovery_codes WHERE user_id = $1', [u.userId]);
      assert.equal(rows.length, 10);
      for (const r of rows) {
        assert.match(r.code_hash, /^\$argon2id\$/);
        for (const c of codes) assert.ok(!r.code_hash.includes(c.replace('-', '')));
      }
    });

    test('sign-in: ±1 step accepted, ±2 refused, a code accepted once, login refuses the account', async () => {
      now = T0 + 10 * 60_000;
      const u = await signup();
      const { secret } = await enrol(u.token);
      // Password-only login cannot skip the code.
      const login = await run(`mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }`, {
        e: u.email,
        p: PASSWORD,
      });
      assert.equal(code(login), 'UNAUTHENTICATED');
      assert.match(login.errors[0].message, /two-factor/);
      // The code that confirmed the enrolment is spent.
      let c = await challenge(u.email);
      assert.equal(code(await run(CODE_STEP, { c, code: totpCodeAt(secret, now) })), 'UNAUTHENTICATED');
      now += 5 * STEP;
      // Two steps away either side: refused.
      assert.equal(code(await run(CODE_STEP, { c, code: totpCodeAt(secret, now - 2 * STEP) })), 'UNAUTHENTICATED');
      assert.equal(code(await run(CODE_STEP, { c, code: totpCodeAt(secret, now + 2 * STEP) })), 'UNAUTHENTICATED');
      // One step behind: accepted.
      const d = ok(await run(CODE_STEP, { c, code: totpCodeAt(secret, now - STEP) }));
      assert.match(d.signInWithTwoFactor.token, /^ets_/);
      assert.equal(d.signInWithTwoFactor.user.twoFactorEnabled, true);
      // The challenge is spent.
      assert.equal(code(await run(CODE_STEP, { c, code: totpCodeAt(secret, now) })), 'UNAUTHENTICATED');
      // The same code again, on a fresh challenge: refused (replay), and so is any older step.
      c = await challenge(u.email);
      assert.equal(code(await run(CODE_STEP, { c, code: totpCodeAt(secret, now - STEP) })), 'UNAUTHENTICATED');
      // One step ahead: accepted (and from then on the current step is "older").
      ok(await run(CODE_STEP, { c, code: totpCodeAt(secret, now + STEP) }));
      c = await challenge(u.email);
      assert.equal(code(await run(CODE_STEP, { c, code: totpCodeAt(secret, now) })), 'UNAUTHENTICATED');
      // 5 or 7 digits: bad input, not counted as a wrong code.
      for (const bad of ['12345', '1234567']) {
        const r = await run(CODE_STEP, { c, code: bad });
        assert.equal(code(r), 'BAD_USER_INPUT');
      }
      now += 2 * STEP;
      ok(await run(CODE_STEP, { c, code: totpCodeAt(secret, now) }));
    });

    test('recovery codes work once each', async () => {
      now = T0 + 60 * 60_000;
      const u = await signup();
      const { codes } = await enrol(u.token);
      let c = await challenge(u.email);
      ok(await run(CODE_STEP, { c, code: codes[3].toUpperCase() }));
      c = await challenge(u.email);
      assert.equal(code(await run(CODE_STEP, { c, code: codes[3] })), 'UNAUTHENTICATED');
      ok(await run(CODE_STEP, { c, code: codes[4].replace('-', ' ') }));
      assert.equal(ok(await run(STATUS, {}, u.token)).twoFactor.recoveryCodesLeft, 8);
    });

    test('5 wrong codes lock two-factor for 15 minutes, even for the right code', async () => {
      now = T0 + 2 * 60 * 60_000;
      const u = await signup();
      const { secret } = await enrol(u.token);
      now += 2 * STEP;
      const c = await challenge(u.email);
      const wrong = (t: number) => String((Number(totpCodeAt(secret, t)) + 500_000) % 1_000_000).padStart(6, '0');
      for (let i = 0; i < 5; i++) assert.equal(code(await run(CODE_STEP, { c, code: wrong(now) })), 'UNAUTHENTICATED');
      const locked = await run(CODE_STEP, { c, code: totpCodeAt(secret, now) });
      assert.equal(code(locked), 'RATE_LIMITED');
      assert.match(locked.errors[0].message, /locked for this account after 5 wrong codes: try again at \d\d:\d\d:\d\d UTC/);
      // From another address too: the lock is the account's.
      assert.equal(code(await run(CODE_STEP, { c, code: totpCodeAt(secret, now) }, undefined, '10.9.9.9')), 'RATE_LIMITED');
      now += 14 * 60_000;
      const c2 = await challenge(u.email);
      assert.equal(code(await run(CODE_STEP, { c: c2, code: totpCodeAt(secret, now) })), 'RATE_LIMITED');
      now += 61_000;
      ok(await run(CODE_STEP, { c: c2, code: totpCodeAt(secret, now) }));
    });

    test('disabling needs a current code or a recovery code', async () => {
      now = T0 + 3 * 60 * 60_000;
      const u = await signup();
      const { codes } = await enrol(u.token);
      const DISABLE = `mutation($code: String!) { disableTwoFactor(code: $code) }`;
      assert.equal(code(await run(DISABLE, { code: '000000' }, u.token)), 'BAD_USER_INPUT');
      assert.equal(code(await run(DISABLE, { code: '00000' }, u.token)), 'BAD_USER_INPUT');
      assert.equal(ok(await run(STATUS, {}, u.token)).twoFactor.enabled, true);
      ok(await run(DISABLE, { code: codes[0] }, u.token));
      assert.deepEqual(ok(await run(STATUS, {}, u.token)).twoFactor, { enabled: false, recoveryCodesLeft: 0 });
      // Password-only sign-in again.
      assert.ok(ok(await run(SIGN_IN, { e: u.email, p: PASSWORD })).signIn.session.token);
    });

    test('an organization that requires two-factor: members enrol first; API tokens unaffected', async () => {
      now = T0 + 4 * 60 * 60_000;
      const owner = await signup();
      const member = await signup();
      const REQUIRE = `mutation($o: ID!, $r: Boolean!) { setOrganizationRequireTwoFactor(organizationId: $o, required: $r) { requireTwoFactor } }`;
      // The owner must have it first.
      assert.equal(code(await run(REQUIRE, { o: owner.orgId, r: true }, owner.token)), 'CONFLICT');
      await enrol(owner.token);
      // A member with a token made before the rule.
      await db.ds.query(`INSERT INTO memberships (organization_id, user_id, role) VALUES ($1, $2, 'member')`, [
        owner.orgId,
        member.userId,
      ]);
      const apiToken = ok(
        await run(`mutation { createApiToken(name: "ci", scopes: [READ]) { token } }`, {}, member.token),
      ).createApiToken.token;
      assert.equal(code(await run(REQUIRE, { o: owner.orgId, r: true }, member.token)), 'FORBIDDEN');
      assert.equal(ok(await run(REQUIRE, { o: owner.orgId, r: true }, owner.token)).setOrganizationRequireTwoFactor.requireTwoFactor, true);
      const ORG = `query($id: ID!) { organization(id: $id) { id name } }`;
      const refused = await run(ORG, { id: owner.orgId }, member.token);
      assert.equal(code(refused), 'FORBIDDEN');
      assert.match(refused.errors[0].message, /requires two-factor.*\/account\/two-factor/);
      const viewer = ok(await run(`{ viewer { twoFactorEnrolmentRequired organizations { id } } }`, {}, member.token)).viewer;
      assert.equal(viewer.twoFactorEnrolmentRequired, true);
      // Their own organization only: not even the name of the one that requires two-factor.
      assert.deepEqual(viewer.organizations, [{ id: member.orgId }]);
      assert.equal(ok(await run(SIGN_IN, { e: member.email, p: PASSWORD })).signIn.twoFactorEnrolmentRequired, true);
      // The API token still reads.
      assert.equal(ok(await run(ORG, { id: owner.orgId }, apiToken)).organization.id, owner.orgId);
      // After enrolling, the session sees it.
      await enrol(member.token);
      assert.equal(ok(await run(ORG, { id: owner.orgId }, member.token)).organization.id, owner.orgId);
      const members = ok(
        await run(`query($o: ID!) { members(organizationId: $o) { email emailVerified twoFactorEnabled } }`, { o: owner.orgId }, owner.token),
      ).members;
      assert.deepEqual(
        members.map((m: any) => [m.emailVerified, m.twoFactorEnabled]),
        [
          [false, true],
          [false, true],
        ],
      );
    });
  });
}
