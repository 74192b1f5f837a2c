/**
 * The certificate expiry an uptime check records is read from a real TLS handshake (issue 33's
 * 14-day warning rests on it): OpenSSL makes a certificate for 127.0.0.1 that ends in 10 days,
 * a node:https server presents it, and a check run in a process that trusts it records that end.
 * Without that trust the check fails and names the TLS error.
 */
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { runUptimeCheck } from '../src/monitors/uptime-check';

const DAY = 86_400_000;
const dir = mkdtempSync(join(tmpdir(), 'tracker-tls-'));
let server: https.Server;
let url: string;
let madeAt: number;

before(async () => {
  madeAt = Date.now();
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
      '-days',
      '10',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  server = https.createServer(
    { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
    (_req, res) => res.writeHead(200).end('fine'),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/health`;
});
after(() => {
  server?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a check that trusts the certificate records when it ends', async () => {
  // Not spawnSync: the server answering the child lives in this process's event loop.
  const child = await promisify(execFile)(
    process.execPath,
    [
      '--conditions=@tracker/source',
      '--import',
      'tsx',
      join(__dirname, 'fixtures/uptime-check-child.ts'),
      url,
    ],
    { env: { ...process.env, NODE_EXTRA_CA_CERTS: join(dir, 'cert.pem') }, encoding: 'utf8', timeout: 60_000 },
  );
  const result = JSON.parse(child.stdout) as { ok: boolean; statusCode: number; tlsExpiresAt: string };
  assert.deepEqual([result.ok, result.statusCode], [true, 200]);
  const left = Date.parse(result.tlsExpiresAt) - madeAt;
  // OpenSSL's notAfter is 10 days after it ran, to the second.
  assert.ok(Math.abs(left - 10 * DAY) < 120_000, `ends ${result.tlsExpiresAt}`);
});

test('an untrusted certificate fails the check with the TLS error named', async () => {
  const result = await runUptimeCheck(url, { timeoutMs: 5000, allowPrivate: true });
  assert.equal(result.ok, false);
  assert.match(result.error ?? '', /^TLS error \(/);
});
