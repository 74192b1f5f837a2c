import { createConnection, createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP proxy in front of Redis for tests of what the ingest edge does while Redis has not
 * answered yet, or answers with an error for some entries:
 *
 * - `holdReplies()` keeps Redis's answers in the proxy until `releaseReplies()`: the commands
 *   reach Redis (the entries are in the stream) but the client is not told;
 * - `rewrite` may change each command on its way to Redis (it parses the RESP arrays the
 *   client sends), e.g. turn chosen XADDs into an unknown command so Redis refuses just those.
 */
export interface RespProxy {
  url: string;
  holdReplies(): void;
  releaseReplies(): void;
  close(): Promise<void>;
}

export type RespRewrite = (args: Buffer[]) => Buffer[];

export async function startRespProxy(redisUrl: string, rewrite?: RespRewrite): Promise<RespProxy> {
  const target = new URL(redisUrl);
  let holding = false;
  const held: Array<() => void> = [];
  const sockets = new Set<Socket>();

  const server = createServer((client) => {
    const upstream = createConnection({ host: target.hostname, port: Number(target.port || 6379) });
    sockets.add(client);
    sockets.add(upstream);
    const closeBoth = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', closeBoth).on('close', closeBoth);
    upstream.on('error', closeBoth).on('close', closeBoth);

    upstream.on('data', (chunk: Buffer) => {
      if (holding) held.push(() => client.write(chunk));
      else client.write(chunk);
    });

    let pending = Buffer.alloc(0);
    client.on('data', (chunk: Buffer) => {
      if (!rewrite) {
        upstream.write(chunk);
        return;
      }
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        const parsed = parseCommand(pending);
        if (!parsed) break;
        pending = pending.subarray(parsed.length);
        upstream.write(encodeCommand(rewrite(parsed.args)));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `redis://127.0.0.1:${port}`,
    holdReplies() {
      holding = true;
    },
    releaseReplies() {
      holding = false;
      for (const send of held.splice(0)) send();
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** One RESP array of bulk strings from the start of `buf`, or undefined when incomplete. */
function parseCommand(buf: Buffer): { args: Buffer[]; length: number } | undefined {
  const readLine = (at: number): { value: string; next: number } | undefined => {
    const end = buf.indexOf('\r\n', at);
    return end < 0 ? undefined : { value: buf.toString('latin1', at, end), next: end + 2 };
  };
  const head = readLine(0);
  if (!head) return undefined;
  if (!head.value.startsWith('*')) throw new Error(`unexpected RESP from the client: ${head.value}`);
  const count = Number(head.value.slice(1));
  const args: Buffer[] = [];
  let at = head.next;
  for (let i = 0; i < count; i++) {
    const line = readLine(at);
    if (!line) return undefined;
    const len = Number(line.value.slice(1));
    if (buf.length < line.next + len + 2) return undefined;
    args.push(buf.subarray(line.next, line.next + len));
    at = line.next + len + 2;
  }
  return { args, length: at };
}

function encodeCommand(args: Buffer[]): Buffer {
  const parts: Buffer[] = [Buffer.from(`*${args.length}\r\n`)];
  for (const a of args) parts.push(Buffer.from(`$${a.length}\r\n`), a, Buffer.from('\r\n'));
  return Buffer.concat(parts);
}
