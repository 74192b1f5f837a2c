import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fmt } from './bench-report';

// CPU accounting for the benches. On a machine shared with other work, wall time stretches with
// the load, CPU time much less: it shows what a request costs whatever the noise.

let tickMs: number | undefined;

/** Length of a `/proc` clock tick (10 ms on Linux by default). */
export function clockTickMs(): number {
  if (tickMs === undefined) {
    try {
      tickMs = 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    } catch {
      tickMs = 10;
    }
  }
  return tickMs;
}

/** user + system CPU (ms) of a process on this host (`/proc/<pid>/stat`), or null when gone or remote. */
export function processCpuMs(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name: utime and stime are the 12th and 13th.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * clockTickMs();
  } catch {
    return null;
  }
}

/** Self time by function and by package/file of a V8 CPU profile (`--cpu-prof`), largest first. */
export function summarizeCpuProfile(profile: any, top = 20): string[] {
  const dt = (profile.endTime - profile.startTime) / profile.samples.length / 1000; // ms per sample
  const byFn = new Map<string, number>();
  const byPackage = new Map<string, number>();
  let total = 0;
  for (const n of profile.nodes) {
    const ms = (n.hitCount ?? 0) * dt;
    if (!ms || n.callFrame.functionName === '(idle)') continue;
    total += ms;
    const url: string = n.callFrame.url ?? '';
    const short = url
      .replace(/^.*node_modules\//, '')
      .replace(/^.*?\/(core|ingest|server|api|web)\/(src|build)\//, '$1/$2/')
      .replace(/^file:\/\//, '');
    const fn = `${n.callFrame.functionName || '(anonymous)'} ${short}:${n.callFrame.lineNumber + 1}`;
    byFn.set(fn, (byFn.get(fn) ?? 0) + ms);
    const pkg =
      /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1] ??
      /\/(core|ingest|server|api|web)\/(?:src|build)\//.exec(url)?.[1] ??
      (short || n.callFrame.functionName);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + ms);
  }
  const rows = (m: Map<string, number>) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, v]) => `${fmt(v).padStart(7)} ms ${((100 * v) / total).toFixed(1).padStart(5)} %  ${k}`);
  return [
    `self time, ${fmt(total)} ms sampled (idle excluded) — by function:`,
    ...rows(byFn),
    'by package / file:',
    ...rows(byPackage),
  ];
}
