import { closeSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/**
 * PGlite's own lock does not stop a second OS process, and a second writer corrupts the
 * folder (STACK.md), so every process that opens a data folder takes this lock first.
 *
 * A pid file rather than a heartbeat lock (proper-lockfile and the like): a heartbeat lock can
 * only call a holder dead after a timeout, so a restart right after a crash must wait, and a
 * holder whose event loop stalls (PGlite's WASM runs on it) can be declared dead while alive.
 * A pid is checked instantly and exactly on the one machine that can open the folder.
 */
export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holderPid: number,
  ) {
    super(
      `The data folder ${dataDir} is in use by another Tracker process (pid ${holderPid}). ` +
        'Embedded mode allows one process per folder: stop the other process, or set DATABASE_URL to use PostgreSQL.',
    );
    this.name = 'DataDirLockedError';
  }
}

/** Folders locked by this process: a second open from the same process is refused too. */
const heldHere = new Set<string>();

export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'tracker.lock');
  if (heldHere.has(file)) throw new DataDirLockedError(dataDir, process.pid);
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      heldHere.add(file);
      return async () => {
        heldHere.delete(file);
        try {
          unlinkSync(file);
        } catch {
          // already gone
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = readHolder(file);
    // Our own pid in the file while we hold nothing: a previous run in a container that
    // reuses pids (pid 1 after a restart). Anything else alive is a real holder.
    if (holder !== null && holder !== process.pid && isAlive(holder)) throw new DataDirLockedError(dataDir, holder);
    // Stale: move it aside atomically so that of two racing starters only one removes it.
    try {
      const aside = `${file}.stale-${process.pid}`;
      renameSync(file, aside);
      unlinkSync(aside);
    } catch {
      // another starter got there first; retry the exclusive create
    }
  }
  throw new Error(`Could not lock ${dataDir}: the lock file keeps changing.`);
}

function readHolder(file: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(file, 'utf8').trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to another user; still a live holder.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
