import { ConfigError, loadConfig } from '@tracker/core';
import assert from 'node:assert/strict';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Tracker } from '../src';
import { createTestEnv, MODES, signUpWithProject, startTracker, type TestEnv } from './helpers';

// Issue 28, part 7: behind a TLS-terminating proxy (infra/Caddyfile, the k8s Ingress) the session
// cookie must be `Secure`, and the client address must be the browser's, not the proxy's; but
// X-Forwarded-* are believed only from TRACKER_TRUSTED_PROXIES, or any client could claim https or
// a fresh address (a new GraphQL rate-limit budget) per request. The proxies here are real HTTP
// proxies on loopback that connect to Tracker from their own address (127.0.0.2 trusted,
// 127.0.0.3 not), as Caddy does: they set X-Forwarded-Proto: https and append the address of
// their client to X-Forwarded-For. Clients connect from addresses of their own too.

const PASSWORD = 'correct horse battery';
const TRUSTED_PROXY_ADDRESS = '127.0.0.2';
const UNTRUSTED_PROXY_ADDRESS = '127.0.0.3';
// GraphQL requests per minute per address: above the few sign-ins the dashboard makes from
// 127.0.0.1 (its server calls the api directly), so only the clients below reach it.
const RATE_LIMIT = 10;

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One HTTP request from a chosen loopback address (fetch cannot choose its source address). */
function send(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string; from?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: init.method ?? 'GET', headers: init.headers, localAddress: init.from, timeout: 15_000 },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url}`)));
    req.on('error', reject);
    req.end(init.body);
  });
}

/** A reverse proxy that terminated TLS in front of `target`, connecting to it from `localAddress`. */
async function startProxy(target: () => string, localAddress: string): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const upstream = new URL(target());
    const forwardedFor = [req.headers['x-forwarded-for'], req.socket.remoteAddress].filter(Boolean).join(', ');
    const out = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        localAddress,
        headers: { ...req.headers, 'x-forwarded-proto': 'https', 'x-forwarded-for': forwardedFor },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => res.writeHead(502).end());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

function sessionCookie(answer: Answer): string {
  const cookie = (answer.headers['set-cookie'] ?? []).find((c) => c.startsWith('tracker_session='));
  assert.ok(cookie, `a session cookie (status ${answer.status}): ${JSON.stringify(answer.headers)}`);
  return cookie;
}

const isSecure = (cookie: string) => cookie.split(';').some((part) => part.trim().toLowerCase() === 'secure');

describe('TRACKER_TRUSTED_PROXIES is checked at start', () => {
  test('addresses, CIDRs (IPv4 and IPv6) and proxy-addr names are accepted; anything else names the variable', () => {
    assert.deepEqual(
      loadConfig({ TRACKER_TRUSTED_PROXIES: ' 10.0.0.0/8, 192.168.1.7,fd00::/8 , ::1,uniquelocal' }).trustedProxies,
      ['10.0.0.0/8', '192.168.1.7', 'fd00::/8', '::1', 'uniquelocal'],
    );
    assert.deepEqual(loadConfig({}).trustedProxies, []);
    for (const bad of ['*', 'caddy', '10.0.0.0/33', '10.0.0.0/8/1', '::1/129', '10.0.0.0/x', 'true']) {
      assert.throws(
        () => loadConfig({ TRACKER_TRUSTED_PROXIES: bad }),
        (err: unknown) => err instanceof ConfigError && /TRACKER_TRUSTED_PROXIES/.test(err.message),
        bad,
      );
    }
  });
});

for (const mode of MODES) {
  describe(`behind a TLS proxy: Secure cookie and client address (${mode})`, () => {
    let env: TestEnv | undefined;
    let tracker: Tracker | undefined;
    let trusted: { url: string; server: Server };
    let untrusted: { url: string; server: Server };
    let email: string;

    before(async () => {
      env = await createTestEnv(mode);
      tracker = await startTracker(env, {
        roles: ['api', 'web'],
        trustedProxies: [TRUSTED_PROXY_ADDRESS],
        graphqlRateLimit: { requests: RATE_LIMIT, windowMs: 60_000 },
      });
      email = (await signUpWithProject(tracker.url)).email;
      trusted = await startProxy(() => tracker!.url, TRUSTED_PROXY_ADDRESS);
      untrusted = await startProxy(() => tracker!.url, UNTRUSTED_PROXY_ADDRESS);
    });
    after(async () => {
      trusted?.server.close();
      untrusted?.server.close();
      await tracker?.close().catch(() => {});
      await env?.cleanup().catch(() => {});
    });

    const signIn = (base: string, headers: Record<string, string> = {}) =>
      send(`${base}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams({ email, password: PASSWORD, redirectTo: '/' }).toString(),
      });

    test('through the trusted proxy that says https: the session cookie is Secure, and so is its clearing', async () => {
      const answer = await signIn(trusted.url);
      assert.equal(answer.status, 302, answer.body);
      const cookie = sessionCookie(answer);
      assert.ok(isSecure(cookie), cookie);
      const out = await send(`${trusted.url}/logout`, {
        method: 'POST',
        headers: { cookie: cookie.split(';')[0]! },
      });
      assert.ok(isSecure(sessionCookie(out)), JSON.stringify(out.headers['set-cookie']));
    });

    test('through a proxy not in the list, or from a client that sends the header itself: ignored', async () => {
      const viaUntrusted = sessionCookie(await signIn(untrusted.url));
      assert.ok(!isSecure(viaUntrusted), viaUntrusted);
      const direct = sessionCookie(await signIn(tracker!.url, { 'x-forwarded-proto': 'https' }));
      assert.ok(!isSecure(direct), direct);
      const forwarded = sessionCookie(await signIn(tracker!.url, { forwarded: 'proto=https' }));
      assert.ok(!isSecure(forwarded), forwarded);
    });

    const graphql = (base: string, from: string, headers: Record<string, string> = {}) =>
      send(`${base}/graphql`, {
        method: 'POST',
        from,
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ query: '{ __typename }' }),
      });

    /** Statuses of `count` anonymous GraphQL requests. */
    async function statuses(count: number, base: string, from: string, headers: Record<string, string> = {}) {
      const seen: number[] = [];
      for (let i = 0; i < count; i++) seen.push((await graphql(base, from, headers)).status);
      return seen;
    }
    const ok = (n: number) => Array<number>(n).fill(200);

    test('the rate limit without a token counts the browser address the trusted proxy forwards', async () => {
      // Clients on 127.0.0.10 and 127.0.0.11, both behind the trusted proxy.
      assert.deepEqual(await statuses(RATE_LIMIT + 1, trusted.url, '127.0.0.10'), [...ok(RATE_LIMIT), 429]);
      // Its own X-Forwarded-For is not a new budget: the proxy appends the address it saw.
      assert.deepEqual(await statuses(1, trusted.url, '127.0.0.10', { 'x-forwarded-for': '203.0.113.9' }), [429]);
      // Another browser behind the same proxy has its own budget.
      assert.deepEqual(await statuses(1, trusted.url, '127.0.0.11'), [200]);
    });

    test('behind a proxy not in the list, every client is the proxy, and X-Forwarded-For buys nothing', async () => {
      // One budget for every browser behind it: the proxy's address. The sign-in an earlier test
      // made through this proxy was counted there too (the web role signs the browser's address,
      // here the proxy's, for the API's limit), so the budget may be one short.
      const seen = await statuses(RATE_LIMIT + 1, untrusted.url, '127.0.0.12');
      const allowed = seen.indexOf(429);
      assert.ok(allowed >= RATE_LIMIT - 1 && allowed <= RATE_LIMIT, JSON.stringify(seen));
      assert.deepEqual(await statuses(1, untrusted.url, '127.0.0.13'), [429]);
      // A client that talks to Tracker directly and names a new address in every request.
      const spoofed: number[] = [];
      for (let i = 0; i <= RATE_LIMIT; i++)
        spoofed.push((await graphql(tracker!.url, '127.0.0.15', { 'x-forwarded-for': `198.51.100.${i + 1}` })).status);
      assert.deepEqual(spoofed, [...ok(RATE_LIMIT), 429]);
    });

    test('with an https TRACKER_PUBLIC_URL the cookie is Secure even on a plain request', async () => {
      await tracker!.close();
      tracker = await startTracker(env!, { roles: ['api', 'web'], publicUrl: 'https://tracker.example' });
      const cookie = sessionCookie(await signIn(tracker.url));
      assert.ok(isSecure(cookie), cookie);
    });
  });
}
