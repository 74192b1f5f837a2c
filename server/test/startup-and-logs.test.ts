import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { formatLogLine } from '../src/log-format';
import { freePort } from './child-server';

const ROOT = join(__dirname, '..', '..');
const MAIN = join(ROOT, 'server/dist/main.js');
/** A first start runs PGlite's initdb: seconds alone, up to a minute on a loaded 2-core machine. */
const START_TIMEOUT_MS = 150_000;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The built server as `npm start` runs it. `tty`: under `script`, so its stdout is a terminal;
 * `until`: stop it (SIGTERM) once stdout matches, else wait for it to exit by itself.
 */
function runServer(env: Record<string, string>, { tty = false, until }: { tty?: boolean; until?: RegExp } = {}) {
  const fullEnv: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', ...env };
  delete fullEnv.TRACKER_LOG_FORMAT;
  const proc = tty
    ? spawn('script', ['-qefc', `${JSON.stringify(process.execPath)} ${JSON.stringify(MAIN)}`, '/dev/null'], {
        cwd: ROOT,
        env: fullEnv,
        stdio: ['ignore', 'pipe', 'pipe'],
      })
    : spawn(process.execPath, [MAIN], { cwd: ROOT, env: fullEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise<Run>((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`no answer in time:\n${stdout}\n${stderr}`));
    }, START_TIMEOUT_MS);
    proc.stdout!.on('data', (d) => {
      stdout += d;
      if (until && until.test(stdout)) proc.kill('SIGTERM');
    });
    proc.stderr!.on('data', (d) => (stderr += d));
    proc.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('starting the built server: one line for a port in use; logs for people and for machines', () => {
  let dataDir: string;
  let blocker: Server;
  let takenPort: number;

  before(async () => {
    assert.ok(existsSync(MAIN), 'run `npm run build` first');
    dataDir = mkdtempSync(join(tmpdir(), 'tracker-startup-'));
    blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    takenPort = (blocker.address() as { port: number }).port;
  });
  after(async () => {
    await new Promise<void>((r) => blocker.close(() => r()));
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('a port in use is said in one line, with exit code 1 and no stack trace', async () => {
    const run = await runServer({ PORT: String(takenPort), TRACKER_DATA_DIR: dataDir, TRACKER_LOG_LEVEL: 'warn' });
    assert.equal(run.code, 1, `${run.stdout}\n${run.stderr}`);
    const lines = run.stderr.trim().split('\n');
    assert.deepEqual(
      lines,
      [
        `Port ${takenPort} is already in use on 127.0.0.1: stop the process using it, or start Tracker with PORT set to a free port.`,
      ],
      run.stderr,
    );
    assert.doesNotMatch(run.stdout + run.stderr, /\n\s+at /, 'no stack trace');
  });

  test('logs are JSON lines when stdout is not a terminal', async () => {
    const port = await freePort();
    const run = await runServer({ PORT: String(port), TRACKER_DATA_DIR: dataDir }, { until: /Tracker listening on/ });
    const lines = run.stdout.trim().split('\n').filter(Boolean);
    assert.ok(lines.length > 0, run.stderr);
    for (const line of lines) {
      const entry = JSON.parse(line);
      assert.equal(typeof entry.level, 'number', line);
      assert.equal(typeof entry.time, 'number', line);
    }
    assert.ok(lines.some((l) => JSON.parse(l).msg.startsWith(`Tracker listening on http://127.0.0.1:${port}`)));
  });

  test('logs are readable lines on a terminal', async (t) => {
    if (!existsSync('/usr/bin/script')) return t.skip('util-linux `script` is needed for a pseudo-terminal');
    const port = await freePort();
    const run = await runServer(
      { PORT: String(port), TRACKER_DATA_DIR: dataDir },
      { tty: true, until: /Tracker listening on/ },
    );
    const listening = run.stdout.split(/\r?\n/).find((l) => l.includes('Tracker listening on'));
    assert.ok(listening, run.stdout);
    assert.match(
      listening,
      new RegExp(
        `^\\d\\d:\\d\\d:\\d\\d INFO  Tracker listening on http://127\\.0\\.0\\.1:${port} \\(public URL .*\\) roles=`,
      ),
    );
    assert.ok(!run.stdout.split(/\r?\n/).some((l) => l.trim().startsWith('{')), 'no JSON on a terminal');
  });
});

describe('formatLogLine', () => {
  test('time, level, message, then the other fields as key=value', () => {
    const line = JSON.stringify({
      level: 40,
      time: Date.parse('2026-11-25T17:03:04.123Z'),
      pid: 1,
      hostname: 'h',
      msg: 'queue slow',
      depth: 12,
      roles: ['api', 'web'],
    });
    assert.equal(formatLogLine(line), '17:03:04 WARN  queue slow depth=12 roles=["api","web"]');
  });

  test("an error's stack is kept, indented under its line; anything not JSON passes as it is", () => {
    const line = JSON.stringify({
      level: 50,
      time: 0,
      msg: 'failed',
      err: { type: 'Error', stack: 'Error: x\n    at f (a.js:1:1)' },
    });
    assert.equal(formatLogLine(line), '00:00:00 ERROR failed\n  Error: x\n      at f (a.js:1:1)');
    assert.equal(formatLogLine('plain text'), 'plain text');
  });
});
