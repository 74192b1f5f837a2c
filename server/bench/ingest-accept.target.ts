/**
 * A load target of ingest-accept.bench.ts, run in a child process of its own (forked by the
 * bench) so that it does not share an event loop with the load generator.
 *
 *   argv[2] = 'bare'    a plain node:http server: read the body, answer 202 {"id": "<uuid>"}
 *   argv[2] = 'fastify' the framework floor: fastify configured as createTracker configures it,
 *                       one POST /ingest/error route (1 MB body limit, fastify's JSON parser)
 *                       that answers 202 {"id": "<uuid>"}; no auth, validation or queue
 *   argv[2] = 'tracker' createTracker with roles ['ingest'] (PostgreSQL + Redis from the env)
 *   argv[2] = 'tracker-nogate' the same with the quota and rate-limit checks off
 *
 * Protocol over the IPC channel: the child sends {type: 'ready', url}; the parent may send
 * 'cpu' (answer: {type: 'cpu', micros}, the CPU time used so far) and finally sends
 * 'stop'; the child answers {type: 'stopped', accepted, enqueued} and exits. When the
 * parent goes away the channel closes and the child exits too.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '@tracker/core';
import Fastify, { LogController } from 'fastify';
import { createTracker } from '../src';

type Reply =
  | { type: 'ready'; url: string }
  | { type: 'stopped'; accepted: number; enqueued: number }
  | { type: 'cpu'; micros: number }
  | { type: 'error'; message: string };

interface Running {
  url: string;
  /** 202 responses written in full. */
  accepted: () => number;
  /** Tracker only: payloads enqueued (resolved). */
  enqueued: () => number;
  close: () => Promise<void>;
}

const send = (msg: Reply) => process.send?.(msg);

/** Counts the 202s actually written, identically for both targets (one listener per response). */
function countAccepted(server: Server): () => number {
  let accepted = 0;
  server.on('request', (_req, res) => {
    res.once('finish', () => {
      if (res.statusCode === 202) accepted += 1;
    });
  });
  return () => accepted;
}

async function startBare(): Promise<Running> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      Buffer.concat(chunks);
      const body = JSON.stringify({ id: randomUUID() });
      res.writeHead(202, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
      });
      res.end(body);
    });
  });
  server.keepAliveTimeout = 65_000;
  const accepted = countAccepted(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    accepted,
    enqueued: () => 0,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

async function startFastify(): Promise<Running> {
  // The options createTracker passes (server/src/create-tracker.ts).
  const app = Fastify({
    logger: false,
    logController: new LogController({ disableRequestLogging: true }),
    keepAliveTimeout: 65_000,
    forceCloseConnections: true,
  });
  app.post('/ingest/error', { bodyLimit: 1024 * 1024 }, async (_request, reply) =>
    reply.code(202).send({ id: randomUUID() }),
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  const accepted = countAccepted(app.server);
  const { port } = app.server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, accepted, enqueued: () => 0, close: () => app.close() };
}

/** Tracker's ingest role; `gate` false turns quotas and rate limits off (to measure what they cost). */
async function startTracker(gate: boolean): Promise<Running> {
  const env = process.env;
  const config = loadConfig({
    NODE_ENV: 'production',
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: env.BENCH_DATABASE_URL,
    REDIS_URL: env.BENCH_REDIS_URL,
    TRACKER_REDIS_PREFIX: env.BENCH_REDIS_PREFIX,
    TRACKER_DATA_DIR: env.BENCH_DATA_DIR,
    TRACKER_ROLES: 'ingest',
    TRACKER_LOG_LEVEL: env.BENCH_LOG_LEVEL || 'silent',
  });
  // The parent migrated the database; a pending migration here would be a setup bug.
  const tracker = await createTracker({ config, migrate: false, quota: gate ? undefined : false });
  const accepted = countAccepted(tracker.app.server);
  // Payloads whose enqueue resolved, i.e. that were durably in the stream before the 202 was
  // sent. It can exceed the 202s written: when autocannon stops it drops connections with
  // requests in flight, which are enqueued but never answered.
  let enqueued = 0;
  const enqueue = tracker.queue.enqueue.bind(tracker.queue);
  tracker.queue.enqueue = async (payloads) => {
    await enqueue(payloads);
    enqueued += payloads.length;
  };
  const url = await tracker.listen();
  return { url, accepted, enqueued: () => enqueued, close: async () => void (await tracker.close()) };
}

async function main(): Promise<void> {
  const kind = process.argv[2];
  if (kind !== 'bare' && kind !== 'fastify' && kind !== 'tracker' && kind !== 'tracker-nogate') {
    throw new Error(`unknown target ${kind}`);
  }
  const target =
    kind === 'bare'
      ? await startBare()
      : kind === 'fastify'
        ? await startFastify()
        : await startTracker(kind === 'tracker');
  process.on('message', (msg) => {
    if (msg === 'cpu') {
      // CPU time this process has used so far (user + system, µs): the parent takes it before
      // and after a measured run, which tells the cost per request even on a busy machine.
      const { user, system } = process.cpuUsage();
      send({ type: 'cpu', micros: user + system });
      return;
    }
    if (msg !== 'stop') return;
    void (async () => {
      await target.close().catch(() => undefined);
      const reply: Reply = { type: 'stopped', accepted: target.accepted(), enqueued: target.enqueued() };
      // Exit once the answer is flushed to the parent.
      process.send?.(reply, () => process.exit(0));
    })();
  });
  // The parent died or closed the channel: nothing left to serve.
  process.on('disconnect', () => process.exit(0));
  send({ type: 'ready', url: target.url });
}

main().catch((err: Error) => {
  send({ type: 'error', message: err.stack ?? err.message });
  process.exit(1);
});
