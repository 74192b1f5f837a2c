/**
 * Issue 32, part 1: single sign-on with OpenID Connect, through a real provider (oidc-provider on
 * a loopback port, two clients, accounts with verified and unverified emails, and a second
 * issuer) and a real Chromium that follows every redirect, on both runtimes. The settings page is
 * screenshotted at 1280 and 390 px and checked with axe.
 */
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@tracker/core/testing';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { Tracker } from '../src';
import { watchedPages } from './dashboard-browser';
import { createTestEnv, gql, gqlOk, MODES, signUpWithProject, startTracker, type TestEnv } from './helpers';
import { startDocumentServer, startTestProvider, type TestProvider } from './oidc-provider';
import { axeViolations } from './page-checks';

const SECRET = 'acme-client-secret-0123456789abcdef';
const PASSWORD = 'correct horse battery';
const HOUR_MS = 3600_000;

const SAVE = `mutation($org: ID!, $input: SsoSettingsInput!) {
  saveSsoSettings(organizationId: $org, input: $input) { issuer clientId clientSecretHint emailDomains defaultRole requireSso callbackUrl }
}`;
const SETTINGS = `query($org: ID!) { ssoSettings(organizationId: $org) { issuer clientSecretHint emailDomains requireSso } }`;

for (const mode of MODES) {
  describe(`single sign-on with OpenID Connect (${mode})`, () => {
    let env: TestEnv | undefined;
    let tracker: Tracker | undefined;
    let browser: Browser | undefined;
    let idp: TestProvider | undefined;
    let second: TestProvider | undefined;
    const documents: { close(): Promise<void> }[] = [];
    /** Added to the wall clock for Tracker: a test moves Tracker two hours ahead of the provider. */
    let clockOffsetMs = 0;
    let origin: string;
    let owner: Awaited<ReturnType<typeof signUpWithProject>>;

    before(async () => {
      env = await createTestEnv(mode, { allowPrivateTargets: true });
      tracker = await startTracker(env, { roles: ['api', 'web'] }, { clock: () => Date.now() + clockOffsetMs });
      // The browser uses the public URL's host, so the redirect URI and the cookies agree.
      origin = tracker.url.replace('127.0.0.1', 'localhost');
      const callback = `${origin}/sso/callback`;
      idp = await startTestProvider(
        [
          { client_id: 'tracker-acme', client_secret: SECRET, redirect_uris: [callback] },
          { client_id: 'tracker-late', client_secret: SECRET, redirect_uris: [callback], idTokenTtlS: 60 },
        ],
        {
          ana: { email: 'ana@acme.test', email_verified: true },
          una: { email: 'una@acme.test', email_verified: false },
          eve: { email: 'eve@elsewhere.test', email_verified: true },
          big: { email: 'big@acme.test', email_verified: true, extra: { pad: 'x'.repeat(1024 * 1024) } },
          lou: { email: 'lou@late.test', email_verified: true },
        },
      );
      second = await startTestProvider(
        [{ client_id: 'tracker-acme', client_secret: SECRET, redirect_uris: [callback] }],
        {
          mia: { email: 'mia@mix.test', email_verified: true },
        },
      );
      browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
      owner = await signUpWithProject(tracker.url, 'Acme web');
    });
    after(async () => {
      await browser?.close().catch(() => {});
      await tracker?.close().catch(() => {});
      await idp?.close().catch(() => {});
      await second?.close().catch(() => {});
      for (const d of documents) await d.close().catch(() => {});
      await env?.cleanup().catch(() => {});
    });

    const { newPage, assertInert, screenshot } = watchedPages(
      () => browser!,
      () => origin,
    );
    const q = <T = any>(sql: string, params: unknown[] = []) => tracker!.db.ds.query(sql, params) as Promise<T[]>;

    /** "Sign in with SSO" from the login page, the provider's login as `login`; answers the page where it ends. */
    async function ssoSignIn(email: string, login: string, page?: Page): Promise<Page> {
      const p = page ?? (await newPage()).page;
      await p.goto('/login');
      await p.getByRole('link', { name: 'Sign in with SSO' }).click();
      await p.getByLabel('Work email').fill(email);
      await p.getByRole('button', { name: 'Continue' }).click();
      await p.waitForURL((u) => u.origin !== origin, { timeout: 30_000 });
      await p.locator('input[name="login"]').fill(login);
      await p.locator('input[name="password"]').fill('any');
      await p.locator('button[type="submit"]').click();
      // The callback either signs in (redirects on into the dashboard) or stays with its message.
      await p.waitForURL((u) => u.origin === origin, { timeout: 30_000 });
      await p.waitForLoadState('load');
      return p;
    }
    const failure = (p: Page) => p.getByRole('alert').innerText();

    test('an owner sets SSO up on the page; the secret is never shown again', async () => {
      const { page } = await newPage();
      await page.goto('/login');
      await page.getByLabel('Email').fill(owner.email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL((u) => !u.pathname.startsWith('/login'));
      await page.goto(`/orgs/${owner.organization.slug}/sso`);
      await page.getByRole('heading', { name: /Single sign-on/ }).waitFor();
      assert.equal(await page.locator('#sso-callback').innerText(), `${origin}/sso/callback`);
      await page.getByLabel('Issuer URL').fill(idp!.issuer);
      await page.getByLabel('Client ID').fill('tracker-acme');
      await page.getByLabel('Client secret').fill(SECRET);
      await page.getByLabel('Allowed email domains').fill('acme.test');
      await page.getByLabel('Role of new members').selectOption('ADMIN');
      await page.getByRole('button', { name: 'Turn on single sign-on' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      await page.reload();
      const html = await page.content();
      assert.ok(!html.includes(SECRET), 'the secret is not in the page after saving');
      assert.match(html, /Saved \(…[a-z0-9]{4}\)/);
      await screenshot(page, 'sso-settings');
      assert.deepEqual(await axeViolations(page), [], 'axe on the SSO settings page');
      const s = await gqlOk(tracker!.url, SETTINGS, { org: owner.organization.id }, owner.token);
      assert.equal(s.ssoSettings.issuer, idp!.issuer);
      assert.equal(s.ssoSettings.clientSecretHint, `…${SECRET.slice(-4)}`);
      assert.deepEqual(s.ssoSettings.emailDomains, ['acme.test']);
      assert.equal(JSON.stringify(s).includes(SECRET), false);
      assertInert('settings');
    });

    test('the first sign-in creates the member with the configured role; the second links by sub', async () => {
      const page = await ssoSignIn('ana@acme.test', 'ana');
      assert.ok(!page.url().includes('/sso/callback'), `signed in, at ${page.url()}`);
      const [user] = await q<{ id: string }>(`SELECT id FROM users WHERE email = 'ana@acme.test'`);
      assert.ok(user, 'the account was created');
      const [member] = await q<{ role: string }>(
        'SELECT role FROM memberships WHERE user_id = $1 AND organization_id = $2',
        [user.id, owner.organization.id],
      );
      assert.equal(member?.role, 'admin', 'the configured role');
      // The provider now says another address: the link is the sub, not the email.
      idp!.accounts.get('ana')!.email = 'ana.renamed@acme.test';
      const again = await ssoSignIn('ana.renamed@acme.test', 'ana');
      assert.ok(!again.url().includes('/sso/callback'), `signed in again, at ${again.url()}`);
      assert.equal(
        (await q(`SELECT 1 FROM users WHERE email = 'ana.renamed@acme.test'`)).length,
        0,
        'no second account',
      );
      const links = await q<{ user_id: string }>(`SELECT user_id FROM sso_identities WHERE subject = 'ana'`);
      assert.deepEqual(
        links.map((l) => l.user_id),
        [user.id],
      );
      idp!.accounts.get('ana')!.email = 'ana@acme.test';
      assertInert('sign-in');
    });

    test('an unverified email and a foreign domain are refused with a clear message', async () => {
      const unverified = await ssoSignIn('una@acme.test', 'una');
      assert.match(await failure(unverified), /has not verified una@acme\.test/);
      const foreign = await ssoSignIn('eve@acme.test', 'eve');
      assert.match(await failure(foreign), /eve@elsewhere\.test is not in a domain this organization signs in with/);
      assert.equal((await q(`SELECT 1 FROM users WHERE email IN ('una@acme.test', 'eve@elsewhere.test')`)).length, 0);
      const nowhere = (await newPage()).page;
      await nowhere.goto('/login/sso');
      await nowhere.getByLabel('Work email').fill('someone@unknown.test');
      await nowhere.getByRole('button', { name: 'Continue' }).click();
      assert.match(await failure(nowhere), /No organization signs in with single sign-on for unknown\.test/);
      await screenshot(nowhere, 'sso-sign-in');
      assert.deepEqual(await axeViolations(nowhere), [], 'axe on the SSO sign-in page');
      await screenshot(foreign, 'sso-refused');
      assert.deepEqual(await axeViolations(foreign), [], 'axe on the SSO failure page');
      assertInert('refusals');
    });

    test('a forged state and a replayed answer are refused', async () => {
      const { page } = await newPage();
      await page.goto('/sso/callback?code=abc&state=forged');
      assert.match(await failure(page), /not started in this browser/);
      // A real answer, captured on its way to the callback, then sent again (browser and API).
      const { page: p } = await newPage();
      let answer = '';
      p.on('request', (r) => {
        if (r.url().startsWith(`${origin}/sso/callback`)) answer = new URL(r.url()).search;
      });
      await ssoSignIn('ana@acme.test', 'ana', p);
      assert.match(answer, /state=/);
      await p.goto(`/sso/callback${answer}`);
      assert.match(await failure(p), /not started in this browser|already used/);
      const replay = await gql(tracker!.url, `mutation($p: String!) { completeSsoLogin(parameters: $p) { token } }`, {
        p: answer,
      });
      assert.equal(replay.errors?.[0]?.extensions?.code, 'UNAUTHENTICATED');
      assert.match(replay.errors![0]!.message, /already used/);
      const forged = await gql(tracker!.url, `mutation($p: String!) { completeSsoLogin(parameters: $p) { token } }`, {
        p: '?code=abc&state=made-up',
      });
      assert.match(forged.errors![0]!.message, /Unknown sign-in state/);
    });

    test('an answer from a second issuer is refused', async () => {
      // The document names this server as the issuer and the second provider's endpoints (a mix-up).
      const mixed = await startDocumentServer((self) => ({
        issuer: self,
        authorization_endpoint: `${second!.issuer}/auth`,
        token_endpoint: `${second!.issuer}/token`,
        jwks_uri: `${second!.issuer}/jwks`,
        response_types_supported: ['code'],
        code_challenge_methods_supported: ['S256'],
        authorization_response_iss_parameter_supported: true,
      }));
      documents.push(mixed);
      const other = await signUpWithProject(tracker!.url, 'Mix');
      await gqlOk(
        tracker!.url,
        SAVE,
        {
          org: other.organization.id,
          input: { issuerUrl: mixed.url, clientId: 'tracker-acme', clientSecret: SECRET, emailDomains: ['mix.test'] },
        },
        other.token,
      );
      const page = await ssoSignIn('mia@mix.test', 'mia');
      assert.match(await failure(page), /refused: .*(iss|issuer)/i);
      assert.equal((await q(`SELECT 1 FROM users WHERE email = 'mia@mix.test'`)).length, 0);
    });

    test('a 1 MB ID token and an expired one are refused', async () => {
      const big = await ssoSignIn('big@acme.test', 'big');
      assert.match(await failure(big), /larger than 64 KB/);
      const late = await signUpWithProject(tracker!.url, 'Late');
      await gqlOk(
        tracker!.url,
        SAVE,
        {
          org: late.organization.id,
          input: {
            issuerUrl: idp!.issuer,
            clientId: 'tracker-late',
            clientSecret: SECRET,
            emailDomains: ['late.test'],
          },
        },
        late.token,
      );
      // Tracker's clock two hours ahead: the provider's 60-second ID token is long expired.
      clockOffsetMs = 2 * HOUR_MS;
      try {
        const expired = await ssoSignIn('lou@late.test', 'lou');
        assert.match(await failure(expired), /refused: .*(exp|expired)/i);
      } finally {
        clockOffsetMs = 0;
      }
      assert.equal((await q(`SELECT 1 FROM users WHERE email IN ('big@acme.test', 'lou@late.test')`)).length, 0);
    });

    test('bad settings change nothing: a discovery document missing fields, a non-domain, a plain member', async () => {
      const partial = await startDocumentServer((self) => ({ issuer: self, authorization_endpoint: `${self}/auth` }));
      documents.push(partial);
      const before = await gqlOk(tracker!.url, SETTINGS, { org: owner.organization.id }, owner.token);
      const input = { issuerUrl: partial.url, clientId: 'x', clientSecret: 'y', emailDomains: ['acme.test'] };
      const missing = await gql(tracker!.url, SAVE, { org: owner.organization.id, input }, owner.token);
      assert.equal(missing.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
      assert.match(missing.errors![0]!.message, /discovery document has no token_endpoint, jwks_uri/);
      const notDomain = await gql(
        tracker!.url,
        SAVE,
        { org: owner.organization.id, input: { ...input, issuerUrl: idp!.issuer, emailDomains: ['not a domain'] } },
        owner.token,
      );
      assert.match(notDomain.errors![0]!.message, /emailDomains: "not a domain" is not a domain/);
      assert.deepEqual(await gqlOk(tracker!.url, SETTINGS, { org: owner.organization.id }, owner.token), before);
    });

    test('"require SSO" refuses a member\'s password but lets an owner in (break-glass)', async () => {
      const member = await signUpWithProject(tracker!.url, 'Member home');
      await q(
        `INSERT INTO memberships (organization_id, user_id, role) VALUES ($1, (SELECT id FROM users WHERE email = $2), 'member')`,
        [owner.organization.id, member.email],
      );
      const login = `mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }`;
      assert.ok((await gqlOk(tracker!.url, login, { e: member.email, p: PASSWORD })).login.token, 'allowed before');
      await gqlOk(
        tracker!.url,
        SAVE,
        {
          org: owner.organization.id,
          input: {
            issuerUrl: idp!.issuer,
            clientId: 'tracker-acme',
            emailDomains: ['acme.test'],
            defaultRole: 'ADMIN',
            requireSso: true,
          },
        },
        owner.token,
      );
      const refused = await gql(tracker!.url, login, { e: member.email, p: PASSWORD });
      assert.equal(refused.errors?.[0]?.extensions?.code, 'UNAUTHENTICATED');
      assert.match(refused.errors![0]!.message, /requires single sign-on/);
      const wrong = await gql(tracker!.url, login, { e: member.email, p: 'wrong password!' });
      assert.match(
        wrong.errors![0]!.message,
        /Wrong email or password/,
        'the SSO rule is told only to the password holder',
      );
      assert.ok((await gqlOk(tracker!.url, login, { e: owner.email, p: PASSWORD })).login.token, 'owner break-glass');
      // The secret was kept (left out of the input) and SSO still works.
      const page = await ssoSignIn('ana@acme.test', 'ana');
      assert.ok(!page.url().includes('/sso/callback'), `signed in with SSO, at ${page.url()}`);
    });

    test('only owners see or change the settings', async () => {
      const [ana] = await q<{ id: string }>(`SELECT id FROM users WHERE email = 'ana@acme.test'`);
      const admin = await gql(tracker!.url, SETTINGS, { org: owner.organization.id }, await tokenOf(ana!.id));
      assert.equal(admin.errors?.[0]?.extensions?.code, 'FORBIDDEN');
      const stranger = await signUpWithProject(tracker!.url, 'Stranger');
      const s = await gql(tracker!.url, SETTINGS, { org: owner.organization.id }, stranger.token);
      assert.equal(s.errors?.[0]?.extensions?.code, 'NOT_FOUND');
    });

    /** A fresh session for a user made by SSO (no password to sign in with). */
    async function tokenOf(userId: string): Promise<string> {
      const { createSession } = await import('@tracker/core');
      return (await createSession(tracker!.db.ds.manager, userId)).token;
    }
  });
}
