import { fork } from 'node:child_process';
import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { extname, join } from 'node:path';
import { copyPgliteImage, findPgliteImage } from './pglite-image';
import { discardPrewarmedCopy, PREWARM_COPY_PREFIX, takePrewarmedCopy } from './pglite-prewarm';

/** How the data folder came to be: it was there, copied from the shipped image, or made by initdb. */
export type PgliteFolderOrigin = 'existing' | 'image' | 'initdb';

const SCRATCH_PREFIX = 'pgdata.init-';

/**
 * Makes `<dataDir>/pgdata` when it does not exist yet: a copy of the image core's build ships
 * (`pglite-image.ts`), or, without one, PGlite's initdb run in a child process, so that the
 * memory initdb takes (over 500 MB of WASM instances, kept by the process that ran them) is not
 * the server's (docs/decisions/028). Either way a scratch folder is filled first and becomes
 * `pgdata` by a rename once complete, so a first start that dies half-way leaves no folder
 * that looks like a database.
 *
 * The caller must hold the folder's lock (`lockDataDir`): leftovers of an earlier first start
 * are deleted here on that authority, and the child never takes the lock itself.
 */
export async function initPgliteDataDir(
  dataDir: string,
  /** The image to copy; `null` runs initdb (tests of the fallback). Default: the shipped one, if usable. */
  image: string | null = findPgliteImage() ?? null,
): Promise<PgliteFolderOrigin> {
  const pgdata = join(dataDir, 'pgdata');
  if (existsSync(join(pgdata, 'PG_VERSION'))) {
    await discardPrewarmedCopy(dataDir);
    return 'existing';
  }
  const ownCopy = `${PREWARM_COPY_PREFIX}${process.pid}`;
  for (const name of readdirSync(dataDir)) {
    // Leftovers of first starts that died (this process's own copy made ahead excepted).
    if (name.startsWith(SCRATCH_PREFIX) || (name.startsWith(PREWARM_COPY_PREFIX) && name !== ownCopy))
      rmSync(join(dataDir, name), { recursive: true, force: true });
  }
  // A `pgdata` without PG_VERSION is what a first start of an older version left when it died
  // in initdb: no database in it, but kept aside rather than deleted.
  if (existsSync(pgdata)) renameSync(pgdata, join(dataDir, `pgdata.incomplete-${Date.now()}`));
  // The image copied by a worker thread while the server loaded (pglite-prewarm.ts), if any.
  const ahead = await takePrewarmedCopy(dataDir, image);
  const scratch = ahead ?? join(dataDir, `${SCRATCH_PREFIX}${process.pid}`);
  try {
    if (!ahead) {
      if (image) copyPgliteImage(image, scratch);
      else await runInitdbChild(scratch);
    }
    if (!existsSync(join(scratch, 'PG_VERSION'))) throw new Error(`initialising ${scratch} left no PG_VERSION`);
    renameSync(scratch, pgdata);
  } catch (err) {
    rmSync(scratch, { recursive: true, force: true });
    throw err;
  }
  return image ? 'image' : 'initdb';
}

function runInitdbChild(target: string): Promise<void> {
  // `.ts` when this runs from source under tsx (tests), `.js` in the build.
  const entry = join(__dirname, `init-pglite-child${extname(__filename)}`);
  const child = fork(entry, [target], {
    execArgv: loaderArgs(process.execArgv),
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4_000)));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`initialising the data folder failed (${signal ?? `exit ${code}`}): ${stderr.trim()}`));
    });
  });
}

/**
 * The flags the child needs to load its module the way this process loaded its own (tsx's
 * loader and the source condition under tests); never the test runner's, an inspector's port
 * or a profiler's.
 */
export function loaderArgs(execArgv: readonly string[]): string[] {
  const withValue = new Set(['--import', '--require', '-r', '--conditions', '-C', '--loader', '--experimental-loader']);
  const out: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const arg = execArgv[i];
    const name = arg.split('=', 1)[0];
    if (!withValue.has(name)) continue;
    if (arg.includes('=')) out.push(arg);
    else if (i + 1 < execArgv.length) out.push(arg, execArgv[++i]);
  }
  return out;
}
