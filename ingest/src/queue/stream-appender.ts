import { connect, type Socket } from 'node:net';
import type { QueuePayload } from './queue';

/** One caller's entries: settled once Redis has answered each of them. */
export interface AppendGroup {
  payloads: QueuePayload[];
  resolve(): void;
  reject(err: unknown): void;
}

/** A reply the appender is waiting for: an XADD of a group, or a handshake command. */
interface Waiter {
  /** Replies still due. */
  remaining: number;
  /** The first error reply among them, if any. */
  error: Error | undefined;
  /** The caller's entries; undefined for a handshake command (AUTH, SELECT). */
  group: AppendGroup | undefined;
}

/** After a failed connect, callers fail at once for this long (doubling up to the maximum). */
const RECONNECT_MIN_MS = 50;
const RECONNECT_MAX_MS = 2_000;

/**
 * Appends entries to one Redis stream (`XADD <stream> * p <payload>`) over a connection of its
 * own, writing the protocol bytes itself: every flush of the queue is one `write` of one
 * buffer, and the answers are counted off as they arrive, without a client library's
 * per-command objects, encoder and reply decoder.
 *
 * Why not node-redis for this one command: on the ingest edge's hot path its per-command work
 * (the command queue, the encoder writing each argument as its own chunk, a promise and a
 * decoded string per reply) was about a tenth of the edge's CPU per request, and the edge's
 * accept rate is held to half a bare `node:http` server's (docs/benchmarks.md, decision 012).
 * Everything else (reads, acks, claims, dead letters) stays on node-redis.
 *
 * Semantics match what the queue promised with node-redis: a group resolves only after Redis
 * acknowledged every one of its entries, and rejects (that group alone) when one was refused.
 * A lost connection fails every group still waiting; the next flush connects again. While
 * Redis cannot be reached, callers fail at once instead of piling up (short back-off).
 *
 * Speaks RESP2 over plain TCP, with `AUTH` (user and password from the URL) and `SELECT` (the
 * URL's database number). `rediss://` (TLS) and other URLs are not handled here: the queue
 * keeps node-redis for them (`StreamAppender.supports`).
 */
export class StreamAppender {
  private socket: Socket | undefined;
  private connected = false;
  /** Encoded flushes written while the connection is being set up. */
  private backlog: Buffer[] = [];
  private waiters: Waiter[] = [];
  /** Bytes of a reply not complete yet. */
  private partial: Buffer | undefined;
  private retryAt = 0;
  private retryDelay = RECONNECT_MIN_MS;
  private handshakeError: Error | undefined;
  private closed = false;
  private readonly url: URL;
  private readonly commandHead: Buffer;

  constructor(url: string, stream: string) {
    this.url = new URL(url);
    if (!StreamAppender.supports(url)) throw new Error(`StreamAppender: unsupported Redis URL ${this.url.protocol}`);
    const key = Buffer.from(stream);
    this.commandHead = Buffer.concat([
      Buffer.from(`*5\r\n$4\r\nXADD\r\n$${key.length}\r\n`),
      key,
      Buffer.from('\r\n$1\r\n*\r\n$1\r\np\r\n'),
    ]);
  }

  /** Plain `redis://` URLs; anything else stays with node-redis. */
  static supports(url: string): boolean {
    try {
      return new URL(url).protocol === 'redis:';
    } catch {
      return false;
    }
  }

  /** Writes every group's entries in one write; each group settles on its own answers. */
  append(groups: AppendGroup[]): void {
    if (this.closed) {
      failAll(groups, new Error('queue closed'));
      return;
    }
    if (!this.connected && Date.now() < this.retryAt) {
      failAll(groups, new Error('Redis is unreachable (reconnecting)'));
      return;
    }
    // One buffer for the whole flush, sized first: no small buffer per entry, one copy each.
    let size = 0;
    for (const g of groups) {
      for (const p of g.payloads) {
        const length = typeof p === 'string' ? Buffer.byteLength(p) : p.length;
        size += this.commandHead.length + String(length).length + 3 + length + 2;
      }
    }
    if (size === 0) {
      for (const g of groups) g.resolve();
      return;
    }
    const data = Buffer.allocUnsafe(size);
    let at = 0;
    for (const g of groups) {
      if (g.payloads.length === 0) {
        g.resolve();
        continue;
      }
      for (const p of g.payloads) {
        at += this.commandHead.copy(data, at);
        const length = typeof p === 'string' ? Buffer.byteLength(p) : p.length;
        at += data.write(`$${length}\r\n`, at, 'latin1');
        at += typeof p === 'string' ? data.write(p, at, 'utf8') : p.copy(data, at);
        data[at++] = 0x0d;
        data[at++] = 0x0a;
      }
      this.waiters.push({ remaining: g.payloads.length, error: undefined, group: g });
    }
    if (this.connected) this.socket!.write(data);
    else {
      this.backlog.push(data);
      if (this.socket === undefined) this.open();
    }
  }

  /**
   * Drops the connection: every group still waiting fails, and the next flush connects again.
   * For a connection Redis stopped answering on (an enqueue timed out): replies that never
   * came cannot be told apart from later ones, so nothing on it can be trusted any more.
   */
  reset(reason: string): void {
    const socket = this.socket;
    if (!socket) return;
    socket.destroy(new Error(reason));
    // At once, not on 'close': a flush in the meantime must not write to the dead socket.
    this.lost(socket);
  }

  /** Waits (at most `timeoutMs`) for the answers still due, then closes the connection. */
  async close(timeoutMs = 2_000): Promise<void> {
    this.closed = true;
    const socket = this.socket;
    if (!socket) return;
    const deadline = Date.now() + timeoutMs;
    if (this.waiters.length > 0) {
      await new Promise<void>((done) => {
        const timer = setTimeout(done, timeoutMs);
        this.onDrained = () => {
          clearTimeout(timer);
          done();
        };
      });
    }
    // A stuck Redis never answers the FIN either: destroy once the time is up.
    await new Promise<void>((done) => {
      if (socket.destroyed) return done();
      const timer = setTimeout(() => socket.destroy(), Math.max(0, deadline - Date.now()));
      socket.once('close', () => {
        clearTimeout(timer);
        done();
      });
      socket.end();
    });
  }

  private onDrained: (() => void) | undefined;

  private open(): void {
    const port = Number(this.url.port || 6379);
    const host = this.url.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1';
    // Keepalive: the kernel notices a peer that vanished; a stuck one is caught by the
    // enqueue timeout, which resets the connection.
    const socket = connect({ host, port, noDelay: true, keepAlive: true, keepAliveInitialDelay: 10_000 });
    this.socket = socket;
    this.partial = undefined;
    // The handshake goes first; its answers are waited for like any other.
    const handshake = this.handshake();
    socket.on('connect', () => {
      if (this.socket !== socket) return;
      this.connected = true;
      this.retryDelay = RECONNECT_MIN_MS;
      socket.write(Buffer.concat([...handshake, ...this.backlog]));
      this.backlog = [];
    });
    socket.on('data', (chunk: Buffer) => this.read(chunk));
    socket.on('error', () => undefined); // 'close' follows and does the work
    socket.on('close', () => this.lost(socket));
  }

  /** AUTH and SELECT as the URL asks, queued ahead of the first entries. */
  private handshake(): Buffer[] {
    const commands: string[][] = [];
    const user = decodeURIComponent(this.url.username);
    const password = decodeURIComponent(this.url.password);
    // As node-redis does: AUTH only with a password (a user alone means nothing to Redis).
    if (password) commands.push(user ? ['AUTH', user, password] : ['AUTH', password]);
    const db = Number(this.url.pathname.slice(1) || 0);
    if (Number.isInteger(db) && db > 0) commands.push(['SELECT', String(db)]);
    // Handshake answers go ahead of every entry waiting: put them at the front.
    const handshakeWaiters: Waiter[] = commands.map(() => ({ remaining: 1, error: undefined, group: undefined }));
    this.waiters.unshift(...handshakeWaiters);
    return commands.map(encodeCommand);
  }

  private lost(socket: Socket): void {
    if (this.socket !== socket) return;
    const refused = this.handshakeError;
    const wasConnected = this.connected && refused === undefined;
    this.socket = undefined;
    this.connected = false;
    this.handshakeError = undefined;
    this.partial = undefined;
    this.backlog = [];
    if (!wasConnected) {
      // Could not connect: fail fast for a while rather than retrying on every flush.
      this.retryAt = Date.now() + this.retryDelay;
      this.retryDelay = Math.min(this.retryDelay * 2, RECONNECT_MAX_MS);
    }
    const waiters = this.waiters;
    this.waiters = [];
    const err = refused
      ? new Error(`Redis refused the connection's set-up: ${refused.message}`)
      : new Error(wasConnected ? 'Redis connection lost before it answered' : 'could not connect to Redis');
    for (const w of waiters) w.group?.reject(err);
    this.drained();
  }

  private read(chunk: Buffer): void {
    const buf = this.partial ? Buffer.concat([this.partial, chunk]) : chunk;
    let at = 0;
    while (at < buf.length) {
      const lineEnd = buf.indexOf(CRLF, at);
      if (lineEnd < 0) break;
      const type = buf[at];
      let next = lineEnd + 2;
      let error: Error | undefined;
      if (type === 0x24 /* $ */) {
        const length = Number(buf.toString('latin1', at + 1, lineEnd));
        if (length >= 0) {
          next = lineEnd + 2 + length + 2;
          if (next > buf.length) break; // the rest of the bulk string is still on its way
        }
      } else if (type === 0x2d /* - */) {
        error = new Error(`Redis refused the entry: ${buf.toString('utf8', at + 1, lineEnd)}`);
      } else if (type !== 0x2b /* + */ && type !== 0x3a /* : */) {
        // Not an answer XADD, AUTH or SELECT gives: the stream of replies cannot be followed.
        this.socket?.destroy(new Error(`unexpected Redis reply type ${String.fromCharCode(type)}`));
        return;
      }
      at = next;
      this.answer(error);
      // After a refused AUTH or SELECT the connection is going: what follows (NOAUTH for
      // each entry) is not the reason, and the close fails the rest with the refusal.
      if (this.handshakeError) return;
    }
    this.partial = at < buf.length ? buf.subarray(at) : undefined;
    this.drained();
  }

  private answer(error: Error | undefined): void {
    const w = this.waiters[0];
    if (!w) {
      this.socket?.destroy(new Error('Redis answered a command that was not sent'));
      return;
    }
    w.error ??= error;
    if (--w.remaining > 0) return;
    this.waiters.shift();
    if (w.group) {
      if (w.error) w.group.reject(w.error);
      else w.group.resolve();
    } else if (w.error) {
      // A refused AUTH or SELECT: nothing on this connection can be trusted, and connecting
      // again at once would only be refused again (back off as for a failed connect).
      this.handshakeError = w.error;
      this.socket?.destroy(w.error);
    }
  }

  private drained(): void {
    if (this.waiters.length === 0 && this.onDrained) {
      const done = this.onDrained;
      this.onDrained = undefined;
      done();
    }
  }
}

const CRLF = Buffer.from('\r\n');

function failAll(groups: AppendGroup[], err: Error): void {
  for (const g of groups) g.reject(err);
}

function encodeCommand(args: string[]): Buffer {
  const parts = [`*${args.length}\r\n`];
  for (const a of args) parts.push(`$${Buffer.byteLength(a)}\r\n${a}\r\n`);
  return Buffer.from(parts.join(''));
}
