import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './net';

/**
 * Servers of a test's own, for failure tests that must stop, freeze or restart the server for
 * real. The machine's shared PostgreSQL and Redis are never touched: other suites (and other
 * checkouts) use them at the same time.
 */

export interface PrivateRedis {
  url: string;
  port: number;
  /** SIGSTOP: the process keeps its sockets open and answers nothing (a stuck Redis). */
  freeze(): void;
  /** SIGCONT after `freeze`. */
  thaw(): void;
  /** Stops the process (SIGKILL) and waits for it to exit; `start` brings it back on the same port. */
  kill(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

export interface PrivateRedisOptions {
  /**
   * `appendonly yes` with `appendfsync always`, in a temp folder of its own (removed by `close`):
   * what Redis must do for a 202 to survive a Redis restart (docs/reliability.md). Default: off,
   * keeping nothing on disk.
   */
  appendOnly?: boolean;
}

/** A `redis-server` on a free loopback port, keeping nothing on disk unless `appendOnly`. */
export async function startPrivateRedis(
  extraArgs: string[] = [],
  options: PrivateRedisOptions = {},
): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  let frozen = false;
  const dir = options.appendOnly ? mkdtempSync(join(tmpdir(), 'tracker-redis-')) : undefined;
  const persistence = dir ? ['--appendonly', 'yes', '--appendfsync', 'always', '--dir', dir] : ['--appendonly', 'no'];
  const start = async () => {
    child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...persistence, ...extraArgs],
      {
        stdio: 'ignore',
      },
    );
    child.once('error', () => undefined);
    await waitForPort(port, 10_000);
  };
  const kill = async () => {
    const c = child;
    child = undefined;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise<void>((r) => c.once('exit', () => r()));
    c.kill('SIGKILL');
    await exited;
    frozen = false;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    freeze() {
      child?.kill('SIGSTOP');
      frozen = true;
    },
    thaw() {
      child?.kill('SIGCONT');
      frozen = false;
    },
    kill,
    start,
    async close() {
      if (frozen) child?.kill('SIGCONT');
      await kill();
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface PrivatePostgres {
  /** Admin URL (database `postgres`). */
  url: string;
  port: number;
  /** `pg_ctl stop -m fast`: connections are closed, the server is down until `start`. */
  stop(): Promise<void>;
  start(): Promise<void>;
  restart(): Promise<void>;
  /** SIGSTOP on the postmaster and every backend: connections stay open, nothing answers. */
  freeze(): void;
  thaw(): void;
  close(): Promise<void>;
}

/**
 * A PostgreSQL cluster of the test's own (initdb in a temp folder, ~1 s), on a free port. As
 * root the server runs as the `postgres` user, since PostgreSQL refuses to run as root.
 * `settings` override the server's (a bench measuring WAL turns `full_page_writes` back on).
 */
export async function startPrivatePostgres(settings: Record<string, string> = {}): Promise<PrivatePostgres> {
  const bin = postgresBinDir();
  const dir = mkdtempSync(join(tmpdir(), 'tracker-pg-'));
  const asRoot = process.getuid?.() === 0;
  const run = (tool: string, args: string[]) => {
    const cmd = join(bin, tool);
    if (asRoot) execFileSync('runuser', ['-u', 'postgres', '--', cmd, ...args], { stdio: 'ignore', timeout: 60_000 });
    else execFileSync(cmd, args, { stdio: 'ignore', timeout: 60_000 });
  };
  if (asRoot) chownSync(dir, uidOf('postgres'), gidOf('postgres'));
  const data = join(dir, 'data');
  run('initdb', ['-D', data, '--auth=trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync']);
  const port = await freePort();
  const all: Record<string, string> = { fsync: 'off', full_page_writes: 'off', ...settings };
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 ${Object.entries(all)
    .map(([k, v]) => `-c ${k}=${v}`)
    .join(' ')}`;
  let running = false;
  const start = async () => {
    run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', '-t', '30', 'start']);
    running = true;
  };
  const stop = async () => {
    if (!running) return;
    run('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '30', 'stop']);
    running = false;
  };
  const signalAll = (signal: NodeJS.Signals) => {
    for (const pid of postgresPids(port)) {
      try {
        process.kill(pid, signal);
      } catch {
        // gone already
      }
    }
  };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    stop,
    start,
    async restart() {
      await stop();
      await start();
    },
    freeze: () => signalAll('SIGSTOP'),
    thaw: () => signalAll('SIGCONT'),
    async close() {
      signalAll('SIGCONT');
      await stop().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function postgresBinDir(): string {
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
    for (const v of versions) if (existsSync(join(root, v, 'bin', 'initdb'))) return join(root, v, 'bin');
  }
  throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql (Debian package postgresql)');
}

function uidOf(user: string): number {
  return Number(execFileSync('id', ['-u', user]).toString().trim());
}

function gidOf(user: string): number {
  return Number(execFileSync('id', ['-g', user]).toString().trim());
}

/** The postmaster and its children, found by the port it serves. */
function postgresPids(port: number): number[] {
  const pgrep = (args: string[]) => {
    try {
      return execFileSync('pgrep', args, { encoding: 'utf8' }).split('\n').filter(Boolean).map(Number);
    } catch {
      return []; // pgrep exits 1 when nothing matches
    }
  };
  const roots = pgrep(['-f', `postgres -D .* -p ${port} `]);
  return [...new Set([...roots, ...roots.flatMap((root) => pgrep(['-P', String(root)]))])];
}

async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const { createConnection } = await import('node:net');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = createConnection({ host: '127.0.0.1', port });
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`nothing listening on 127.0.0.1:${port} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
