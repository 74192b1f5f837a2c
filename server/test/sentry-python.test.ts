/**
 * Debian's python3-sentry-sdk (a real, unmodified Sentry SDK for another language than ours)
 * against Tracker's Sentry endpoints (issue 29): a chained exception (`raise … from …`) with
 * the source lines and local variables the SDK sends by default, and a breadcrumb; and (issue 30)
 * `logging.exception`, whose log message is kept beside the exception. What Tracker
 * stored is checked through GraphQL, on both runtimes. Skipped, saying why, when the package is
 * not installed (`apt-get install -y python3-sentry-sdk`).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Tracker } from '../src';
import { runSender } from './run-sender';
import { createTestEnv, gqlOk, MODES, signUpWithProject, startTracker, waitFor, type TestEnv } from './helpers';

/** Debian's interpreter, where apt installs the package (a pyenv `python3` may come first on PATH). */
const PYTHON = '/usr/bin/python3';

function pythonSdkMissing(): string | false {
  try {
    execFileSync(PYTHON, ['-c', 'import sentry_sdk'], { stdio: 'ignore', timeout: 20_000 });
    return false;
  } catch {
    return `${PYTHON} cannot import sentry_sdk: apt-get install -y python3-sentry-sdk`;
  }
}

function runPython<T = { exception: string; version: string }>(
  dsn: string,
  script = 'sentry-python-sender.py',
): Promise<T> {
  return runSender<T>(PYTHON, [join(__dirname, script)], { SENTRY_DSN: dsn });
}

const EVENT = `query($id: ID!) { event(id: $id) { id
  exceptions { type value frames { function lineno inApp context { pre line post } preContext contextLine postContext vars { name value } } }
  breadcrumbs { category message level data } } }`;

const skip = pythonSdkMissing();

for (const mode of MODES) {
  describe(`the Python Sentry SDK against Tracker (${mode})`, { skip }, () => {
    let env: TestEnv | undefined;
    let tracker: Tracker | undefined;

    before(async () => {
      env = await createTestEnv(mode);
      tracker = await startTracker(env);
    });
    after(async () => {
      await tracker?.close().catch(() => undefined);
      await env?.cleanup().catch(() => undefined);
    });

    test(
      'a chained exception with source lines, local variables (scrubbed) and a breadcrumb',
      { timeout: 120_000 },
      async () => {
        const acct = await signUpWithProject(tracker!.url, 'Python');
        const sent = await runPython(acct.dsn);
        const id = sent.exception.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');
        const e = await waitFor(
          `event ${id}`,
          async () => (await gqlOk(tracker!.url, EVENT, { id }, acct.token)).event,
          30_000,
        );
        // Thrown first (RuntimeError), then what caused it (ValueError), each with its own frames.
        assert.deepEqual(
          e.exceptions.map((x: any) => [x.type, x.value]),
          [
            ['RuntimeError', 'payment failed for 12x'],
            ['ValueError', "invalid literal for int() with base 10: '12x'"],
          ],
        );
        const charge = e.exceptions[0].frames.find((f: any) => f.function === 'charge_card');
        assert.ok(charge, JSON.stringify(e.exceptions[0].frames));
        assert.match(charge.context.line, /raise RuntimeError\("payment failed for %s" % raw\) from err/);
        assert.ok(charge.context.pre.length > 0 && charge.context.post.length > 0);
        // The same lines under Sentry's own names.
        assert.equal(charge.contextLine, charge.context.line);
        assert.deepEqual([charge.preContext, charge.postContext], [charge.context.pre, charge.context.post]);
        const vars = Object.fromEntries(charge.vars.map((v: any) => [v.name, v.value]));
        assert.equal(vars.api_token, '[Filtered]', 'a local variable named like a credential is filtered');
        assert.equal(vars.raw, "'12x'");
        // The SDK sends a list as a list of reprs; a non-text value is stored as its JSON text.
        assert.equal(vars.attempts, '["1","2"]');
        const parse = e.exceptions[1].frames[0];
        assert.equal(parse.function, 'parse_amount');
        assert.match(parse.context.line, /return int\(raw\) \* cents/);
        assert.equal(Object.fromEntries(parse.vars.map((v: any) => [v.name, v.value])).cents, '300');
        const crumb = e.breadcrumbs.find((b: any) => b.category === 'auth');
        assert.deepEqual(crumb, {
          category: 'auth',
          message: 'signed in',
          level: 'info',
          data: { user: 'ada', password: '[Filtered]' },
        });
      },
    );

    test('logging.exception: the log message is kept beside the exception', { timeout: 120_000 }, async () => {
      const acct = await signUpWithProject(tracker!.url, 'Python logging');
      const sent = await runPython<{ logging: string }>(acct.dsn, 'sentry-python-logging-sender.py');
      const id = sent.logging.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');
      const e = await waitFor(
        `event ${id}`,
        async () =>
          (
            await gqlOk(
              tracker!.url,
              `query($id: ID!) { event(id: $id) { type message logMessage level issueId exceptions { type value }
                json } }`,
              { id },
              acct.token,
            )
          ).event,
        30_000,
      );
      // The exception stays the title; the message it was logged with (params filled in) is kept beside it.
      assert.equal(e.type, 'KeyError');
      assert.equal(e.message, "'card-A-1001'");
      assert.equal(e.logMessage, 'charging order A-1001 failed after 3 attempts');
      assert.equal(e.level, 'ERROR');
      assert.deepEqual(e.exceptions, [{ type: 'KeyError', value: "'card-A-1001'" }]);
      assert.equal(e.json.logMessage, e.logMessage);
      const issue = (
        await gqlOk(tracker!.url, `query($id: ID!) { issue(id: $id) { title } }`, { id: e.issueId }, acct.token)
      ).issue;
      assert.match(issue.title, /^KeyError/);
    });
  });
}
