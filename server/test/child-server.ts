import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from '@tracker/core/testing';

export { freePort };

export interface ChildServer {
  proc: ChildProcess;
  url: string;
  output(): string;
  kill(): Promise<void>;
}

/**
 * Tracker's real entry point (`server/src/main.ts`) in its own process, so a test can kill
 * it with SIGKILL at any moment: the only honest way to test crash recovery.
 */
export async function startChildServer(
  env: Record<string, string>,
  roles: string,
  { built = false, startTimeoutMs = 60_000 }: { built?: boolean; startTimeoutMs?: number } = {},
): Promise<ChildServer> {
  const port = await freePort();
  const root = join(__dirname, '..', '..');
  // built: the compiled dist that `npm start` runs, which the source-run tests never load.
  const entry = built
    ? [join(root, 'server/dist/main.js')]
    : ['--conditions=@tracker/source', '--import', 'tsx', join(root, 'server/src/main.ts')];
  const proc = spawn(process.execPath, [...entry, '--roles', roles], {
    cwd: root,
    env: {
      ...process.env,
      TSX_TSCONFIG_PATH: join(root, 'tsconfig.json'),
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      TRACKER_LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + startTimeoutMs;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`server exited early (${proc.exitCode}):\n${out}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) {
      proc.kill('SIGKILL');
      throw new Error(`server did not start:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    proc,
    url,
    output: () => out,
    kill: () =>
      new Promise((resolve) => {
        if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
        proc.once('exit', () => resolve());
        proc.kill('SIGKILL');
      }),
  };
}
