import { Writable } from 'node:stream';

/**
 * How the process writes its log: readable lines for a person at a terminal, JSON (pino's, one
 * object a line) for everything else — a file, a pipe, a container runtime, a log shipper.
 * Chosen by whether stdout is a terminal, as most servers and CLIs do; `TRACKER_LOG_FORMAT`
 * overrides either way.
 */
export type LogFormat = 'pretty' | 'json';

export function chooseLogFormat(isTTY: boolean | undefined, override: string | undefined): LogFormat {
  if (override === 'pretty' || override === 'json') return override;
  return isTTY ? 'pretty' : 'json';
}

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
/** pino's own bookkeeping: said once by the line's time and level, or useless to a reader. */
const SKIPPED = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'v']);

/**
 * One of pino's JSON lines as a person reads it: `17:03:04 INFO  Tracker listening on … roles=api,web`.
 * Fields beyond the message follow as `key=value` (objects as compact JSON); an error's stack
 * is kept, indented under the line, because that is what someone at a terminal needs.
 */
export function formatLogLine(line: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  if (entry === null || typeof entry !== 'object') return line;
  const time = typeof entry.time === 'number' ? new Date(entry.time).toISOString().slice(11, 19) : '--:--:--';
  const level = (LEVELS[entry.level as number] ?? String(entry.level)).padEnd(5);
  const parts = [`${time} ${level} ${typeof entry.msg === 'string' ? entry.msg : ''}`.trimEnd()];
  let stack = '';
  for (const [key, value] of Object.entries(entry)) {
    if (SKIPPED.has(key) || value === undefined) continue;
    if (
      key === 'err' &&
      value &&
      typeof value === 'object' &&
      typeof (value as { stack?: unknown }).stack === 'string'
    ) {
      stack = `\n  ${(value as { stack: string }).stack.replace(/\n/g, '\n  ')}`;
      continue;
    }
    parts.push(`${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  }
  return parts.join(' ') + stack;
}

/** A stream for pino (fastify's `logger.stream`) that writes formatLogLine to `out`. */
export function createPrettyStream(out: NodeJS.WritableStream = process.stdout): Writable {
  let pending = '';
  return new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      pending += chunk.toString();
      let newline = pending.indexOf('\n');
      while (newline !== -1) {
        const line = pending.slice(0, newline);
        pending = pending.slice(newline + 1);
        if (line) out.write(`${formatLogLine(line)}\n`);
        newline = pending.indexOf('\n');
      }
      done();
    },
  });
}
