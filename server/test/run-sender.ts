import { spawn } from 'node:child_process';

/**
 * Runs a real SDK's sender script or program in a child process of its own (SDKs patch their
 * runtime on init, so none shares Tracker's process) and answers the JSON line it prints last.
 * Killed after `timeoutMs`; a non-zero exit rejects with the end of its stderr.
 */
export function runSender<T>(
  command: string,
  args: string[],
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const last = out.trim().split('\n').pop();
      if (code !== 0 || !last) reject(new Error(`${command} exited ${code}: ${err.slice(-2_000)}`));
      else resolve(JSON.parse(last) as T);
    });
  });
}
