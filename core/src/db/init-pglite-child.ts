/**
 * The child process of `initPgliteDataDir` when there is no image to copy: makes a PGlite data
 * folder at `argv[2]` with initdb, shuts PostgreSQL down cleanly and exits. Whatever memory that
 * took (initdb's WASM instances) goes with the process.
 *
 * It never takes the folder's lock: the parent holds it for the whole time and waits for this
 * process. Should the parent die, the IPC channel closes and this process stops too, leaving
 * only its scratch folder, which the next holder of the lock deletes.
 */
import { PGLITE_START_PARAMS } from './pglite-settings';

async function main(): Promise<void> {
  process.on('disconnect', () => process.exit(70));
  const [target] = process.argv.slice(2);
  if (!target) throw new Error('usage: init-pglite-child <folder>');
  const { PGlite } = await import('@electric-sql/pglite');
  const pglite = new PGlite(target, { startParams: [...PGLITE_START_PARAMS] });
  await pglite.waitReady;
  await pglite.close();
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
