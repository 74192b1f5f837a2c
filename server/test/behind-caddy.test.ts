import { freePort } from '@tracker/core/testing';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Tracker } from '../src';
import { createTestEnv, MODES, signUpWithProject, startTracker, waitFor, type TestEnv } from './helpers';

// Issue 28, part 7, behind the shipped infra/Caddyfile: Debian's Caddy (installed by the test
// preflight) terminates TLS with its internal CA on loopback and proxies to Tracker as the file
// says; only the site address and the upstream host names (compose's service names) are
// replaced. Tracker trusts loopback (compose.yaml trusts the compose network instead).

const PASSWORD = 'correct horse battery';
const RATE_LIMIT = 10;

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** The shipped Caddyfile, served on `https://localhost:<httpsPort>` and proxying to `upstream`. */
function adaptCaddyfile(upstream: string, httpsPort: number, httpPort: number, dataDir: string): string {
  const shipped = readFileSync(join(__dirname, '../../infra/Caddyfile'), 'utf8');
  const adapted = shipped
    .replace(/^:3000 \{/m, `localhost:${httpsPort} {`)
    .replaceAll('reverse_proxy ingest:3000', `reverse_proxy ${upstream}`)
    .replaceAll('reverse_proxy web:3000', `reverse_proxy ${upstream}`);
  // The test must fail, not pass on something else, when the shipped file changes shape.
  assert.ok(!/:3000\b/.test(adapted.replace(/#.*$/gm, '')), `infra/Caddyfile changed shape:\n${adapted}`);
  const global = `{
	admin off
	http_port ${httpPort}
	https_port ${httpsPort}
	local_certs
	skip_install_trust
	auto_https disable_redirects
	storage file_system ${dataDir}
}
`;
  return global + adapted;
}

for (const mode of MODES) {
  describe(`behind the shipped Caddyfile with TLS (${mode})`, () => {
    let env: TestEnv | undefined;
    let tracker: Tracker | undefined;
    let caddy: ChildProcess | undefined;
    let caddyLog = '';
    let dir: string;
    let httpsPort: number;
    let ca: Buffer;
    let email: string;

    function send(
      path: string,
      init: { method?: string; headers?: Record<string, string>; body?: string; from?: string } = {},
    ): Promise<Answer> {
      return new Promise((resolve, reject) => {
        const req = httpsRequest(
          {
            host: '127.0.0.1',
            servername: 'localhost',
            port: httpsPort,
            path,
            method: init.method ?? 'GET',
            headers: { host: `localhost:${httpsPort}`, ...init.headers },
            localAddress: init.from,
            // Verified against Caddy's own CA: real TLS, nothing switched off.
            ca,
            timeout: 15_000,
          },
          (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (d) => (body += d));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
          },
        );
        req.on('timeout', () => req.destroy(new Error(`no answer for ${path}`)));
        req.on('error', reject);
        req.end(init.body);
      });
    }

    before(async () => {
      env = await createTestEnv(mode);
      tracker = await startTracker(env, {
        roles: ['ingest', 'api', 'web'],
        trustedProxies: ['loopback'],
        graphqlRateLimit: { requests: RATE_LIMIT, windowMs: 60_000 },
      });
      email = (await signUpWithProject(tracker.url)).email;
      dir = mkdtempSync(join(tmpdir(), 'tracker-caddy-'));
      httpsPort = await freePort();
      const config = join(dir, 'Caddyfile');
      writeFileSync(config, adaptCaddyfile(new URL(tracker.url).host, httpsPort, await freePort(), join(dir, 'data')));
      caddy = spawn('caddy', ['run', '--config', config, '--adapter', 'caddyfile'], {
        env: { ...process.env, HOME: dir, XDG_DATA_HOME: join(dir, 'data'), XDG_CONFIG_HOME: join(dir, 'config') },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      caddy.stdout!.on('data', (d) => (caddyLog += d));
      caddy.stderr!.on('data', (d) => (caddyLog += d));
      caddy.on(
        'error',
        (err) => (caddyLog += `\n${err.message} (is Debian's caddy installed? npm test's preflight installs it)`),
      );
      ca = await waitFor(
        `Caddy's internal CA and a certificate for localhost`,
        async () => {
          if (caddy!.exitCode !== null) throw new Error(`caddy exited:\n${caddyLog}`);
          if (!caddyLog.includes('certificate obtained successfully')) return undefined;
          return readFileSync(join(dir, 'data/pki/authorities/local/root.crt'));
        },
        30_000,
      );
    });
    after(async () => {
      caddy?.kill('SIGTERM');
      await tracker?.close().catch(() => {});
      await env?.cleanup().catch(() => {});
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    test('a sign-in over https through Caddy sets a Secure session cookie', async () => {
      const answer = await send('/login', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email, password: PASSWORD, redirectTo: '/' }).toString(),
      });
      assert.equal(answer.status, 302, `${answer.body}\n${caddyLog}`);
      const cookie = (answer.headers['set-cookie'] ?? []).find((c) => c.startsWith('tracker_session='));
      assert.ok(cookie, JSON.stringify(answer.headers));
      assert.match(cookie, /;\s*Secure/i);
    });

    test("the browser's address counts for the rate limit, and its own X-Forwarded-For does not", async () => {
      const statuses: number[] = [];
      for (let i = 0; i <= RATE_LIMIT; i++) {
        const answer = await send('/graphql', {
          method: 'POST',
          from: '127.0.0.20',
          // Caddy replaces what an untrusted client says (it trusts no proxy in front of it).
          headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${i + 1}` },
          body: JSON.stringify({ query: '{ __typename }' }),
        });
        statuses.push(answer.status);
      }
      assert.deepEqual(statuses, [...Array<number>(RATE_LIMIT).fill(200), 429]);
      // Another browser, another budget.
      const other = await send('/graphql', {
        method: 'POST',
        from: '127.0.0.21',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ __typename }' }),
      });
      assert.equal(other.status, 200);
    });
  });
}
