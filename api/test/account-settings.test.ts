/**
 * Issue 31 §2, the API behind the account, organization and privacy screens: sessions and
 * "sign out everywhere else", changing the email (confirmed by a link over real SMTP when it is
 * set, at once without it), renaming an organization, and the scrubbing preview.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ApolloServer } from '@apollo/server';
import { authenticateBearer, loadConfig, openDatabase, type Config, type Database } from '@tracker/core';
import {
  createTempDir,
  createTestPostgres,
  startSmtpReceiver,
  type TempDir,
  type ReceivedMail,
  type SmtpReceiver,
  type TestPostgres,
} from '@tracker/core/testing';
import { createApollo } from '../src/api.plugin';
import { createContext, type Context } from '../src/context';

const PASSWORD = 'correct horse battery';
const SIGNUP = `mutation($e: String!, $p: String!, $o: String!) {
  signup(email: $e, password: $p, organizationName: $o) { token user { id } organization { id } } }`;
const LOGIN = `mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }`;
const SESSIONS = `{ sessions { id createdAt expiresAt current } }`;
const VIEWER = `{ viewer { email pendingEmail } }`;
const CHANGE_EMAIL = `mutation($p: String!, $e: String!) { changeEmail(currentPassword: $p, newEmail: $e) { changed pendingEmail user { email } } }`;
const CONFIRM = `mutation($t: String!) { confirmEmailChange(token: $t) { email } }`;
const PREVIEW = `query($p: ID!, $s: String, $d: ProjectPrivacyInput) {
  previewScrubbing(projectId: $p, sample: $s, draft: $d) { sample event settings { scrubDefaults sensitiveFields scrubIpAddresses } } }`;

/** Enough quoted-printable decoding to find a link in nodemailer's output. */
const decodeQp = (raw: string) =>
  raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));

// Both runtimes: the same SQL (ON CONFLICT, FOR UPDATE, RETURNING) on PostgreSQL and on PGlite.
for (const runtime of ['postgres', 'pglite'] as const)
  describe(`account settings: sessions, email, organization name, scrubbing preview (${runtime})`, () => {
    let pg: TestPostgres | undefined;
    let dir: TempDir | undefined;
    let db: Database;
    let apollo: ApolloServer<Context>;
    let smtp: SmtpReceiver;
    const mails: ReceivedMail[] = [];
    let config: Config;
    let withSmtp: Config;
    let seq = 0;

    before(async () => {
      if (runtime === 'postgres') pg = await createTestPostgres();
      else dir = createTempDir();
      db = await openDatabase({ databaseUrl: pg?.url, dataDir: dir?.path ?? '' }, { migrate: true });
      apollo = await createApollo();
      smtp = await startSmtpReceiver({ into: mails });
      config = loadConfig({ TRACKER_PUBLIC_URL: 'https://tracker.example.com' });
      withSmtp = loadConfig({ TRACKER_PUBLIC_URL: 'https://tracker.example.com', TRACKER_SMTP_URL: smtp.url });
    });
    after(async () => {
      await apollo.stop();
      await smtp.close();
      await db.close();
      await pg?.drop();
      dir?.remove();
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

    async function signup() {
      const email = `acct${++seq}-${Date.now()}@example.com`;
      const d = ok(await run(SIGNUP, { e: email, p: PASSWORD, o: `Org ${seq}` }));
      return {
        email,
        token: d.signup.token as string,
        userId: d.signup.user.id as string,
        org: d.signup.organization.id,
      };
    }
    const login = async (email: string) => ok(await run(LOGIN, { e: email, p: PASSWORD })).login.token as string;
    const emailOf = async (userId: string) =>
      (await db.ds.query('SELECT email FROM users WHERE id = $1', [userId]))[0].email as string;

    test('lists live sessions and signs out every other one, keeping this one', async () => {
      const me = await signup();
      const laptop = await login(me.email);
      const phone = await login(me.email);
      const other = await signup();
      const sessions = ok(await run(SESSIONS, {}, laptop)).sessions;
      assert.equal(sessions.length, 3);
      assert.deepEqual(
        sessions.map((s: any) => s.current),
        [false, true, false],
        'newest first; the laptop is this request',
      );
      assert.ok(!JSON.stringify(sessions).includes('ets_'), 'no token in the list');

      // Someone else's session: like a missing one, and it keeps working.
      const theirs = ok(await run(SESSIONS, {}, other.token)).sessions[0].id;
      assert.equal(
        code(await run(`mutation($id: ID!) { revokeSession(id: $id) }`, { id: theirs }, laptop)),
        'NOT_FOUND',
      );
      assert.equal(
        code(await run(`mutation($id: ID!) { revokeSession(id: $id) }`, { id: 'nope' }, laptop)),
        'NOT_FOUND',
      );
      ok(await run(VIEWER, {}, other.token));

      // An API token of the same person cannot sign them out.
      const apiToken = ok(await run(`mutation { createApiToken(name: "x", scopes: [ADMIN]) { token } }`, {}, laptop))
        .createApiToken.token;
      assert.equal(code(await run(`mutation { revokeOtherSessions }`, {}, apiToken)), 'FORBIDDEN');

      assert.equal(ok(await run(`mutation { revokeOtherSessions }`, {}, laptop)).revokeOtherSessions, 2);
      for (const gone of [me.token, phone]) {
        assert.equal(code(await run(SESSIONS, {}, gone)), 'UNAUTHENTICATED');
        const refused = await authenticateBearer(db.ds, gone);
        assert.match(refused.principal ? '' : refused.problem, /signed out/);
      }
      const left = ok(await run(SESSIONS, {}, laptop)).sessions;
      assert.deepEqual(
        left.map((s: any) => s.current),
        [true],
      );
      // The other user's session was not touched.
      assert.equal(ok(await run(SESSIONS, {}, other.token)).sessions.length, 1);
      // One session by id.
      const again = await login(me.email);
      const againId = ok(await run(SESSIONS, {}, again)).sessions.find((s: any) => s.current).id;
      assert.equal(
        ok(await run(`mutation($id: ID!) { revokeSession(id: $id) }`, { id: againId }, laptop)).revokeSession,
        true,
      );
      assert.equal(code(await run(SESSIONS, {}, again)), 'UNAUTHENTICATED');
    });

    test('without SMTP the email changes at once, after the current password', async () => {
      const me = await signup();
      const taken = await signup();
      const fresh = `moved-${Date.now()}@example.com`;
      const wrong = await run(CHANGE_EMAIL, { p: 'not my password', e: fresh }, me.token);
      assert.equal(code(wrong), 'BAD_USER_INPUT');
      assert.match(wrong.errors[0].message, /currentPassword/);
      const bad = await run(CHANGE_EMAIL, { p: PASSWORD, e: 'not an address' }, me.token);
      assert.equal(code(bad), 'BAD_USER_INPUT');
      assert.match(bad.errors[0].message, /newEmail/);
      assert.equal(code(await run(CHANGE_EMAIL, { p: PASSWORD, e: taken.email.toUpperCase() }, me.token)), 'CONFLICT');
      assert.equal(await emailOf(me.userId), me.email, 'nothing changed by the refusals');

      const d = ok(await run(CHANGE_EMAIL, { p: PASSWORD, e: ` ${fresh.toUpperCase()} ` }, me.token)).changeEmail;
      assert.deepEqual(d, { changed: true, pendingEmail: null, user: { email: fresh } });
      assert.equal(await emailOf(me.userId), fresh);
      assert.ok(await login(fresh));
      assert.equal(code(await run(LOGIN, { e: me.email, p: PASSWORD })), 'UNAUTHENTICATED');
    });

    test('with SMTP the new address gets a link, and only opening it changes the email (once)', async () => {
      const me = await signup();
      const target = `confirmed-${Date.now()}@example.com`;
      const before = mails.length;
      const d = ok(await run(CHANGE_EMAIL, { p: PASSWORD, e: target }, me.token, withSmtp)).changeEmail;
      assert.deepEqual(d, { changed: false, pendingEmail: target, user: { email: me.email } });
      assert.equal(await emailOf(me.userId), me.email, 'not changed before the link is opened');
      assert.deepEqual(ok(await run(VIEWER, {}, me.token)).viewer, { email: me.email, pendingEmail: target });
      assert.equal(mails.length, before + 1);
      const mail = mails.at(-1)!;
      assert.deepEqual(mail.to, [target]);
      const link = decodeQp(mail.raw).match(/https:\/\/tracker\.example\.com\/confirm-email\/([^\s"<]+)/);
      assert.ok(link, mail.raw);
      const token = decodeURIComponent(link[1]);
      assert.match(token, /^etc_/);
      assert.ok(!JSON.stringify(d).includes(token), 'the link is never in the answer');

      assert.equal(code(await run(CONFIRM, { t: 'etc_unknown' })), 'NOT_FOUND');
      assert.equal(ok(await run(CONFIRM, { t: token })).confirmEmailChange.email, target);
      assert.equal(await emailOf(me.userId), target);
      assert.equal(code(await run(CONFIRM, { t: token })), 'NOT_FOUND', 'single use');
      assert.equal(ok(await run(VIEWER, {}, me.token)).viewer.pendingEmail, null);
    });

    test('with SMTP: a newer request replaces the link, an expired one is refused, a failed send leaves nothing pending', async () => {
      const me = await signup();
      await run(CHANGE_EMAIL, { p: PASSWORD, e: `first-${Date.now()}@example.com` }, me.token, withSmtp);
      const firstLink = decodeQp(mails.at(-1)!.raw).match(/confirm-email\/([^\s"<]+)/)![1];
      const second = `second-${Date.now()}@example.com`;
      ok(await run(CHANGE_EMAIL, { p: PASSWORD, e: second }, me.token, withSmtp));
      const secondLink = decodeQp(mails.at(-1)!.raw).match(/confirm-email\/([^\s"<]+)/)![1];
      assert.equal(code(await run(CONFIRM, { t: decodeURIComponent(firstLink) })), 'NOT_FOUND', 'replaced');
      await db.ds.query(`UPDATE email_changes SET expires_at = now() - interval '1 minute' WHERE user_id = $1`, [
        me.userId,
      ]);
      assert.equal(code(await run(CONFIRM, { t: decodeURIComponent(secondLink) })), 'FORBIDDEN');
      assert.equal(await emailOf(me.userId), me.email);

      // A relay that is not there: the request fails with a clear message and nothing waits.
      const dead = await startSmtpReceiver();
      const deadUrl = dead.url;
      await dead.close();
      const noRelay = loadConfig({ TRACKER_PUBLIC_URL: 'https://tracker.example.com', TRACKER_SMTP_URL: deadUrl });
      const r = await run(CHANGE_EMAIL, { p: PASSWORD, e: `third-${Date.now()}@example.com` }, me.token, noRelay);
      assert.equal(code(r), 'UNAVAILABLE');
      assert.match(r.errors[0].message, /could not be sent/);
      const pending = await db.ds.query('SELECT count(*)::int AS n FROM email_changes WHERE user_id = $1', [me.userId]);
      assert.equal(pending[0].n, 0);
    });

    test('owners and admins rename their organization; members and strangers cannot', async () => {
      const owner = await signup();
      const stranger = await signup();
      const member = await signup();
      await db.ds.query(`INSERT INTO memberships (organization_id, user_id, role) VALUES ($1, $2, 'member')`, [
        owner.org,
        member.userId,
      ]);
      const RENAME = `mutation($id: ID!, $n: String!) { renameOrganization(id: $id, name: $n) { id name slug } }`;
      const slug = (await db.ds.query('SELECT slug FROM organizations WHERE id = $1', [owner.org]))[0].slug;
      assert.equal(code(await run(RENAME, { id: owner.org, n: 'Mine now' }, stranger.token)), 'NOT_FOUND');
      assert.equal(code(await run(RENAME, { id: owner.org, n: 'Mine now' }, member.token)), 'FORBIDDEN');
      assert.equal(code(await run(RENAME, { id: owner.org, n: '   ' }, owner.token)), 'BAD_USER_INPUT');
      assert.equal(code(await run(RENAME, { id: owner.org, n: 'x'.repeat(101) }, owner.token)), 'BAD_USER_INPUT');
      const d = ok(await run(RENAME, { id: owner.org, n: '  Acme Labs ' }, owner.token)).renameOrganization;
      assert.deepEqual(d, { id: owner.org, name: 'Acme Labs', slug });
    });

    test('the scrubbing preview uses the saved settings, a draft on top, and refuses bad samples', async () => {
      const owner = await signup();
      const project = ok(
        await run(
          `mutation($o: ID!) { createProject(organizationId: $o, name: "p") { id } }`,
          { o: owner.org },
          owner.token,
        ),
      ).createProject.id;
      const saved = ok(await run(PREVIEW, { p: project }, owner.token)).previewScrubbing;
      const event = JSON.parse(saved.event);
      assert.equal(event.message, 'Payment failed for card [Filtered] from 203.0.113.7', 'cards by default, not IPs');
      assert.equal(event.context.request.headers.Authorization, '[Filtered]');
      assert.equal(event.context.request.data.password, '[Filtered]');
      assert.equal(event.tags.customer_ssn, '078-05-1120');
      assert.equal(event.user.email, 'ada@example.com', 'kept on purpose');
      assert.equal(event.eventId, undefined);
      assert.deepEqual(JSON.parse(saved.sample).user.ip_address, '203.0.113.7', 'the built-in sample is returned');

      const draft = ok(
        await run(
          PREVIEW,
          { p: project, d: { sensitiveFields: ['SSN', 'birth'], scrubIpAddresses: true, scrubDefaults: false } },
          owner.token,
        ),
      ).previewScrubbing;
      const drafted = JSON.parse(draft.event);
      assert.equal(drafted.tags.customer_ssn, '[Filtered]');
      assert.equal(drafted.context.order.birth_date, '[Filtered]');
      assert.equal(drafted.user.ip_address, '[Filtered]');
      assert.equal(drafted.message, 'Payment failed for card 4111 1111 1111 1111 from [Filtered]');
      assert.equal(drafted.context.request.headers.Authorization, 'Bearer abc123', 'built-in keys off in the draft');
      // Nothing was saved by the preview.
      const privacy = ok(
        await run(
          `query($id: ID!) { project(id: $id) { privacy { scrubDefaults sensitiveFields scrubIpAddresses } } }`,
          { id: project },
          owner.token,
        ),
      ).project.privacy;
      assert.deepEqual(privacy, { scrubDefaults: true, sensitiveFields: [], scrubIpAddresses: false });

      const own = ok(
        await run(
          PREVIEW,
          {
            p: project,
            s: JSON.stringify({ type: 'E', message: 'm', environment: 'prod', context: { pin: '1234' } }),
            d: { sensitiveFields: ['pin'] },
          },
          owner.token,
        ),
      ).previewScrubbing;
      assert.deepEqual(JSON.parse(own.event).context, { pin: '[Filtered]' });

      for (const [sample, draftInput, words] of [
        ['{not json', null, /sample: not valid JSON/],
        [JSON.stringify({ type: 'E', environment: 'prod' }), null, /sample: .*message/],
        ['[1, 2]', null, /sample: body: must be a JSON object/],
        ['"x"'.padEnd(40_000, ' '), null, /sample: at most 32,768 characters/],
        [null, { sensitiveFields: ['x'.repeat(10_000)] }, /sensitiveFields: each must be 1 to 100 characters/],
        [null, { sensitiveFields: Array.from({ length: 51 }, (_v, i) => `f${i}`) }, /sensitiveFields: at most 50/],
      ] as const) {
        const r = await run(PREVIEW, { p: project, s: sample, d: draftInput }, owner.token);
        assert.equal(code(r), 'BAD_USER_INPUT', JSON.stringify(r));
        assert.match(r.errors[0].message, words);
      }
      const stranger = await signup();
      assert.equal(code(await run(PREVIEW, { p: project }, stranger.token)), 'NOT_FOUND');
    });
  });
