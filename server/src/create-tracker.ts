import { createServer } from 'node:http';
import {
  createDatabaseUsageReader,
  createRedisUsageReader,
  EventSymbolicator,
  findKeyInfo,
  openDatabase,
  purgeExpired,
  type Config,
  type Database,
  type UsageReader,
} from '@tracker/core';
import { apiPlugin, createMemoryRateLimiter, createRedisRateLimiter } from '@tracker/api';
import {
  createDatabaseIngestGate,
  createIngestFastPath,
  createRedisIngestGate,
  ingestPlugin,
  KeyCache,
  startAlertDispatcher,
  startUsageWarnings,
  startWorker,
  type IngestFastPath,
  type IngestGate,
  type IngestGateOptions,
  type Queue,
  type RunningDispatcher,
  type RunningUsageWarnings,
  type RunningWorker,
} from '@tracker/ingest';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { createQueue, type QueueTuning } from './create-queue';
import { connectSharedRedis, type SharedRedis } from './shared-redis';
import { resolveSessionSecret } from './session-secret';
import { mountWeb } from './web-mount';

/** Behind a load balancer the health checks and ingest see many short connections. */
const KEEP_ALIVE_MS = 65_000;

export interface TrackerOptions {
  config: Config;
  /** Run pending migrations at start (the all-in-one default). */
  migrate?: boolean;
  queue?: QueueTuning;
  /**
   * Rate limits and event quotas at the ingest edge (tests: a small limit, a shorter plan TTL).
   * `false` turns them off: only for the benchmark that measures what they cost.
   */
  quota?: IngestGateOptions | false;
  alerts?: {
    /** How often due retries are looked for (default 5 s). */
    sweepMs?: number;
    /** Delay after failed attempt n (default: 30 s doubling, capped at 1 h). */
    backoff?: (attempt: number) => number;
    timeoutMs?: number;
  };
  /** The 80 % / 100 % usage-warning job of the worker role (tests: a short interval). */
  usageWarnings?: { intervalMs?: number; firstRunMs?: number };
}

/** A running set of roles sharing one database, one queue and one HTTP port. */
export interface Tracker {
  readonly app: FastifyInstance;
  readonly db: Database;
  readonly queue: Queue;
  readonly worker: RunningWorker | undefined;
  /** Alert deliveries; runs with the worker role. */
  readonly alertsQueue: Queue;
  /** The ingest role's fast path (`ingest/src/http/fast-path.ts`), when this process has the role. */
  readonly ingestFastPath: IngestFastPath | undefined;
  readonly dispatcher: RunningDispatcher | undefined;
  /** Usage warnings by email; runs with the worker role. */
  readonly usageWarnings: RunningUsageWarnings | undefined;
  /** Where this process reads monthly usage (Redis with REDIS_URL, else the database); api and worker roles only. */
  readonly usage: UsageReader | undefined;
  /** Base URL once listening, e.g. http://127.0.0.1:3000. */
  url: string;
  listen(): Promise<string>;
  close(): Promise<void>;
}

export async function createTracker(options: TrackerOptions): Promise<Tracker> {
  // A copy: listen() fills in the public URL when the port was chosen by the OS.
  const config: Config = { ...options.config };
  const publicUrlFromPort = config.publicUrl === `http://localhost:${config.port}`;
  const roles = new Set(config.roles);
  const db = await openDatabase(config, { migrate: options.migrate ?? true });
  if (!(options.migrate ?? true) && (await db.ds.showMigrations())) {
    await db.close();
    throw new Error('The database has pending migrations: run `npm run tracker -- migrate` first.');
  }
  let queue: Queue;
  let alertsQueue: Queue;
  let redis: SharedRedis | undefined;
  try {
    queue = await createQueue(config, db, options.queue);
    alertsQueue = await createQueue(config, db, options.queue, 'alerts').catch(async (err) => {
      await queue.close();
      throw err;
    });
    // Only the api (usage, rate limit) and the worker (usage warnings) read through it.
    if (config.redisUrl && (roles.has('api') || roles.has('worker'))) {
      redis = await connectSharedRedis(config.redisUrl).catch(async (err) => {
        await queue.close();
        await alertsQueue.close();
        throw err;
      });
    }
  } catch (err) {
    await db.close();
    throw err;
  }
  // Usage counters live where the ingest gate keeps them: Redis when there is one (docs/quotas.md).
  const usage: UsageReader | undefined = redis
    ? createRedisUsageReader(redis.usage, config.redisPrefix)
    : config.redisUrl
      ? undefined
      : createDatabaseUsageReader(db.ds);

  // The ingest role's fast path answers plain `POST /ingest/error` requests before fastify sees
  // them (ingest/src/http/fast-path.ts); everything else, and every unusual request, goes on.
  let fastPath: IngestFastPath | undefined;
  const app = Fastify({
    serverFactory: (handler) => {
      const server = createServer((req, res) => {
        if (fastPath === undefined || !fastPath(req, res)) handler(req, res);
      });
      // fastify sets this on a server it creates itself (lib/server.js), not on ours; its other
      // timeouts default to Node's (0), which a new server already has.
      server.keepAliveTimeout = KEEP_ALIVE_MS;
      return server;
    },
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel },
    // A log line per request would cost the ingest edge a good share of its throughput;
    // errors are still logged by each edge's error handler.
    logController: new LogController({ disableRequestLogging: true }),
    keepAliveTimeout: KEEP_ALIVE_MS,
    forceCloseConnections: true,
  });

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    try {
      await Promise.all([db.ds.query('SELECT 1'), queue.ping()]);
      return { status: 'ready', database: db.kind, queue: queue.kind };
    } catch (err) {
      return reply.code(503).send({ status: 'unavailable', error: (err as Error).message });
    }
  });

  const tracker: Tracker = {
    app,
    db,
    queue,
    worker: undefined,
    alertsQueue,
    dispatcher: undefined,
    ingestFastPath: undefined,
    usageWarnings: undefined,
    usage,
    url: '',
    listen,
    close,
  };

  let gate: IngestGate | undefined;
  if (roles.has('ingest')) {
    const keys = new KeyCache((key) => findKeyInfo(db.ds, key));
    // Quotas and rate limits (DESIGN §6): counted in Redis when there is one, else in the database.
    if (options.quota !== false) {
      gate = config.redisUrl
        ? await createRedisIngestGate(db.ds, { url: config.redisUrl, prefix: config.redisPrefix }, options.quota)
        : createDatabaseIngestGate(db.ds, options.quota);
    }
    await ingestPlugin(app, { queue, keys, ds: db.ds, gate });
    fastPath = createIngestFastPath({
      queue,
      keys,
      gate,
      logError: (err) => app.log.error({ err }, 'ingest request failed'),
    });
    (tracker as { ingestFastPath: IngestFastPath | undefined }).ingestFastPath = fastPath;
  }
  let api: { stop(): Promise<void> } | undefined;
  if (roles.has('api')) {
    // GraphQL requests per token: shared by every api process through Redis when there is one.
    const rateLimiter = redis
      ? createRedisRateLimiter(redis.rateLimit, config.redisPrefix, config.graphqlRateLimit)
      : createMemoryRateLimiter(config.graphqlRateLimit);
    api = await apiPlugin(app, { ds: db.ds, config, usage: usage!, rateLimiter });
  }
  if (roles.has('web')) {
    await mountWeb(app, {
      apiUrl: () => config.apiUrl ?? `${tracker.url}/graphql`,
      sessionSecret: resolveSessionSecret(config.sessionSecret, config.dataDir),
    });
  }

  async function listen(): Promise<string> {
    await app.listen({ port: config.port, host: config.host });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    tracker.url = `http://127.0.0.1:${port}`;
    if (publicUrlFromPort) config.publicUrl = `http://localhost:${port}`;
    if (roles.has('worker')) {
      (tracker as { worker: RunningWorker | undefined }).worker = startWorker({
        ds: db.ds,
        queue,
        batchSize: config.workerBatchSize,
        symbolicator: new EventSymbolicator(db.ds, { maxCacheBytes: config.sourcemapCacheMb * 1024 * 1024 }),
        alerts: alertsQueue,
        publicUrl: () => config.publicUrl,
        log: (level, msg, data) => app.log[level](data ?? {}, msg),
      });
      (tracker as { dispatcher: RunningDispatcher | undefined }).dispatcher = startAlertDispatcher({
        ds: db.ds,
        queue: alertsQueue,
        allowPrivateTargets: config.allowPrivateTargets,
        smtp: config.smtp,
        sweepMs: options.alerts?.sweepMs,
        backoff: options.alerts?.backoff,
        timeoutMs: options.alerts?.timeoutMs,
        log: (level, msg, data) => app.log[level](data ?? {}, msg),
      });
      // Usage warnings (issue 5): every minute, emails owners and admins at 80 % and 100 %.
      (tracker as { usageWarnings: RunningUsageWarnings | undefined }).usageWarnings = startUsageWarnings({
        ds: db.ds,
        reader: usage!,
        smtp: config.smtp,
        publicUrl: () => config.publicUrl,
        intervalMs: options.usageWarnings?.intervalMs,
        firstRunMs: options.usageWarnings?.firstRunMs,
        log: (level, msg, data) => app.log[level](data ?? {}, msg),
      });
      // Retention (DESIGN §6): hourly, a minute after start; one process at a time purges.
      const purge = () => {
        purging = purgeExpired(db.ds)
          .then((r) => {
            if (r.events + r.logs + r.vitals > 0) app.log.info(r, 'retention purge');
          })
          .catch((err) => app.log.error({ err }, 'retention purge failed'));
      };
      retentionTimers.push(setTimeout(purge, 60_000), setInterval(purge, 3_600_000));
      for (const t of retentionTimers) t.unref();
    }
    return tracker.url;
  }

  const retentionTimers: NodeJS.Timeout[] = [];
  let purging: Promise<void> = Promise.resolve();
  let closing: Promise<void> | undefined;
  function close(): Promise<void> {
    // Order matters: stop taking requests, let the worker finish its batch, then drop the
    // connections it was using.
    closing ??= (async () => {
      await app.close();
      await gate?.close();
      await api?.stop();
      await tracker.worker?.stop();
      await tracker.dispatcher?.stop();
      await tracker.usageWarnings?.stop();
      for (const t of retentionTimers) clearTimeout(t);
      await purging;
      await redis?.close();
      await queue.close();
      await alertsQueue.close();
      await db.close();
    })();
    return closing;
  }

  return tracker;
}
