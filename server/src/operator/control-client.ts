import { existsSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { controlPaths, currentUid, untrusted } from './control-paths';
import { CONTROL_PROTOCOL, type ControlAnswer } from './control-protocol';

/** Long enough for `dead-letter:replay --all` of a large backlog; a server that hangs is not waited on forever. */
const ANSWER_TIMEOUT_MS = 300_000;
const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/**
 * What became of sending a command to the running embedded server:
 * - `answered`: it ran there (or the server refused the request, which it says in the answer);
 * - `refused`: this side would not send it (the socket is not the folder owner's and private,
 *   or the kernel refused the connection): the message says why;
 * - `absent`: no server listens (no socket, or a dead run's): open the folder instead.
 */
export type ControlOutcome =
  { kind: 'answered'; answer: ControlAnswer } | { kind: 'refused'; message: string } | { kind: 'absent'; why: string };

/** Sends `command args` to the server holding `dataDir`, after checking the socket is its owner's (decision 052). */
export async function sendControlCommand(dataDir: string, command: string, args: string[]): Promise<ControlOutcome> {
  const uid = currentUid();
  const paths = controlPaths(dataDir);
  if (uid === null) return { kind: 'absent', why: 'no Unix domain sockets on this platform' };
  if (!existsSync(paths.dir)) {
    // existsSync is false for a directory we may not even look into: say so rather than "absent".
    const problem = untrusted(paths.dir, 'directory', 'any');
    if (problem && /another user/.test(problem)) return { kind: 'refused', message: problem };
    return { kind: 'absent', why: 'no control socket in the data folder' };
  }
  // Root may use anyone's: it can read the token anyway. Anyone else only their own.
  const owner = uid === 0 ? 'any' : uid;
  const dirProblem = untrusted(paths.dir, 'directory', owner);
  if (dirProblem) return { kind: 'refused', message: dirProblem };
  if (!existsSync(paths.socket)) return { kind: 'absent', why: 'no control socket in the data folder' };
  const problem = untrusted(paths.socket, 'socket', owner) ?? untrusted(paths.token, 'file', owner);
  if (problem) return { kind: 'refused', message: problem };
  let token: string;
  try {
    token = readFileSync(paths.token, 'utf8');
  } catch (err) {
    return { kind: 'refused', message: `cannot read ${paths.token}: ${(err as NodeJS.ErrnoException).code}` };
  }
  return exchange(paths.socket, JSON.stringify({ v: CONTROL_PROTOCOL, token, command, args }));
}

function exchange(socketPath: string, request: string): Promise<ControlOutcome> {
  return new Promise((resolve) => {
    let answer = '';
    let settled = false;
    const done = (outcome: ControlOutcome) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      resolve(outcome);
    };
    const socket = connect(socketPath, () => socket.write(`${request}\n`));
    socket.setTimeout(ANSWER_TIMEOUT_MS, () =>
      done({ kind: 'refused', message: `the running Tracker did not answer within ${ANSWER_TIMEOUT_MS / 1000} s` }),
    );
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('utf8');
      if (answer.length > MAX_ANSWER_BYTES) done({ kind: 'refused', message: 'the control socket answered too much' });
    });
    socket.on('end', () => {
      try {
        const parsed = JSON.parse(answer) as ControlAnswer & { v: number };
        if (typeof parsed.code !== 'number' || typeof parsed.out !== 'string') throw new Error('shape');
        done({ kind: 'answered', answer: { code: parsed.code, out: parsed.out } });
      } catch {
        done({ kind: 'refused', message: 'the control socket gave an answer that is not one' });
      }
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      // A socket file without a listener: a run that died without removing it.
      if (err.code === 'ECONNREFUSED' || err.code === 'ENOENT') {
        done({ kind: 'absent', why: 'a control socket nobody listens on' });
      } else if (err.code === 'EACCES' || err.code === 'EPERM') {
        done({
          kind: 'refused',
          message: `${socketPath}: permission denied (only the data folder's owner may use it)`,
        });
      } else {
        done({ kind: 'refused', message: `${socketPath}: ${err.code ?? err.message}` });
      }
    });
  });
}
