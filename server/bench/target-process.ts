/**
 * The forked target processes of the ingest benches (ingest-accept.target.ts): one process per
 * target, so a target never shares an event loop with the load generator in the parent.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { envFlag } from '@tracker/core/testing';

export type TargetKind = 'bare' | 'fastify' | 'tracker' | 'tracker-nogate';

const FROM_SOURCE = envFlag('BENCH_SOURCE');

const children = new Set<ChildProcess>();

export function killChildren(): void {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
}

export interface Target {
  url: string;
  /** CPU time (user + system, µs) the target process has used so far. */
  cpu(): Promise<number>;
  /** Stops the server gracefully; resolves with what it counted. */
  stop(): Promise<{ accepted: number; enqueued: number }>;
}

/**
 * The targets run Tracker's built packages (`dist/`), as `npm start` does: without the
 * `@tracker/source` condition, tsx only loads the target file itself. (From the TypeScript
 * sources, tsx's helpers, such as the `__name` wrapper around every closure it creates, cost
 * the edge ~10 % more CPU per request: not what users run.) TRACKER_BENCH_SOURCE=1 runs the
 * sources instead, for profiling changes without a build.
 */
function targetExecArgv(): string[] {
  if (FROM_SOURCE) return process.execArgv;
  return process.execArgv.filter((a) => a !== '--conditions=@tracker/source');
}

export function startTarget(kind: TargetKind, env: Record<string, string>): Promise<Target> {
  // fork reuses this process's execArgv (--conditions=@tracker/source --import tsx).
  const profDir = process.env.TRACKER_BENCH_CPU_PROF;
  const child = fork(resolve(__dirname, 'ingest-accept.target.ts'), [kind], {
    env: { ...process.env, ...env, NODE_ENV: 'production' },
    // TRACKER_BENCH_CPU_PROF=<dir>: V8 CPU profiles of the targets, written when they stop.
    execArgv: targetExecArgv().concat(profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}/${kind}`] : []),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return new Promise((resolveTarget, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${kind} target did not start within 30 s`));
    }, 30_000);
    child.once('exit', (code) => reject(new Error(`${kind} target exited early (code ${code})`)));
    child.on('message', (msg: any) => {
      if (msg?.type === 'error') {
        clearTimeout(timer);
        reject(new Error(`${kind} target failed: ${msg.message}`));
      }
      if (msg?.type !== 'ready') return;
      clearTimeout(timer);
      resolveTarget({
        url: msg.url,
        cpu: () =>
          new Promise<number>((done) => {
            const onMessage = (m: any) => {
              if (m?.type !== 'cpu') return;
              child.off('message', onMessage);
              done(m.micros);
            };
            child.on('message', onMessage);
            child.send('cpu');
          }),
        stop: () =>
          new Promise<{ accepted: number; enqueued: number }>((done, fail) => {
            const kill = setTimeout(() => {
              child.kill('SIGKILL');
              fail(new Error(`${kind} target did not stop within 15 s`));
            }, 15_000);
            child.on('message', (m: any) => {
              if (m?.type === 'stopped') {
                clearTimeout(kill);
                const counts = { accepted: m.accepted, enqueued: m.enqueued };
                child.once('exit', () => done(counts));
                if (child.exitCode !== null) done(counts);
              }
            });
            child.send('stop');
          }),
      });
    });
  });
}
