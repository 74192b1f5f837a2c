/**
 * Debian's sentry-ruby (ruby-sentry-ruby 5.3) and sentry-go (golang-github-getsentry-sentry-go-dev
 * 0.11), real and unmodified, against Tracker's Sentry endpoints: an error with its cause, the
 * frames (with source lines and local variables from Ruby), a breadcrumb, release and
 * environment, checked through GraphQL on both runtimes. The test preflight installs the
 * packages (and Go); without them the suites are skipped, saying what to install.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Tracker } from '../src';
import { runSender } from './run-sender';
import { createTestEnv, gqlOk, MODES, signUpWithProject, startTracker, waitFor, type TestEnv } from './helpers';

const RUBY = '/usr/bin/ruby';
const GO = '/usr/bin/go';
/** Where Debian's Go packages put their sources (GOPATH mode: no module download, no network). */
const GOPATH = '/usr/share/gocode';

function missing(check: () => void, install: string): string | false {
  try {
    check();
    return false;
  } catch {
    return `not installed: apt-get install -y ${install}`;
  }
}

const rubySkip = missing(
  () => execFileSync(RUBY, ['-e', 'require "sentry-ruby"'], { stdio: 'ignore', timeout: 30_000 }),
  'ruby-sentry-ruby',
);
const goSkip = missing(() => {
  execFileSync(GO, ['version'], { stdio: 'ignore', timeout: 30_000 });
  execFileSync('test', ['-d', join(GOPATH, 'src/github.com/getsentry/sentry-go')]);
}, 'golang-go golang-github-getsentry-sentry-go-dev');

/** Builds the Go sender once, against Debian's sentry-go (GOPATH mode, offline). */
function buildGoSender(dir: string): string {
  const binary = join(dir, 'sentry-go-sender');
  execFileSync(GO, ['build', '-o', binary, '.'], {
    cwd: join(__dirname, 'fixtures/sentry-go-sender'),
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      HOME: dir,
      GOPATH,
      GO111MODULE: 'off',
      GOCACHE: join(dir, 'go-cache'),
      GOFLAGS: '',
      GOPROXY: 'off',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: 300_000,
  });
  return binary;
}

/** What a sender prints. */
interface Sent {
  exception: string;
  version: string;
}

const EVENT = `query($id: ID!) { event(id: $id) { id release environment
  exceptions { type value frames { function filename lineno inApp contextLine preContext vars { name value } } }
  breadcrumbs { category message level data } } }`;

const dashed = (id: string) => id.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');

for (const mode of MODES) {
  describe(`Debian's sentry-ruby and sentry-go against Tracker (${mode})`, () => {
    let env: TestEnv | undefined;
    let tracker: Tracker | undefined;
    let dir: string | undefined;

    before(async () => {
      env = await createTestEnv(mode);
      tracker = await startTracker(env);
      dir = mkdtempSync(join(tmpdir(), 'tracker-sdk-senders-'));
    });
    after(async () => {
      await tracker?.close().catch(() => undefined);
      await env?.cleanup().catch(() => undefined);
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    async function storedEvent(token: string, eventId: string) {
      const id = dashed(eventId);
      return waitFor(`event ${id}`, async () => (await gqlOk(tracker!.url, EVENT, { id }, token)).event, 30_000);
    }

    test(
      'sentry-ruby: an error and its cause, source lines, local variables, a breadcrumb',
      { skip: rubySkip, timeout: 120_000 },
      async () => {
        const acct = await signUpWithProject(tracker!.url, 'Ruby');
        const sent = await runSender<Sent>(RUBY, [join(__dirname, 'sentry-ruby-sender.rb')], {
          HOME: tmpdir(),
          SENTRY_DSN: acct.dsn,
        });
        assert.equal(sent.version, '5.3.0');
        const e = await storedEvent(acct.token, sent.exception);
        assert.equal(e.release, 'shop-rb@1.0.0');
        assert.equal(e.environment, 'sdk-test');
        // The raised error first, then its cause, each with its own frames.
        assert.deepEqual(
          e.exceptions.map((x: any) => x.type),
          ['RuntimeError', 'ArgumentError'],
        );
        assert.equal(e.exceptions[0].value, 'payment failed for 12x');
        assert.match(e.exceptions[1].value, /invalid value for Integer\(\): "12x"/);
        const charge = e.exceptions[0].frames.find((f: any) => /charge_card/.test(f.function ?? ''));
        assert.ok(charge, JSON.stringify(e.exceptions[0].frames));
        assert.match(charge.contextLine, /raise "payment failed for #\{raw\}"/);
        assert.ok(charge.preContext.length > 0, 'source lines before the error line');
        const vars = Object.fromEntries(charge.vars.map((v: any) => [v.name, v.value]));
        assert.equal(vars.api_token, '[Filtered]', 'a local named like a credential is filtered');
        const parse = e.exceptions[1].frames.find((f: any) => /parse_amount/.test(f.function ?? ''));
        assert.ok(parse, JSON.stringify(e.exceptions[1].frames));
        const crumb = e.breadcrumbs.find((b: any) => b.category === 'auth');
        assert.equal(crumb.message, 'signed in');
        assert.deepEqual(crumb.data, { user: 'ada', password: '[Filtered]' });
      },
    );

    test(
      'sentry-go: a wrapped error and what it wraps, frames, a breadcrumb',
      { skip: goSkip, timeout: 300_000 },
      async () => {
        const acct = await signUpWithProject(tracker!.url, 'Go');
        const sent = await runSender<Sent>(buildGoSender(dir!), [], { HOME: tmpdir(), SENTRY_DSN: acct.dsn });
        assert.equal(sent.version, '0.11.0');
        const e = await storedEvent(acct.token, sent.exception);
        assert.equal(e.release, 'shop-go@1.0.0');
        assert.equal(e.environment, 'sdk-test');
        const values = e.exceptions.map((x: any) => x.value);
        assert.equal(values[0], 'payment failed for 12x: strconv.Atoi: parsing "12x": invalid syntax');
        assert.ok(
          values.includes('strconv.Atoi: parsing "12x": invalid syntax'),
          `the wrapped error is kept: ${JSON.stringify(values)}`,
        );
        const frames = e.exceptions.flatMap((x: any) => x.frames);
        assert.ok(
          frames.some((f: any) => f.function === 'chargeCard' || f.function === 'main'),
          `the sender's own frames: ${JSON.stringify(frames.map((f: any) => f.function))}`,
        );
        const crumb = e.breadcrumbs.find((b: any) => b.category === 'auth');
        assert.equal(crumb.message, 'signed in');
        assert.deepEqual(crumb.data, { user: 'ada', password: '[Filtered]' });
      },
    );
  });
}
