import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { CONTROL_COMMANDS } from './commands';
import { controlPaths, currentUid, MAX_SOCKET_PATH_BYTES, untrusted } from './control-paths';
import { CONTROL_PROTOCOL, type ControlAnswer, type ControlRequest } from './control-protocol';

export interface ControlServerOptions {
  dataDir: string;
  /** Runs one operator command against the server's own database and queues. */
  run(command: string, args: string[]): Promise<ControlAnswer>;
  log(level: 'info' | 'warn', message: string, data?: Record<string, unknown>): void;
}

export interface ControlServer {
  readonly socketPath: string;
  close(): Promise<void>;
}

/** A request is one short JSON line; anything longer is not ours. */
const MAX_REQUEST_BYTES = 64 * 1024;
/** A client that connects and says nothing loses the connection after this. */
const REQUEST_READ_TIMEOUT_MS = 10_000;

/**
 * The embedded server's control socket (decision 052): a Unix domain socket in the data folder's
 * `control/` directory (0700) that answers the operator commands the folder's lock would
 * otherwise refuse while the server runs. Answers null, having logged why, where it cannot be
 * made private (no Unix sockets, a path too long for one, a `control/` that is not ours): the
 * command line then says the folder is in use, as before.
 */
export async function startControlServer(options: ControlServerOptions): Promise<ControlServer | null> {
  const uid = currentUid();
  const paths = controlPaths(options.dataDir);
  const skip = (why: string) => {
    options.log('warn', `no control socket: ${why}; operator commands need Tracker stopped`, { dir: paths.dir });
    return null;
  };
  if (uid === null) return skip('this platform has no Unix domain sockets');
  if (Buffer.byteLength(paths.socket) > MAX_SOCKET_PATH_BYTES) {
    return skip(`its path would be longer than ${MAX_SOCKET_PATH_BYTES} bytes (use a shorter TRACKER_DATA_DIR)`);
  }
  try {
    mkdirSync(paths.dir, { mode: 0o700 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const dir = lstatSync(paths.dir);
  if (!dir.isDirectory() || dir.uid !== uid) return skip(`${paths.dir} is not a directory of this user`);
  // Ours: made private again should someone have opened it up (the check per request refuses until then).
  chmodSync(paths.dir, 0o700);
  // We hold the data folder's lock: a socket or token left here is a dead run's.
  rmSync(paths.socket, { force: true });
  rmSync(paths.token, { force: true });
  const token = randomBytes(32).toString('hex');
  writeFileSync(paths.token, token, { mode: 0o600, flag: 'wx' });

  let chain: Promise<unknown> = Promise.resolve();
  const open = new Set<Socket>();
  const server = createServer((socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
    socket.setTimeout(REQUEST_READ_TIMEOUT_MS, () => socket.destroy());
    let buffered = '';
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const end = buffered.indexOf('\n');
      if (end < 0 && buffered.length <= MAX_REQUEST_BYTES) return;
      socket.off('data', onData);
      socket.setTimeout(0);
      const line = end < 0 ? '' : buffered.slice(0, end);
      // One command at a time: PGlite has one connection, and an operator expects their order.
      const answer = chain.then(() => handle(line));
      chain = answer.catch(() => undefined);
      answer.then(
        (a) => socket.end(`${JSON.stringify({ v: CONTROL_PROTOCOL, ...a })}\n`),
        () => socket.destroy(),
      );
    };
    socket.on('data', onData);
    socket.on('error', () => socket.destroy());
  });

  async function handle(line: string): Promise<ControlAnswer> {
    const request = parseRequest(line);
    if (typeof request === 'string') return refuse(request);
    // The file system is the peer check (control-paths.ts): made on every request, so loosened
    // modes or a replaced socket refuse commands at once rather than at the next start.
    const problem =
      untrusted(paths.dir, 'directory', uid!) ??
      untrusted(paths.socket, 'socket', uid!) ??
      untrusted(paths.token, 'file', uid!);
    if (problem) return refuse(problem);
    if (!sameToken(request.token, token)) {
      return refuse('the request did not carry the token in the control folder (only its owner can read it)');
    }
    if (!CONTROL_COMMANDS.has(request.command)) {
      return { code: 2, out: `"${request.command.slice(0, 60)}" is not a command the running server takes` };
    }
    options.log('info', 'operator command over the control socket', { command: request.command });
    return options.run(request.command, request.args);
  }

  function refuse(why: string): ControlAnswer {
    options.log('warn', 'control socket request refused', { why });
    return { code: 1, out: `error: refused by the running Tracker: ${why}` };
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(paths.socket, () => {
      server.off('error', reject);
      resolve();
    });
  });
  chmodSync(paths.socket, 0o600);

  return {
    socketPath: paths.socket,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of open) s.destroy();
      await closed;
      // Only files this run made: another run cannot hold the folder meanwhile (its lock).
      if (readToken(paths.token) === token) rmSync(paths.token, { force: true });
      rmSync(paths.socket, { force: true });
    },
  };
}

function parseRequest(line: string): ControlRequest | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return 'not a control request (one JSON line expected)';
  }
  const r = value as Partial<ControlRequest> | null;
  if (!r || typeof r !== 'object' || r.v !== CONTROL_PROTOCOL) {
    return `an unknown protocol version: this Tracker speaks version ${CONTROL_PROTOCOL} (run the command from the same build)`;
  }
  if (
    typeof r.token !== 'string' ||
    typeof r.command !== 'string' ||
    !Array.isArray(r.args) ||
    r.args.length > 8 ||
    !r.args.every((a) => typeof a === 'string' && a.length <= 1_000)
  ) {
    return 'a malformed control request';
  }
  return { v: CONTROL_PROTOCOL, token: r.token, command: r.command, args: r.args };
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

function readToken(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}
