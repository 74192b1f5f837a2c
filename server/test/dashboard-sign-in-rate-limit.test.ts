/**
 * Issue 28, part 5: the web role calls `/graphql` from its own address for every visitor, so
 * signed-out dashboard requests all shared one GraphQL rate-limit budget, and one client's
 * flood of wrong passwords got every other visitor's sign-in refused. The web role now passes
 * the browser's address signed with the session secret (X-Tracker-Client-Address); the API
 * limits by it, and ignores the header when it does not verify.
 *
 * Clients come from real, distinct loopback source addresses (127.0.0.2, .3, …) against a server
 * on 127.0.0.1. Embedded: one process with api and web. PostgreSQL + Redis: a web-only process
 * calling an api-only one over TRACKER_API_URL, both with the same TRACKER_SESSION_SECRET.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { CLIENT_ADDRESS_HEADER, signClientAddress } from '@tracker/core';
import type { Tracker } from '../src';
import { createTestEnv, MODES, signUpWithProject, startTracker, type TestEnv } from './helpers';

/** Signed-out GraphQL requests per address per minute, for this suite. */
const LIMIT = 8;
const SECRET = 'sign-in-rate-limit-test-secret-0123456789';
const A = '127.0.0.2';
const B = '127.0.0.3';
const C = '127.0.0.4';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One HTTP request from `localAddress`, a real source address of the connection. */
function request(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; localAddress: string },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: options.method ?? 'GET', headers: options.headers, localAddress: options.localAddress, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.setTimeout(30_000, () => req.destroy(new Error(`${url} did not answer in 30 s`)));
    req.end(options.body);
  });
}

/** The dashboard's sign-in form, as a browser posts it. */
function signIn(
  webUrl: string,
  email: string,
  password: string,
  localAddress: string,
  extra: Record<string, string> = {},
) {
  return request(`${webUrl}/login`, {
    method: 'POST',
    localAddress,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...extra },
    body: new URLSearchParams({ email, password, redirectTo: '/' }).toString(),
  });
}

const signedIn = (a: Answer) => a.status === 302 && /tracker/i.test(String(a.headers['set-cookie'] ?? ''));
const tooMany = (a: Answer) => a.status === 400 && /too many/i.test(a.body);
const wrongPassword = (a: Answer) => a.status === 400 && /Wrong email or password/.test(a.body);
/** The per-account throttle (issue 32): after 5 failures the account waits, and the page says until when. */
const accountWaits = (a: Answer) =>
  a.status === 400 && /Too many failed attempts for this account: try again at \d\d:\d\d:\d\d UTC/.test(a.body);

/** A signed-out GraphQL request straight to the API, as any client can send one. */
function graphql(apiUrl: string, localAddress: string, headers: Record<string, string> = {}) {
  return request(`${apiUrl}/graphql`, {
    method: 'POST',
    localAddress,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query: '{ viewer { id } }' }),
  });
}

for (const mode of MODES) {
  describe(`a flood of wrong passwords from one address does not refuse another's sign-in (${mode})`, () => {
    let env: TestEnv;
    let processes: Tracker[] = [];
    let webUrl: string;
    let apiUrl: string;
    let email: string;
    /** The account A guesses at; B signs in to its own (`email`). */
    let victim: string;

    before(async () => {
      env = await createTestEnv(mode, {
        graphqlRateLimit: { requests: LIMIT, windowMs: 60_000 },
        sessionSecret: SECRET,
      });
      if (mode === 'embedded') {
        const all = await startTracker(env, { roles: ['ingest', 'worker', 'api', 'web'] });
        processes = [all];
        webUrl = apiUrl = all.url;
      } else {
        const api = await startTracker(env, { roles: ['ingest', 'worker', 'api'] });
        const web = await startTracker(env, { roles: ['web'], apiUrl: `${api.url}/graphql` }, { migrate: false });
        processes = [api, web];
        apiUrl = api.url;
        webUrl = web.url;
      }
      // Signed up straight against the API from 127.0.0.1: neither A's nor B's budget.
      ({ email } = await signUpWithProject(apiUrl));
      ({ email: victim } = await signUpWithProject(apiUrl));
    });
    after(async () => {
      for (const p of processes.reverse()) await p.close();
      await env?.cleanup();
    });

    test('A is refused after its budget; B signs in every time', { timeout: 120_000 }, async () => {
      const flood: Answer[] = [];
      for (let i = 0; i < LIMIT + 6; i++) flood.push(await signIn(webUrl, victim, `wrong password ${i}`, A));
      // Before the fix all 5 were refused: the flood had spent the web process's one budget.
      const fromB: Answer[] = [];
      for (let i = 0; i < 5; i++) fromB.push(await signIn(webUrl, email, 'correct horse battery', B));
      assert.deepEqual(
        fromB.map(signedIn),
        [true, true, true, true, true],
        fromB.map((a) => `${a.status} ${a.body.slice(0, 120)}`).join('\n'),
      );
      // The victim's account: 5 wrong passwords, then it waits (issue 32), until A's own GraphQL budget ran
      // out: both limits are in force, the second per address.
      assert.equal(flood.filter(wrongPassword).length, 5, flood.map((a) => a.body.slice(0, 80)).join('\n'));
      assert.equal(flood.filter(accountWaits).length, LIMIT - 5);
      assert.equal(flood.filter((a) => tooMany(a) && !accountWaits(a)).length, 6);
      // The account's wait is the account's: the right password from B waits too, and says until when.
      assert.ok(accountWaits(await signIn(webUrl, victim, 'correct horse battery', B)));
      // And A is still refused: its budget is its own.
      assert.ok(tooMany(await signIn(webUrl, email, 'correct horse battery', A)));
    });

    test(
      'a forged X-Tracker-Client-Address is ignored, sent to the API or to the web role',
      { timeout: 120_000 },
      async () => {
        const now = Date.now();
        const forgeries = [
          `${B};${Math.floor(now / 1000)};${'A'.repeat(43)}`, // B's address, a made-up signature
          signClientAddress('another-secret-of-sixteen-chars', B, now), // signed with the wrong secret
          signClientAddress(SECRET, B, now - 10 * 60_000), // a real signature, ten minutes old
          B, // just an address
        ];
        // C claims to be B, straight to the API: each request counts against C's own address.
        const answers: Answer[] = [];
        for (let i = 0; i < LIMIT + 2; i++) {
          answers.push(await graphql(apiUrl, C, { [CLIENT_ADDRESS_HEADER]: forgeries[i % forgeries.length] }));
        }
        assert.deepEqual(
          answers.map((a) => a.status),
          [...Array(LIMIT).fill(200), 429, 429],
        );
        // …and through the web role, which never forwards a browser's header: C is still over.
        assert.ok(
          tooMany(await signIn(webUrl, email, 'correct horse battery', C, { [CLIENT_ADDRESS_HEADER]: forgeries[1] })),
        );
        // B's budget was not touched by any of it.
        assert.ok(signedIn(await signIn(webUrl, email, 'correct horse battery', B)));
        // A correctly signed value is honoured: C, vouched for as a fresh address, gets through.
        const vouched = await graphql(apiUrl, C, {
          [CLIENT_ADDRESS_HEADER]: signClientAddress(SECRET, '127.0.0.9', Date.now()),
        });
        assert.equal(vouched.status, 200);
      },
    );
  });
}
