import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';

// Shared by every package's benches (exported as @tracker/core/testing, never from the main entry).

/** docs/benchmarks.md at the repository root. */
export const BENCHMARKS_DOC = resolve(__dirname, '../../../docs/benchmarks.md');

export interface Machine {
  nproc: number;
  cpu: string;
  node: string;
}

export function describeMachine(): Machine {
  let nproc = cpus().length;
  try {
    nproc = Number(execFileSync('nproc', { encoding: 'utf8' }).trim()) || nproc;
  } catch {
    // not on Linux: keep the os module's count
  }
  let cpu = cpus()[0]?.model ?? 'unknown';
  try {
    const m = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    if (m) cpu = m[1].trim();
  } catch {
    // no /proc
  }
  return { nproc, cpu, node: process.version };
}

export function machineLine(m: Machine): string {
  return `${m.nproc} × ${m.cpu} (\`nproc\` = ${m.nproc}), Node ${m.node}`;
}

/** The 1-minute load average: above the core count, other work was competing for the CPU. */
export function loadAverage(): number {
  return Math.round(loadavg()[0] * 100) / 100;
}

/** Truthy env flag; TRACKER_-prefixed names pass through turbo (turbo.json `bench`). */
export function envFlag(name: string): boolean {
  const v = process.env[`TRACKER_${name}`] ?? process.env[name];
  return v === '1' || v === 'true';
}

export function envNumber(name: string, fallback: number): number {
  const v = process.env[`TRACKER_${name}`] ?? process.env[name];
  const n = v === undefined || v === '' ? NaN : Number(v);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

/** Markdown table from a header row and body rows. */
export function table(header: string[], rows: Array<Array<string | number>>): string {
  const line = (cells: Array<string | number>) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

export function fmt(n: number, digits = 0): string {
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/**
 * (Re)writes this bench's section of docs/benchmarks.md, between its own markers, and keeps
 * everything else in the file. A missing section is appended.
 */
export function writeDocSection(id: string, markdown: string): void {
  const start = `<!-- bench:${id}:start -->`;
  const end = `<!-- bench:${id}:end -->`;
  const block = `${start}\n${markdown.trim()}\n${end}`;
  const current = existsSync(BENCHMARKS_DOC)
    ? readFileSync(BENCHMARKS_DOC, 'utf8')
    : '# Benchmarks\n\nWritten by the benches themselves (`npm run bench`).\n';
  const from = current.indexOf(start);
  const to = current.indexOf(end);
  const next =
    from !== -1 && to > from
      ? current.slice(0, from) + block + current.slice(to + end.length)
      : `${current.trimEnd()}\n\n${block}\n`;
  writeFileSync(BENCHMARKS_DOC, next);
}
