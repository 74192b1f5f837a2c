/**
 * The memory bench's baseline: PGlite by itself in a process of its own, no Tracker code.
 * `argv[2]` the folder, `argv[3]` `defaults` (PGlite's own settings) or a JSON array of start
 * parameters (Tracker's, passed by the bench: this process must not load Tracker's modules). Prints one JSON line: milliseconds to ready and the process's
 * memory two seconds later.
 */
import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';

async function main(): Promise<void> {
  const [dir, settings] = process.argv.slice(2);
  const started = Date.now();
  const pglite = new PGlite(dir, settings === 'defaults' ? {} : { startParams: JSON.parse(settings) as string[] });
  await pglite.waitReady;
  await pglite.query('SELECT 1');
  const readyMs = Date.now() - started;
  await new Promise((r) => setTimeout(r, 2_000));
  const status = readFileSync('/proc/self/status', 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  process.stdout.write(
    `${JSON.stringify({ ...process.memoryUsage(), readyMs, rss: kb('VmRSS') * 1024, hwm: kb('VmHWM') * 1024 })}\n`,
  );
  await pglite.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
