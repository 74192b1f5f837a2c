import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, beforeEach, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startReceiver, type Receiver } from '../../core/test/receiver';

const FIXTURE = fileURLToPath(new URL('./fixtures/crash.mjs', import.meta.url));

let receiver: Receiver;
before(async () => {
  receiver = await startReceiver();
});
after(() => receiver.close());
beforeEach(() => receiver.reset());

interface ChildResult {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  /** Requests the receiver had recorded at the moment the child exited. */
  seenAtExit: number;
}

function runChild(env: Record<string, string>, execArgv: string[] = []): Promise<ChildResult> {
  const started = Date.now();
  const child = spawn(process.execPath, [...execArgv, FIXTURE], {
    env: { ...process.env, NODE_OPTIONS: '', TRACKER_TEST_ENDPOINT: receiver.origin + '/ingest/error', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => {
    child.on('exit', (code) => resolve({ code, stdout, stderr, ms: Date.now() - started, seenAtExit: receiver.posts('/ingest/error').length }));
  });
}

test('an uncaught exception is captured as fatal and flushed before the process exits 1', async () => {
  const result = await runChild({ SCENARIO: 'uncaught' });
  assert.equal(result.code, 1);
  assert.equal(result.seenAtExit, 1, 'the report arrived before exit');
  assert.match(result.stderr, /RangeError: fatal in child/);
  assert.doesNotMatch(result.stdout, /still alive/);
  const [event] = receiver.posts('/ingest/error');
  assert.deepEqual(
    [event.body.type, event.body.message, event.body.level, event.body.handled, event.body.release],
    ['RangeError', 'fatal in child', 'fatal', false, 'child@1'],
  );
  assert.match(event.body.stack, /crash\.mjs/);
  // The source lines were read (within their bound) before the flush that precedes the exit.
  const crashLine = event.body.contextLines.find((c: { filename: string }) => c.filename.endsWith('crash.mjs'));
  assert.match(crashLine.contextLine, /throw new RangeError\('fatal in child'\)/);
});

test('a fatal report that cannot be delivered delays exit by a bounded wait only', async () => {
  receiver.setMode('/ingest/error', 'hang');
  const result = await runChild({ SCENARIO: 'uncaught' });
  assert.equal(result.code, 1);
  assert.ok(result.ms < 4_500, `exited after ${result.ms} ms`);
});

test('a 5xx on the fatal report is retried within the bounded wait', async () => {
  receiver.setMode('/ingest/error', { status: 503 });
  const result = await runChild({ SCENARIO: 'uncaught' });
  assert.equal(result.code, 1);
  assert.equal(result.seenAtExit, 3);
});

test('an unhandled rejection is captured unhandled at level error, and the process exits as Node would', async () => {
  const result = await runChild({ SCENARIO: 'rejection' });
  assert.equal(result.code, 1);
  assert.equal(result.seenAtExit, 1);
  const [event] = receiver.posts('/ingest/error');
  assert.deepEqual([event.body.message, event.body.level, event.body.handled], ['rejected in child', 'error', false]);
});

test('with --unhandled-rejections=warn the app lives on, as it would without the SDK', async () => {
  const result = await runChild({ SCENARIO: 'rejection' }, ['--unhandled-rejections=warn']);
  assert.equal(result.code, 0);
  assert.match(result.stdout, /still alive/);
  assert.equal(receiver.posts('/ingest/error').length, 1);
});

test('exitOnFatal false captures the uncaught exception and leaves exiting to the app', async () => {
  const result = await runChild({ SCENARIO: 'uncaught', EXIT_ON_FATAL: 'false' });
  assert.equal(result.code, 0);
  assert.match(result.stdout, /still alive/);
  assert.equal(receiver.posts('/ingest/error')[0].body.level, 'fatal');
});

test('an app with its own uncaughtException listener is captured but not exited', async () => {
  const result = await runChild({ SCENARIO: 'uncaught-app-handler' });
  assert.equal(result.code, 0);
  assert.match(result.stdout, /app handled handled by the app/);
  assert.match(result.stdout, /still alive/);
  assert.equal(receiver.posts('/ingest/error')[0].body.level, 'fatal');
});
