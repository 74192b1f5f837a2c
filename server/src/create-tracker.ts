import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import {
  errorMessage,
  countDeadLetters,
  createAuthThrottle,
  createDatabaseThrottleStore,
  createRedisThrottleStore,
  createDatabaseUsageGiveBack,
  createDatabaseUsageReader,
  createRedisUsageGiveBack,
  createRedisUsageReader,
  EventSymbolicator,
  findKeyInfo,
  openDatabase,
  purgeExpired,
  purgeExpiredChunks,
  pruneAlertRuleState,
  createPartitionsAhead,
  type Clock,
  type Config,
  type Database,
  type UsageReader,
} from '@tracker/core';
import { apiPlugin, createMemoryRateLimiter, createRedisRateLimiter } from '@tracker/api';
import {
  createAlertSender,
  createDatabaseIngestGate,
  createIngestFastPath,
  createRedisIngestGate,
  IngestCounters,
  ingestPlugin,
  sentryApiPlugin,
  RecentIds,
  KeyCache,
  RedisServerWatch,
  ShardedQueue,
  type KeyCacheOptions,
  startAlertDispatcher,
  startUsageWarnings,
  startWorker,
  startMonitorScheduler,
  type RunningMonitorScheduler,
  type IngestFastPath,
  type IngestGate,
  type IngestGateOptions,
  type Queue,
  type RunningDispatcher,
  type RunningUsageWarnings,
  type RunningWorker,
  UNAVAILABLE_RETRY_AFTER_S,
} from '@tracker/ingest';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { createQueue, type QueueTuning } from './create-queue';
import { renderMetrics } from './metrics';
import { connectSharedRedis, type SharedRedis } from './shared-redis';
import { resolveSessionSecret } from './session-secret';
import { DEFAULT_SDK_DIR } from './sdk-dist/pack-sdks';
import { loadSdkAssets, type SdkAssets } from './sdk-dist/sdk-assets';
import { registerSdkRoutes } from './sdk-dist/sdk-routes';
import { mountWeb } from './web-mount';
import { chooseLogFormat, createPrettyStream } from './log-format';
import { startOperatorControl, type ControlServer } from './operator/control-start';
import { createReplayEnqueue } from './operator/replay-enqueue';
import { readTrackerVersion } from './version';

/** Behind a load balancer the health checks and ingest see many short connections. */
const KEEP_ALIVE_MS = 65_000;
/** Each `/readyz` check gets this long, so the probe answers within a second in every state. */
const READY_CHECK_TIMEOUT_MS = 800;
/** Node checks its header and request timeouts this often (its default, 30 s, would let a slow client hold a socket that long past them). */
const HTTP_TIMEOUT_CHECK_MS = 1_000;
/**
 * While requests in flight drain at shutdown, idle keep-alive connections are closed this often:
 * a connection whose request was answered after the signal is idle only from then on, and the
 * server (so the process) would otherwise wait for its keep-alive timeout.
 */
const IDLE_SWEEP_MS = 50;

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
  /**
   * The time every time-dependent rule of this process reads (default the wall clock): what the
   * edge stamps on events (snooze ends), the quota gate's month, second and leases, the edge's
   * key and retry-id caches, the GraphQL rate limit's window, alert delivery and usage warnings.
   * Tests hold it; `quota.clock` overrides it for the gate.
   */
  clock?: Clock;
  alerts?: {
    /** How often due retries are looked for (default 5 s). */
    sweepMs?: number;
    /** Delay after failed attempt n (default: 30 s doubling, capped at 1 h). */
    backoff?: (attempt: number) => number;
    timeoutMs?: number;
  };
  /** How often the worker role looks for due monitor work (default 1 s). */
  monitorTickMs?: number;
  /** The 80 % / 100 % usage-warning job of the worker role (tests: a short interval). */
  usageWarnings?: { intervalMs?: number; firstRunMs?: number };
  /** Where the SDK tarballs served under `/sdk/` are (default: server/dist/sdk, written by the build). */
  sdkDir?: string;
  /** The edge's DSN key cache (tests: a short TTL, to see keys expire during an outage). */
  keys?: Omit<KeyCacheOptions, 'clock' | 'log'>;
  /** How often Redis is asked for its `run_id` (a restart) and persistence (default 5 s). */
  redisWatchIntervalMs?: number;
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
  /** Cron and uptime monitors' due work (issue 33); runs with the worker role. */
  readonly monitors: RunningMonitorScheduler | undefined;
  /** Where this process reads monthly usage (Redis with REDIS_URL, else the database); api and worker roles only. */
  readonly usage: UsageReader | undefined;
  /** The SDK files served under `/sdk/`; undefined when the build did not pack them. */
  readonly sdk: SdkAssets | undefined;
  /** Redis's identity (restarts) and persistence as last read; with REDIS_URL only. */
  readonly redisWatch: RedisServerWatch | undefined;
  /** The ingest role's DSN key cache. */
  readonly keys: KeyCache | undefined;
  /** Base URL once listening, e.g. http://127.0.0.1:3000. */
  url: string;
  listen(): Promise<string>;
  /**
   * Stops taking requests, drains what it can and closes every connection, within
   * `config.shutdownTimeoutMs` whatever the state of Redis or the database: a step still
   * running then is abandoned (named in the result and in the log).
   */
  close(): Promise<ShutdownReport>;
}

/** What a shutdown could not finish within its deadline. */
export interface ShutdownReport {
  abandoned: string[];
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
  // This week's and the next weeks' partitions (decision 029), made by `migrate` too; idempotent.
  if (roles.has('worker')) await createPartitionsAhead(db.ds);
  let queue: Queue;
  let alertsQueue: Queue;
  let redis: SharedRedis | undefined;
  let redisWatch: RedisServerWatch | undefined;
  // The queues and the Redis watch are made before fastify and its logger: they log through this.
  let log: (level: 'info' | 'warn', message: string, data: Record<string, unknown>) => void = () => undefined;
  const logLater = (level: 'info' | 'warn', message: string, data: Record<string, unknown>) =>
    log(level, message, data);
  try {
    queue = await createQueue(config, db, {
      ...options.queue,
      log: logLater,
      backlog: roles.has('ingest')
        ? { maxItems: config.maxBacklog.items, maxBytes: config.maxBacklog.bytes }
        : undefined,
    });
    alertsQueue = await createQueue(config, db, { ...options.queue, log: logLater }, 'alerts').catch(async (err) => {
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
  let shuttingDown = false;
  /** Fastify's router, for the loopback listener that the dashboard calls GraphQL on. */
  let route: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const app = Fastify({
    serverFactory: (handler) => {
      route = handler;
      // Slow clients (a header or a body trickled a byte at a time) get 408 and lose the socket
      // after these times, so they cannot hold sockets and memory for minutes.
      const server = createServer(
        {
          headersTimeout: config.http.headersTimeoutMs,
          requestTimeout: config.http.requestTimeoutMs,
          connectionsCheckingInterval: HTTP_TIMEOUT_CHECK_MS,
        },
        (req, res) => {
          // Shutting down: fastify would answer 503 without Retry-After (lib/route.js).
          if (shuttingDown) return unavailable(res);
          if (fastPath === undefined || !fastPath(req, res)) handler(req, res);
        },
      );
      // fastify sets this on a server it creates itself (lib/server.js), not on ours.
      server.keepAliveTimeout = KEEP_ALIVE_MS;
      return server;
    },
    logger:
      config.logLevel === 'silent'
        ? false
        : chooseLogFormat(process.stdout.isTTY, config.logFormat) === 'pretty'
          ? { level: config.logLevel, stream: createPrettyStream() }
          : { level: config.logLevel },
    // A log line per request would cost the ingest edge a good share of its throughput;
    // errors are still logged by each edge's error handler.
    logController: new LogController({ disableRequestLogging: true }),
    keepAliveTimeout: KEEP_ALIVE_MS,
    // Idle connections close at once; requests in flight may finish (close() bounds the wait).
    forceCloseConnections: 'idle',
    // Off: the dashboard's GraphQL calls (the internal listener, below) must be answered while the
    // public port drains; public requests that arrive during shutdown get 503 from our own handler.
    return503OnClosing: false,
    // request.protocol and request.ip read X-Forwarded-Proto / -For only when the connection comes
    // from one of these: from anyone else the headers are the client's own words.
    trustProxy: config.trustedProxies.length > 0 ? config.trustedProxies : false,
  });

  log = (level, message, data) => app.log[level](data, message);
  if (config.redisUrl) {
    // Read at every start: the warning when Redis would lose accepted events goes to each
    // process's log (docs/reliability.md, "Redis must persist").
    redisWatch = await RedisServerWatch.start({
      url: config.redisUrl,
      intervalMs: options.redisWatchIntervalMs,
      log: logLater,
    }).catch(async (err) => {
      await redis?.close();
      await queue.close();
      await alertsQueue.close();
      await db.close();
      throw err;
    });
  }

  // Every 503 and 429 carries Retry-After (SDKs and load balancers back off by it); the routes
  // that know better set their own.
  app.addHook('onSend', async (_request, reply) => {
    const status = reply.statusCode;
    if ((status === 503 || status === 429) && !reply.hasHeader('retry-after')) {
      reply.header('retry-after', String(status === 429 ? 1 : UNAVAILABLE_RETRY_AFTER_S));
    }
  });

  app.get('/healthz', async () => ({ status: 'ok' }));
  const readiness = new ReadinessChecks({
    database: () => db.ds.query('SELECT 1'),
    queue: () => queue.ping(),
  });
  app.get('/readyz', async (_request, reply) => {
    const checks = await readiness.run(READY_CHECK_TIMEOUT_MS);
    // Detail, not a check: a Redis without persistence still works, it only cannot keep the
    // 202 promise through its own restart (the warning at start says so).
    // Not the run_id: a load balancer's probe has no use for it.
    const detail = {
      ...(redisWatch
        ? { redis: { restarts: redisWatch.current.restarts, persistence: redisWatch.current.persistence } }
        : {}),
      // Ready while any shard answers (ShardedQueue.ping); which ones do is said here.
      ...(queue instanceof ShardedQueue ? { queueShards: await queue.pingShards(READY_CHECK_TIMEOUT_MS) } : {}),
    };
    if (Object.values(checks).every((c) => c === 'ok')) {
      return { status: 'ready', database: db.kind, queue: queue.kind, checks, ...detail };
    }
    return reply
      .code(503)
      .header('retry-after', String(UNAVAILABLE_RETRY_AFTER_S))
      .send({ status: 'unavailable', database: db.kind, queue: queue.kind, checks, ...detail });
  });

  // The SDKs, served by the instance itself (docs/decisions/014): every role answers /sdk/, as
  // it answers /healthz, so whatever process the load balancer picks has them.
  const sdkAssets = loadSdkAssets(options.sdkDir ?? DEFAULT_SDK_DIR, () => config.publicUrl);
  if (!sdkAssets)
    app.log.warn(`no SDK tarballs in ${options.sdkDir ?? DEFAULT_SDK_DIR}: /sdk/ answers 404 (run npm run build)`);
  registerSdkRoutes(app, sdkAssets);

  const tracker: Tracker = {
    app,
    db,
    queue,
    worker: undefined,
    alertsQueue,
    dispatcher: undefined,
    monitors: undefined,
    ingestFastPath: undefined,
    usageWarnings: undefined,
    usage,
    sdk: sdkAssets,
    redisWatch,
    keys: undefined,
    url: '',
    listen,
    close,
  };

  const ingestCounters = roles.has('ingest') ? new IngestCounters() : undefined;
  app.get('/metrics', async (_request, reply) =>
    reply.type('text/plain; version=0.0.4; charset=utf-8').send(
      await renderMetrics({
        db,
        queue,
        alertsQueue,
        worker: () => tracker.worker,
        ingest: ingestCounters,
        keys: tracker.keys,
        redis: redisWatch?.current,
      }),
    ),
  );

  let gate: IngestGate | undefined;
  let keys: KeyCache | undefined;
  if (roles.has('ingest')) {
    keys = new KeyCache((key) => findKeyInfo(db.ds, key), { ...options.keys, clock: options.clock, log: logLater });
    (tracker as { keys: KeyCache | undefined }).keys = keys;
    // Quotas and rate limits (docs/quotas.md): counted in Redis when there is one, else in the database.
    if (options.quota !== false) {
      const quota = { clock: options.clock, ...options.quota };
      gate = config.redisUrl
        ? await createRedisIngestGate(db.ds, { url: config.redisUrl, prefix: config.redisPrefix }, quota)
        : createDatabaseIngestGate(db.ds, quota);
    }
    const recent = new RecentIds({ clock: options.clock });
    await ingestPlugin(app, {
      queue,
      keys,
      ds: db.ds,
      gate,
      counters: ingestCounters,
      recent,
      clock: options.clock,
      // Sentry's SDKs send to `<path of the DSN>/api/<number>/envelope/`.
      publicPathPrefix: new URL(config.publicUrl).pathname.replace(/\/+$/, ''),
    });
    // Beside the envelope routes: the part of Sentry's web API that sentry-cli and the bundler
    // plugins call, on upload tokens (ingest/src/sentry-api/, docs/sentry-compatibility.md).
    await sentryApiPlugin(app, {
      ds: db.ds,
      clock: options.clock,
      pathPrefix: new URL(config.publicUrl).pathname.replace(/\/+$/, ''),
    });
    fastPath = createIngestFastPath({
      queue,
      keys,
      gate,
      recent,
      counters: ingestCounters,
      clock: options.clock,
      logError: (err) => app.log.error({ err }, 'ingest request failed'),
    });
    (tracker as { ingestFastPath: IngestFastPath | undefined }).ingestFastPath = fastPath;
  }
  // Signs dashboard cookies, and the browser addresses web passes to api (X-Tracker-Client-Address).
  // An api-only process has it only when configured: one generated here could never match web's.
  const sessionSecret = roles.has('web')
    ? resolveSessionSecret(config.sessionSecret, config.dataDir)
    : config.sessionSecret;
  // Dead letters replayed from the admin screen or the control socket: this process's queues.
  const enqueueReplay = createReplayEnqueue(config, db, { jobs: queue, alerts: alertsQueue });
  let api: { stop(): Promise<void> } | undefined;
  if (roles.has('api')) {
    // GraphQL requests per token: shared by every api process through Redis when there is one.
    const rateLimiter = redis
      ? createRedisRateLimiter(redis.rateLimit, config.redisPrefix, config.graphqlRateLimit, options.clock)
      : createMemoryRateLimiter(config.graphqlRateLimit, options.clock);
    api = await apiPlugin(app, {
      ds: db.ds,
      config,
      usage: usage!,
      rateLimiter,
      // Failed sign-ins, codes, resets: counted across every api process (Redis), or in the database.
      throttle: createAuthThrottle(
        redis ? createRedisThrottleStore(redis.throttle, config.redisPrefix) : createDatabaseThrottleStore(db.ds),
        {
          clock: options.clock,
          onStoreError: (err) => app.log.error({ err }, 'auth throttle store failed; attempt let through'),
        },
      ),
      clientAddressSecret: sessionSecret,
      // With the ingest role here too, a project's new privacy settings apply to its next event.
      onProjectChanged: (projectId) => keys?.invalidateProject(projectId),
      clock: options.clock,
      enqueueReplay,
      instanceVersion: readTrackerVersion(),
      // "Send test notification" goes through the dispatcher's channel code, from this process.
      sendAlert: createAlertSender({
        allowPrivateTargets: config.allowPrivateTargets,
        smtp: config.smtp,
        timeoutMs: options.alerts?.timeoutMs,
        clock: options.clock,
        log: (level, msg, data) => app.log[level](data ?? {}, msg),
      }),
    });
  }
  if (roles.has('web')) {
    await mountWeb(app, {
      apiUrl: () => config.apiUrl ?? internalApiUrl ?? `${tracker.url}/graphql`,
      sessionSecret: sessionSecret ?? resolveSessionSecret(config.sessionSecret, config.dataDir),
      sdk: () => sdkAssets?.setupInfo(),
      publicUrl: () => config.publicUrl,
    });
  }

  // With the api and web roles in one process, the dashboard calls GraphQL on a listener of its
  // own on loopback, not on the public port: at shutdown the public port stops taking connections
  // at once, and a page in flight then could not make its calls (it answered "API unreachable";
  // docs/decisions/038).
  let internalApi: Server | undefined;
  let internalApiUrl: string | undefined;
  /** Embedded only: operator commands while this process holds the data folder (decision 052). */
  let control: ControlServer | null = null;

  async function listen(): Promise<string> {
    await app.listen({ port: config.port, host: config.host });
    if (roles.has('api') && roles.has('web') && !config.apiUrl && route) {
      const server = createServer(
        { headersTimeout: config.http.headersTimeoutMs, requestTimeout: config.http.requestTimeoutMs },
        route,
      );
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', () => resolve());
      });
      internalApi = server;
      internalApiUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/graphql`;
    }
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    tracker.url = `http://127.0.0.1:${port}`;
    if (publicUrlFromPort) config.publicUrl = `http://localhost:${port}`;
    if (db.kind === 'pglite') {
      control = await startOperatorControl({
        config,
        db,
        enqueue: enqueueReplay,
        onProjectChanged: (projectId) => keys?.invalidateProject(projectId),
        log: (level, msg, data) => app.log[level](data ?? {}, msg),
      });
    }
    if (roles.has('worker')) {
      (tracker as { worker: RunningWorker | undefined }).worker = startWorker({
        ds: db.ds,
        queue,
        batchSize: config.workerBatchSize,
        // Only a one-connection database (PGlite) makes the edge wait for the worker's transactions.
        transactionTargetMs: db.kind === 'pglite' ? config.workerTransactionMs : 0,
        symbolicator: new EventSymbolicator(db.ds, { maxCacheBytes: config.sourcemapCacheMb * 1024 * 1024 }),
        alerts: alertsQueue,
        publicUrl: () => config.publicUrl,
        clock: options.clock,
        log: (level, msg, data) => app.log[level](data ?? {}, msg),
        // Events of discarded issues the edge could not recognize: their quota units go back
        // where the edge counted them (docs/quotas.md).
        giveBackUsage: redis
          ? createRedisUsageGiveBack(redis.rateLimit, config.redisPrefix)
          : config.redisUrl
            ? undefined
            : createDatabaseUsageGiveBack(db.ds),
      });
      (tracker as { dispatcher: RunningDispatcher | undefined }).dispatcher = startAlertDispatcher({
        ds: db.ds,
        queue: alertsQueue,
        allowPrivateTargets: config.allowPrivateTargets,
        smtp: config.smtp,
        sweepMs: options.alerts?.sweepMs,
        backoff: options.alerts?.backoff,
        timeoutMs: options.alerts?.timeoutMs,
        clock: options.clock,
        log: (level, msg, data) => app.log[level](data ?? {}, msg),
      });
      // Monitors (issue 33): missed check-ins, timeouts and uptime checks, claimed in the database.
      (tracker as { monitors: RunningMonitorScheduler | undefined }).monitors = startMonitorScheduler({
        ds: db.ds,
        alerts: alertsQueue,
        publicUrl: () => config.publicUrl,
        clock: options.clock,
        intervalMs: options.monitorTickMs,
        allowPrivateTargets: config.allowPrivateTargets,
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
        clock: options.clock,
        log: (level, msg, data) => app.log[level](data ?? {}, msg),
      });
      // Retention (docs/quotas.md): hourly, a minute after start; one process at a time purges.
      const purge = () => {
        purging = purgeExpired(db.ds)
          .then(async (r) => {
            if (
              r.events +
                r.logs +
                r.vitals +
                r.comments +
                r.activity +
                r.discardedEvents +
                r.ledgerIds +
                r.sessionStates +
                r.auditLog >
                0 ||
              r.analyzeMs !== null
            )
              app.log.info(r, 'retention purge');
            // Alert state of deleted and long-quiet issues (core/src/alerts/prune-rule-state.ts).
            const pruned = await pruneAlertRuleState(db.ds);
            if (pruned > 0) app.log.info({ pruned }, 'alert rule state pruned');
            // sentry-cli chunks never assembled (docs/sentry-compatibility.md): kept 24 h.
            const chunks = await purgeExpiredChunks(db.ds, (options.clock ?? Date.now)());
            if (chunks > 0) app.log.info({ chunks }, 'unassembled upload chunks purged');
          })
          .catch((err) => app.log.error({ err }, 'retention purge failed'));
      };
      retentionTimers.push(setTimeout(purge, 60_000), setInterval(purge, 3_600_000));
      // Dead letters wait for an operator: say so in the worker's log at start and when more come.
      let deadLetters = 0;
      const watchDeadLetters = () => {
        countDeadLetters(db.ds).then(
          (n) => {
            if (n > deadLetters) {
              app.log.warn(
                { deadLetters: n, new: n - deadLetters },
                'dead letters are waiting: npm run tracker -- dead-letter:list (then replay or purge)',
              );
            }
            deadLetters = n;
          },
          () => undefined, // the database is down: the worker's own log says so
        );
      };
      retentionTimers.push(setTimeout(watchDeadLetters, 1_000), setInterval(watchDeadLetters, 60_000));
      for (const t of retentionTimers) t.unref();
    }
    return tracker.url;
  }

  const retentionTimers: NodeJS.Timeout[] = [];
  let purging: Promise<void> = Promise.resolve();
  let closing: Promise<ShutdownReport> | undefined;
  function close(): Promise<ShutdownReport> {
    // Order matters: stop taking requests, let the worker finish its batch, then drop the
    // connections it was using. Each step gets what is left of the deadline: a stuck Redis or
    // database must not keep the process from exiting (an orchestrator would SIGKILL it, losing
    // the log of what was left undone).
    closing ??= (async () => {
      shuttingDown = true;
      const deadline = Date.now() + config.shutdownTimeoutMs;
      const abandoned: string[] = [];
      const step = async (name: string, work: () => Promise<unknown> | undefined, capMs = Infinity) => {
        // Steps past the deadline still run (they destroy connections), briefly.
        const budget = Math.max(100, Math.min(capMs, deadline - Date.now()));
        let timer: NodeJS.Timeout | undefined;
        const timedOut = new Promise<'timeout'>((r) => (timer = setTimeout(r, budget, 'timeout')));
        const outcome = await Promise.race([
          Promise.resolve()
            .then(work)
            .then(
              () => 'done' as const,
              () => 'done' as const,
            ),
          timedOut,
        ]);
        clearTimeout(timer);
        if (outcome === 'timeout') abandoned.push(name);
      };
      // Requests in flight get a few seconds (an enqueue fails within ~1 s); then their
      // connections are cut.
      await step('control socket (operator commands)', () => control?.close());
      const idleSweep = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS);
      await step('HTTP requests in flight', () => app.close(), Math.min(3_000, config.shutdownTimeoutMs / 2));
      clearInterval(idleSweep);
      if (abandoned.length > 0) {
        app.server.closeAllConnections();
        await step('HTTP server close', () => app.close());
      }
      // After the public port: the pages in flight there made their GraphQL calls on this one.
      await step('internal GraphQL listener', () => closeServer(internalApi, abandoned.length > 0));
      await step('ingest quota counts (units held by this process stay counted this month)', () => gate?.close());
      await step('GraphQL server', () => api?.stop());
      await step('worker batch in hand (delivered again to the next worker)', () => tracker.worker?.stop());
      await step('alert deliveries in hand (retried by the next dispatcher)', () => tracker.dispatcher?.stop());
      await step('usage warnings run', () => tracker.usageWarnings?.stop());
      await step('monitor pass', () => tracker.monitors?.stop());
      for (const t of retentionTimers) clearTimeout(t);
      await step('retention purge (runs again at the next start)', () => purging);
      await step('shared Redis connection', () => redis?.close());
      await step('Redis watch connection', () => redisWatch?.close());
      await step('queue connection (unconfirmed enqueues were answered 503)', () => queue.close());
      await step('alerts queue connection', () => alertsQueue.close());
      await step('database connections', () => db.close());
      if (abandoned.length > 0) {
        app.log.warn(
          { abandoned },
          `shutdown deadline of ${config.shutdownTimeoutMs} ms: abandoned ${abandoned.join('; ')}`,
        );
      }
      return { abandoned };
    })();
    return closing;
  }

  return tracker;
}

/** Stops a listener; its idle connections (or, `force`, all of them) are closed at once. */
function closeServer(server: Server | undefined, force: boolean): Promise<void> | undefined {
  if (!server) return undefined;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  if (force) server.closeAllConnections();
  else server.closeIdleConnections();
  return closed;
}

/** 503 with Retry-After, written directly (the request is not read). */
function unavailable(res: ServerResponse): void {
  const body = JSON.stringify({ error: { code: 'UNAVAILABLE', message: 'shutting down; retry later' } });
  res.writeHead(503, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'retry-after': String(UNAVAILABLE_RETRY_AFTER_S),
    connection: 'close',
  });
  res.end(body);
}

/**
 * The `/readyz` checks, each raced against a timeout so the probe answers in every state, and
 * each run at most once at a time: probes arriving while a check hangs (a stuck database holds
 * its query) share it instead of piling up more stuck queries.
 */
class ReadinessChecks {
  private readonly inflight = new Map<string, Promise<string>>();

  constructor(private readonly checks: Record<string, () => Promise<unknown>>) {}

  /** Each check's outcome: `ok`, `timeout after N ms`, or the error's message. */
  async run(timeoutMs: number): Promise<Record<string, string>> {
    const names = Object.keys(this.checks);
    const outcomes = await Promise.all(names.map((name) => this.runOne(name, timeoutMs)));
    return Object.fromEntries(names.map((name, i) => [name, outcomes[i]]));
  }

  private runOne(name: string, timeoutMs: number): Promise<string> {
    let check = this.inflight.get(name);
    if (!check) {
      check = Promise.resolve()
        .then(this.checks[name])
        .then(
          () => 'ok',
          (err: unknown) => `error: ${errorMessage(err)}`,
        )
        .finally(() => this.inflight.delete(name));
      this.inflight.set(name, check);
    }
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<string>((r) => (timer = setTimeout(r, timeoutMs, `timeout after ${timeoutMs} ms`)));
    return Promise.race([check, timedOut]).finally(() => clearTimeout(timer));
  }
}
