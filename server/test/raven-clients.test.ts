/**
 * The old `raven` clients against Sentry's store endpoint (issue 30, part 6): Debian's
 * ruby-sentry-raven 3.1.2 (default settings) and golang-github-getsentry-raven-go-dev 0.2.0
 * send the base64 of zlib-deflated JSON as `application/octet-stream`, with no
 * `Content-Encoding`. Each real client runs unmodified and what was stored is read through
 * GraphQL; bodies wrapped the same ways (and plain zlib, base64 of raw deflate) and their bombs
 * are sent by hand beside them. Both runtimes. A client's tests are skipped, saying how to
 * install it, when Debian's package is missing.
 */
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import zlib from 'node:zlib';
import { createTempDir } from '@tracker/core/testing';
import type { Tracker } from '../src';
import { createTestEnv, gqlOk, MODES, signUpWithProject, startTracker, waitFor, type TestEnv } from './helpers';

const RAVEN_GO_SRC = '/usr/share/gocode/src/github.com/getsentry/raven-go';

function rubyRavenMissing(): string | false {
  try {
    execFileSync('ruby', ['-e', 'require "raven"'], { stdio: 'ignore', timeout: 30_000 });
    return false;
  } catch {
    return 'ruby cannot require raven: apt-get install -y ruby-sentry-raven (Debian 12: 3.1.2+ds-3)';
  }
}

function goRavenMissing(): string | false {
  try {
    execFileSync('go', ['version'], { stdio: 'ignore', timeout: 30_000 });
  } catch {
    return 'no go compiler: apt-get install -y golang-go';
  }
  return existsSync(RAVEN_GO_SRC)
    ? false
    : 'raven-go is not installed: apt-get install -y golang-github-getsentry-raven-go-dev (Debian 12: 0.2.0+ds2-1)';
}

/** Runs a sender that prints `{"id": …}` on its last line once the server has answered. */
function runSender(file: string, args: string[], dsn: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      {
        env: {
          NODE_ENV: 'production',
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '/tmp',
          SENTRY_DSN: dsn,
        },
        timeout: 90_000,
      },
      (err, stdout, stderr) => {
        const last = stdout.trim().split('\n').pop();
        if (err || !last) reject(new Error(`${file} failed: ${err?.message ?? ''} ${stderr.slice(-2_000)}`));
        else resolve(String(JSON.parse(last).id));
      },
    );
  });
}

/** raven-go built from Debian's source tree, GOPATH style (0.2.0 predates modules). */
function buildRavenGo(outDir: string): string {
  const out = join(outDir, 'raven-go-sender');
  execFileSync('go', ['build', '-o', out, join(__dirname, 'raven-go-sender.go')], {
    env: {
      NODE_ENV: 'production',
      PATH: process.env.PATH ?? '',
      HOME: outDir,
      GO111MODULE: 'off',
      GOPATH: '/usr/share/gocode',
      GOCACHE: join(outDir, 'go-cache'),
    },
    stdio: 'pipe',
    timeout: 300_000,
  });
  return out;
}

const EVENT = `query($id: ID!) { event(id: $id) { message type environment release context
  exceptions { type value frames { function filename } } } }`;

const dashed = (hex: string) => hex.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');

const rubySkip = rubyRavenMissing();
const goSkip = goRavenMissing();

for (const mode of MODES) {
  describe(`raven clients and their store bodies (${mode})`, () => {
    let env: TestEnv | undefined;
    let tracker: Tracker | undefined;
    let acct: Awaited<ReturnType<typeof signUpWithProject>>;
    let storePath: string;
    const tmp = createTempDir();

    before(async () => {
      env = await createTestEnv(mode);
      tracker = await startTracker(env);
      acct = await signUpWithProject(tracker.url, 'Raven');
      storePath = `${new URL(acct.dsn).pathname.replace(/\/(\d+)$/, '/api/$1/store/')}?sentry_key=${acct.key}&sentry_version=7`;
    });
    after(async () => {
      await tracker?.close().catch(() => undefined);
      await env?.cleanup().catch(() => undefined);
      tmp.remove();
    });

    const storedEvent = (id: string) =>
      waitFor(`event ${id}`, async () => (await gqlOk(tracker!.url, EVENT, { id }, acct.token)).event, 30_000);

    const postStore = async (body: Buffer | string) => {
      const res = await fetch(`${tracker!.url}${storePath}`, {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream' },
        body,
      });
      return { status: res.status, body: (await res.json()) as any, sentryError: res.headers.get('x-sentry-error') };
    };

    test(
      'raven-ruby with its default settings (base64 + zlib): the exception is stored',
      { skip: rubySkip, timeout: 120_000 },
      async () => {
        const id = dashed(await runSender('ruby', [join(__dirname, 'raven-ruby-sender.rb')], acct.dsn));
        const e = await storedEvent(id);
        assert.equal(e.type, 'ArgumentError');
        assert.equal(e.message, 'raven-ruby card declined for 42');
        assert.equal(e.environment, 'staging');
        assert.equal(e.release, 'raven-ruby@1.0.0');
        assert.ok(
          e.exceptions[0].frames.some((f: { function: string | null }) => f.function === 'charge_card'),
          JSON.stringify(e.exceptions[0].frames),
        );
      },
    );

    test(
      'raven-go (a body over 1,000 bytes: base64 + zlib): the error is stored',
      { skip: goSkip, timeout: 360_000 },
      async () => {
        const id = dashed(await runSender(buildRavenGo(tmp.path), [], acct.dsn));
        const e = await storedEvent(id);
        assert.equal(e.type, '*errors.errorString');
        assert.equal(e.message, 'raven-go card declined for 42');
        assert.equal(e.environment, 'staging');
        assert.equal(e.release, 'raven-go@1.0.0');
        assert.ok(
          e.exceptions[0].frames.some((f: { function: string | null }) => f.function === 'main'),
          JSON.stringify(e.exceptions[0].frames),
        );
      },
    );

    test('base64 of zlib, of raw deflate, and plain zlib bodies are read; JSON still is', async () => {
      const ids = Array.from({ length: 5 }, () => randomUUID().replace(/-/g, ''));
      const json = (n: number) =>
        JSON.stringify({
          event_id: ids[n - 1],
          message: `wrapped body ${n}`,
          extra: { pad: 'x'.repeat(2_000) },
        });
      const bodies = [
        zlib.deflateSync(json(1)).toString('base64'),
        zlib.deflateRawSync(json(2)).toString('base64'),
        zlib.deflateSync(json(3)),
        // Line-wrapped base64, as some encoders write it.
        (
          zlib
            .deflateSync(json(4))
            .toString('base64')
            .match(/.{1,76}/g) ?? []
        ).join('\n'),
        json(5),
      ];
      for (const [i, body] of bodies.entries()) {
        const r = await postStore(body);
        assert.equal(r.status, 200, `body ${i + 1}: ${JSON.stringify(r.body)}`);
        assert.equal(r.body.id, ids[i]);
      }
      for (let n = 1; n <= bodies.length; n++) {
        const e = await storedEvent(dashed(ids[n - 1]));
        assert.equal(e.message, `wrapped body ${n}`);
      }
    });

    test('a zlib bomb in base64 (or plain) is 413, corrupt data a 400, each saying why', async () => {
      // 64 MB of spaces deflates to ~64 KB: well within the 1 MB body limit before decoding.
      const spaces = Buffer.alloc(64 * 1024 * 1024, 0x20);
      const bomb = zlib.deflateSync(spaces, { level: 9 });
      const bombs = [
        [bomb.toString('base64'), 'base64+zlib'],
        [bomb, 'zlib'],
        [zlib.deflateRawSync(spaces).toString('base64'), 'base64+deflate'],
      ] as const;
      // Measured once the bombs are built: what grows after this is the server's.
      const before = process.memoryUsage().rss;
      for (const [body, wrapping] of bombs) {
        const r = await postStore(body);
        assert.equal(r.status, 413, `${wrapping}: ${JSON.stringify(r.body)}`);
        assert.equal(r.body.error.code, 'PAYLOAD_TOO_LARGE');
        assert.equal(r.body.error.message, `body exceeds the limit of 1 MB once decoded (${wrapping})`);
        assert.equal(r.sentryError, r.body.error.message);
      }
      // The server runs in this process: the bombs were never inflated whole.
      assert.ok(process.memoryUsage().rss - before < 48 * 1024 * 1024, 'memory stayed bounded');

      const corrupt = zlib.deflateSync(Buffer.from('{"message":"cut short"}')).subarray(0, 10);
      const r = await postStore(corrupt.toString('base64'));
      assert.equal(r.status, 400);
      assert.match(r.body.error.message, /^body: not valid base64\+zlib data \(/);
      const notJson = await postStore(zlib.deflateSync('not json').toString('base64'));
      assert.equal(notJson.status, 400);
      assert.match(notJson.body.error.message, /^body: malformed JSON/);
    });
  });
}
