import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';

/** One request the receiver saw. */
export interface Upload {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body's size in bytes. */
  bytes: number;
  body: any;
}

/** How to answer one request: a status and JSON body, or a TCP reset (ECONNRESET for the client). */
export type Answer = { status: number; body?: unknown; headers?: Record<string, string> } | 'reset';

export interface UploadReceiver {
  /** e.g. `http://127.0.0.1:43121` */
  origin: string;
  /** Every request, in order (reset ones included). */
  uploads: Upload[];
  /** Answers for the next requests, in order; afterwards the ingest edge's `200 {release, stored}`. */
  answerNext(...answers: Answer[]): void;
  reset(): void;
  close(): Promise<void>;
}

/**
 * A stand-in for `POST /ingest/sourcemaps` on 127.0.0.1 (port 0), speaking the wire contract:
 * `200 {"release", "stored": N}` by default, or the queued answers.
 */
export async function startUploadReceiver(): Promise<UploadReceiver> {
  const uploads: Upload[] = [];
  const queue: Answer[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      let body: any = raw.toString('utf8');
      try {
        body = JSON.parse(body);
      } catch {
        // keep the text
      }
      uploads.push({
        method: req.method || '',
        path: (req.url || '/').split('?')[0],
        headers: req.headers,
        bytes: raw.length,
        body,
      });
      const answer = queue.shift();
      if (answer == 'reset') return void req.socket.resetAndDestroy();
      const status = answer ? answer.status : 200;
      const json = answer
        ? answer.body
        : { release: body.release, stored: Array.isArray(body.files) ? body.files.length : 0 };
      res
        .writeHead(status, { 'Content-Type': 'application/json', ...(answer ? answer.headers : {}) })
        .end(JSON.stringify(json));
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
    uploads,
    answerNext: (...answers) => void queue.push(...answers),
    reset() {
      uploads.length = 0;
      queue.length = 0;
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
