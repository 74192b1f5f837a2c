import { lstatSync, type Stats } from 'node:fs';
import { join } from 'node:path';

/**
 * Where a running embedded server listens for operator commands, and the checks both ends make
 * before trusting it (decision 052). The trust model: whoever can open files in the data folder's
 * `control/` directory is the folder's owner (or root), because that directory is mode 0700 and
 * owned by the server's user; the socket in it is mode 0600; and every request carries the token
 * written in that directory at start (mode 0600), so a request from anyone who could not read it,
 * whatever happened to the modes since, is refused. Node cannot read a Unix socket's peer
 * credentials (SO_PEERCRED), so the file system is the check, made on every request.
 */
export interface ControlPaths {
  dir: string;
  socket: string;
  token: string;
}

export function controlPaths(dataDir: string): ControlPaths {
  const dir = join(dataDir, 'control');
  return { dir, socket: join(dir, 'tracker.sock'), token: join(dir, 'token') };
}

/** Linux's limit for a socket's path (`sun_path`, 108 bytes with the terminating NUL). */
export const MAX_SOCKET_PATH_BYTES = 107;

/** The current user's id; null where there is none (Windows, which has no Unix sockets here). */
export function currentUid(): number | null {
  return typeof process.getuid === 'function' ? process.getuid() : null;
}

/**
 * Why `path` may not be trusted as the control directory, socket or token of user `owner`, or null
 * when it may: it must be what it says (a directory, a socket, a file; never a symbolic link),
 * owned by `owner` (`'any'`: root's command line, which may use anyone's), and open to nobody
 * else (no group or other permission bits).
 */
export function untrusted(path: string, kind: 'directory' | 'socket' | 'file', owner: number | 'any'): string | null {
  let stats: Stats;
  try {
    stats = lstatSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EACCES') return `${path} belongs to another user: only the data folder's owner may use it`;
    return `${path}: ${code ?? String(err)}`;
  }
  const is = kind === 'directory' ? stats.isDirectory() : kind === 'socket' ? stats.isSocket() : stats.isFile();
  if (!is) return `${path} is not a ${kind}${stats.isSymbolicLink() ? ' (a symbolic link)' : ''}`;
  if (owner !== 'any' && stats.uid !== owner) {
    return `${path} belongs to user ${stats.uid}, not to you (user ${owner}): run the command as the user that runs Tracker`;
  }
  if ((stats.mode & 0o077) !== 0) {
    return `${path} is open to other users (mode ${(stats.mode & 0o777).toString(8)}); restart Tracker to make it private again`;
  }
  return null;
}
