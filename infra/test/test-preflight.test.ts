// Issue 31: the test preflight's apt-get waits for a dpkg lock another apt run holds, instead of
// failing at once (and then reporting Chromium as missing). The lock is the real one, held the way
// apt holds it (an fcntl lock on /var/lib/dpkg/lock-frontend), by a child process, and the
// preflight's own apt-get call runs against it. Root on Debian only: elsewhere there is no apt-get
// to drive, and the preflight does not call it either.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
const REPO = join(__dirname, '..', '..');

const FRONTEND_LOCK = '/var/lib/dpkg/lock-frontend';
const canRun =
  process.getuid?.() === 0 &&
  existsSync(FRONTEND_LOCK) &&
  spawnSync('sh', ['-c', 'command -v apt-get && command -v python3'], { stdio: 'ignore' }).status === 0;

/** Text of a stream as it arrives, with a way to wait for a pattern. */
function collect(stream: NodeJS.ReadableStream) {
  let text = '';
  const waiters: Array<() => void> = [];
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    text += chunk;
    for (const wake of waiters.splice(0)) wake();
  });
  return {
    get text() {
      return text;
    },
    async waitFor(pattern: RegExp, what: string, ended: Promise<unknown>): Promise<void> {
      let done = false;
      void ended.then(() => (done = true));
      while (!pattern.test(text)) {
        if (done) throw new Error(`ended before ${what}:\n${text}`);
        await Promise.race([new Promise<void>((wake) => waiters.push(wake)), ended]);
      }
    },
  };
}

/**
 * Whether an apt-get child of `parent` is waiting for the lock. apt-get prints nothing while it
 * waits when its output is not a terminal, and does not keep the lock file open between tries: it
 * sleeps between them (clock_nanosleep), which it does nowhere else before it has the lock.
 */
function aptGetIsWaiting(parent: number): boolean {
  for (const pid of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      if (!/^Name:\s+apt-get$/m.test(status) || !new RegExp(`^PPid:\\s+${parent}$`, 'm').test(status)) continue;
      if (/nanosleep/.test(readFileSync(`/proc/${pid}/wchan`, 'utf8'))) return true;
    } catch {
      // the process ended meanwhile
    }
  }
  return false;
}

test(
  'the preflight’s apt-get waits for a dpkg lock held by another apt run, then installs',
  { skip: canRun ? false : 'needs root, apt-get and python3 (Debian)', timeout: 300_000 },
  async () => {
    // Holds the lock as apt does (fcntl, not flock: the two do not see each other on Linux) until
    // its stdin closes.
    const holder = spawn(
      'python3',
      [
        '-c',
        `import fcntl, sys
f = open(${JSON.stringify(FRONTEND_LOCK)}, 'w')
fcntl.lockf(f, fcntl.LOCK_EX)
print('locked', flush=True)
sys.stdin.read()`,
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    const holderExit = once(holder, 'exit');
    try {
      await collect(holder.stdout).waitFor(/locked/, 'the lock was taken', holderExit);

      // The preflight's apt-get call (scripts/apt-install.mjs), in a child so this process can let
      // go of the lock while it waits. An installed package: nothing is downloaded.
      const module = join(REPO, 'scripts/apt-install.mjs');
      const installer = spawn(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const { aptGetInstall } = await import(${JSON.stringify(module)});
process.exit(aptGetInstall(['coreutils'], { lockTimeoutS: 240 }) ? 0 : 1);`,
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      const installerExit = once(installer, 'exit') as Promise<[number | null]>;
      const out = collect(installer.stdout);
      const err = collect(installer.stderr);
      // Only once apt-get is seen waiting is the lock let go.
      let exited = false;
      void installerExit.then(() => (exited = true));
      while (!aptGetIsWaiting(installer.pid!)) {
        assert.equal(exited, false, `apt-get ended before it waited for the lock:\n${out.text}\n${err.text}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      holder.stdin.end();
      await holderExit;
      const [code] = await installerExit;
      assert.equal(code, 0, `apt-get failed instead of waiting:\n${out.text}\n${err.text}`);
      assert.doesNotMatch(err.text, /^E: /m, 'no error line: it waited');
    } finally {
      holder.stdin.end();
      if (holder.exitCode === null) holder.kill();
    }
  },
);
