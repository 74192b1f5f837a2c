import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** One request the receiver saw (preflights are kept apart, in `preflights`). */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
  at: number;
}

/** How the receiver answers POSTs to a path: a status (with `Retry-After` for 429), or never. */
export type Mode = { status: number; retryAfter?: string } | 'hang';

export interface Receiver {
  /** e.g. `http://127.0.0.1:43121` */
  origin: string;
  requests: ReceivedRequest[];
  preflights: ReceivedRequest[];
  /** POSTs whose path is `path`. */
  posts(path: string): ReceivedRequest[];
  setMode(path: string, mode: Mode | null): void;
  /** Serve a static file (test pages, built bundles). */
  serve(path: string, body: string | Buffer, contentType: string): void;
  waitFor(predicate: () => boolean, timeoutMs?: number): Promise<void>;
  reset(): void;
  close(): Promise<void>;
}

const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'Authorization, Content-Type',
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
  'Access-Control-Expose-Headers': 'Retry-After',
  'Access-Control-Max-Age': '600',
};

/**
 * A real HTTP ingest stand-in on 127.0.0.1 (port 0): records every request and answers 202
 * (the wire contract's answer), or whatever `setMode` says for a path. It answers CORS
 * preflight like the real ingest edge so a page on another origin can report to it.
 */
export async function startReceiver(): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const preflights: ReceivedRequest[] = [];
  const modes = new Map<string, Mode>();
  const files = new Map<string, { body: string | Buffer; type: string }>();
  const sockets = new Set<Socket>();

  const server = createServer((req, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = (req.url || '/').split('?')[0];
      const text = Buffer.concat(chunks).toString('utf8');
      let body: any = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        // keep the raw text
      }
      const record = { method: req.method || '', path, headers: req.headers, body, at: Date.now() };
      if (req.method == 'OPTIONS') {
        preflights.push(record);
        res.writeHead(204, CORS_HEADERS).end();
        return;
      }
      if (req.method == 'GET') {
        const file = files.get(path);
        if (!file) return void res.writeHead(404).end('not found');
        res.writeHead(200, { 'Content-Type': file.type, 'Cache-Control': 'no-store' }).end(file.body);
        return;
      }
      requests.push(record);
      const mode = modes.get(path);
      if (mode == 'hang') return;
      const status = mode ? mode.status : 202;
      const headers: Record<string, string> = { ...CORS_HEADERS, 'Content-Type': 'application/json' };
      if (mode && mode.retryAfter) headers['Retry-After'] = mode.retryAfter;
      const answer =
        status == 202
          ? path.endsWith('/ingest/error') && body && body.eventId
            ? { id: body.eventId }
            : {}
          : { error: { code: status == 429 ? 'RATE_LIMITED' : 'UNAVAILABLE', message: 'test mode' } };
      res.writeHead(status, headers).end(JSON.stringify(answer));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address == 'object' && address ? address.port : 0;

  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    preflights,
    posts: (path) => requests.filter((r) => r.path == path),
    setMode(path, mode) {
      if (mode) modes.set(path, mode);
      else modes.delete(path);
    },
    serve(path, body, type) {
      files.set(path, { body, type });
    },
    async waitFor(predicate, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate()) {
        if (Date.now() > deadline) throw new Error('receiver: condition not met in ' + timeoutMs + ' ms');
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    reset() {
      requests.length = 0;
      preflights.length = 0;
      modes.clear();
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
