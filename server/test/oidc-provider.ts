import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real OpenID provider for the SSO tests: `oidc-provider` (node-oidc-provider, certified) on a
 * free loopback port, with its development login page (any password), the consent step skipped
 * for our clients, and accounts whose claims a test can change between sign-ins.
 */

/** An account; its login name (the key in `accounts`) is its `sub`, as oidc-provider makes it. */
export interface TestAccount {
  email: string;
  email_verified: boolean;
  /** Extra claims released with the email scope (e.g. a 1 MB one). */
  extra?: Record<string, unknown>;
}

export interface TestClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
  /** ID token lifetime in seconds (default an hour). */
  idTokenTtlS?: number;
}

export interface TestProvider {
  issuer: string;
  /** Accounts by the login name typed on the provider's page. */
  accounts: Map<string, TestAccount>;
  close(): Promise<void>;
}

export async function startTestProvider(
  clients: TestClient[],
  accounts: Record<string, TestAccount>,
): Promise<TestProvider> {
  // @ts-expect-error oidc-provider ships no types (DefinitelyTyped's lag behind 9.x); it is used untyped here.
  const { default: Provider } = (await import('oidc-provider')) as { default: any };
  let handler: http.RequestListener = (_req, res) => res.writeHead(503).end();
  const server = http.createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const byLogin = new Map(Object.entries(accounts));
  const ttls = new Map(clients.map((c) => [c.client_id, c.idTokenTtlS ?? 3600]));
  const provider = new Provider(issuer, {
    clients: clients.map((c) => ({
      client_id: c.client_id,
      client_secret: c.client_secret,
      redirect_uris: c.redirect_uris,
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    })),
    claims: { openid: ['sub'], email: ['email', 'email_verified', 'pad'] },
    // Claims of the granted scopes go into the ID token too (the default keeps them for userinfo).
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => true },
    ttl: {
      IdToken: (_ctx: unknown, _token: unknown, client: { clientId: string }) => ttls.get(client.clientId) ?? 3600,
    },
    cookies: { keys: ['oidc-test-cookie-key-0123456789abcdef'] },
    findAccount: (_ctx: unknown, id: string) => {
      const account = byLogin.get(id);
      if (!account) return undefined;
      return {
        accountId: id,
        claims: () => ({ sub: id, email: account.email, email_verified: account.email_verified, ...account.extra }),
      };
    },
    // First-party clients: no consent page, every sign-in is granted openid and email.
    async loadExistingGrant(ctx: any) {
      const grantId = ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client.clientId,
        accountId: ctx.oidc.session.accountId,
      });
      grant.addOIDCScope('openid email');
      await grant.save();
      return grant;
    },
  });
  // The development login page warns on every start; the tests know.
  provider.on('server_error', (_ctx: unknown, error: Error) => console.error('oidc-provider:', error));
  handler = provider.callback();
  return {
    issuer,
    accounts: byLogin,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A plain JSON server: serves a hand-made discovery document (missing fields, mixed-up issuers). */
export async function startDocumentServer(
  documentFor: (origin: string) => Record<string, unknown>,
): Promise<{ url: string; close(): Promise<void> }> {
  let origin = '';
  const server = http.createServer((req, res) => {
    if (req.url === '/.well-known/openid-configuration') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(documentFor(origin)));
    } else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: origin, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
