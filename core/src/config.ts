import { isIP } from 'node:net';
import { z } from 'zod';
import { DEFAULT_DATA_DIR } from './db/pglite-prewarm';
import { parseRedisUrl } from './redis-url';

/** The roles one process can run; `server` starts any subset of them. */
export const ROLES = ['ingest', 'worker', 'api', 'web'] as const;
export type ServiceRole = (typeof ROLES)[number];

const roleList = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((r) => r.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.enum(ROLES)).min(1, 'name at least one role'));

const optionalUrl = z.preprocess((v) => (v === '' ? undefined : v), z.string().url().optional());
const optionalText = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
  z.string().trim().min(1).optional(),
);

/** proxy-addr's names (fastify's `trustProxy`): 127.0.0.0/8 and ::1; 169.254.0.0/16 and fe80::/10; 10/8, 172.16/12, 192.168/16 and fc00::/7. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** One entry of TRACKER_TRUSTED_PROXIES: an address, `address/prefix`, or a name above. */
function isProxyRange(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const version = isIP(address ?? '');
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

const trustedProxyList = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean),
  )
  .pipe(
    z.array(
      z.string().refine(isProxyRange, {
        error: (issue) =>
          `${String(issue.input)} is not an address, an address/prefix (CIDR) or one of loopback, linklocal, uniquelocal`,
      }),
    ),
  );

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: optionalUrl,
  /** One server (`redis://`, `rediss://`) or a cluster's seeds (`redis+cluster://h1:7000,h2:7001`): core/src/redis-url.ts. */
  REDIS_URL: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .superRefine((url, ctx) => {
        try {
          parseRedisUrl(url);
        } catch (err) {
          ctx.addIssue({ code: 'custom', message: err instanceof Error ? err.message : String(err) });
        }
      })
      .optional(),
  ),
  TRACKER_DATA_DIR: z.string().min(1).default(DEFAULT_DATA_DIR),
  TRACKER_PUBLIC_URL: optionalUrl,
  /**
   * Reverse proxies whose X-Forwarded-For / X-Forwarded-Proto / X-Forwarded-Host are believed:
   * addresses, CIDRs or proxy-addr's names, comma-separated. Empty: those headers are ignored.
   */
  TRACKER_TRUSTED_PROXIES: trustedProxyList.default([]),
  /** Where the dashboard's server calls GraphQL; defaults to this process when it runs the api role. */
  TRACKER_API_URL: optionalUrl,
  TRACKER_ROLES: roleList.default([...ROLES]),
  /** Prefix for every Redis key, so several installations (or test suites) share one Redis. */
  TRACKER_REDIS_PREFIX: z.string().min(1).default('tracker'),
  /**
   * Streams the Redis queue spreads jobs over, by project (decision 068). 1 keeps the one
   * stream `<prefix>:jobs`; more are `<prefix>:jobs:{k}`, placed by their hash tag on a cluster.
   */
  TRACKER_QUEUE_SHARDS: z.coerce.number().int().min(1).max(256).default(1),
  /** Signs the dashboard's session cookie. Required in production with PostgreSQL. */
  TRACKER_SESSION_SECRET: z.string().min(16).optional(),
  TRACKER_DEFAULT_PLAN: z.enum(['free', 'pro', 'business']).default('free'),
  /** `closed`: only the first account, invitations and `user:create` make accounts (decision 066). */
  TRACKER_SIGNUP: z.enum(['open', 'closed']).default('open'),
  TRACKER_ALLOW_PRIVATE_TARGETS: z.enum(['0', '1']).default('0'),
  /** GraphQL schema introspection; on by default (the schema is committed and documented anyway). */
  TRACKER_GRAPHQL_INTROSPECTION: z.enum(['0', '1']).default('1'),
  TRACKER_WORKER_BATCH_SIZE: z.coerce.number().int().min(1).max(5000).default(500),
  /** Embedded mode: batches sized so a transaction takes about this long (0: fixed batches). */
  TRACKER_WORKER_TRANSACTION_MS: z.coerce.number().int().min(0).max(60_000).default(20),
  /** SMTP relay for alert emails: smtp://user:pass@host:587 (STARTTLS when offered) or smtps://…:465. */
  TRACKER_SMTP_URL: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .url()
      .refine((u) => /^smtps?:$/.test(new URL(u).protocol), 'must start with smtp:// or smtps://')
      .optional(),
  ),
  /** Memory budget of the worker's parsed source-map cache. */
  TRACKER_SOURCEMAP_CACHE_MB: z.coerce.number().int().min(0).max(65_536).default(256),
  TRACKER_SMTP_FROM: z.string().min(3).default('Tracker <alerts@localhost>'),
  /** GraphQL requests per minute per token (session or API token; per client IP without one). 0 = off. */
  TRACKER_GRAPHQL_RATE_LIMIT: z.coerce.number().int().min(0).max(1_000_000).default(600),
  TRACKER_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `auto`: readable lines on a terminal, JSON otherwise (server/src/log-format.ts). */
  TRACKER_LOG_FORMAT: z.enum(['auto', 'pretty', 'json']).default('auto'),
  /** Stripe billing (docs/billing.md): configured only with the key, the webhook secret and at least one price. */
  STRIPE_SECRET_KEY: optionalText,
  STRIPE_WEBHOOK_SECRET: optionalText,
  STRIPE_PRICE_PRO: optionalText,
  STRIPE_PRICE_BUSINESS: optionalText,
  /** Where the Stripe SDK sends its requests; tests point it at a local stand-in. Default: Stripe's API. */
  STRIPE_API_BASE: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .url()
      .refine((u) => /^https?:$/.test(new URL(u).protocol), 'must start with http:// or https://')
      .optional(),
  ),
  /** Days a past-due subscription keeps its paid plan before the organization falls back to free. */
  TRACKER_BILLING_GRACE_DAYS: z.coerce.number().min(0).max(365).default(7),
  /** How long an ingest request waits for Redis to confirm its enqueue before answering 503 (docs/reliability.md). */
  TRACKER_ENQUEUE_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(1_200),
  /**
   * Database queue (embedded, or PostgreSQL without Redis): items waiting before ingest answers 503
   * with Retry-After (docs/reliability.md, "Overload"). 0 = no bound.
   */
  TRACKER_MAX_BACKLOG: z.coerce.number().int().min(0).max(100_000_000).default(20_000),
  /** The same bound in megabytes of queued payloads. 0 = no bound. */
  TRACKER_MAX_BACKLOG_MB: z.coerce.number().int().min(0).max(1_000_000).default(100),
  /** A client must send its request headers within this time (else 408 and the socket is closed). */
  TRACKER_HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  /** A client must send its whole request, body included, within this time. */
  TRACKER_HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  /** SIGTERM: the process exits within this time whatever its dependencies do; unfinished work is logged. */
  TRACKER_SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(8_000),
});

export type Config = {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  host: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  dataDir: string;
  publicUrl: string;
  /** From TRACKER_TRUSTED_PROXIES: fastify's `trustProxy` list; empty = forwarded headers are ignored. */
  trustedProxies: string[];
  apiUrl: string | undefined;
  roles: ServiceRole[];
  redisPrefix: string;
  /** TRACKER_QUEUE_SHARDS: streams of the Redis jobs queue. */
  queueShards: number;
  sessionSecret: string | undefined;
  defaultPlan: 'free' | 'pro' | 'business';
  /** TRACKER_SIGNUP=closed: `signup` refuses everyone but the instance's first account. */
  signupClosed: boolean;
  allowPrivateTargets: boolean;
  /** Whether GraphQL answers introspection queries (`__schema`, `__type`). */
  graphqlIntrospection: boolean;
  workerBatchSize: number;
  /** On a one-connection database (PGlite): the time one worker transaction aims at; 0 = fixed batches. */
  workerTransactionMs: number;
  logLevel: string;
  /** `auto`, `pretty` or `json`: see TRACKER_LOG_FORMAT. */
  logFormat: 'auto' | 'pretty' | 'json';
  smtp: SmtpConfig | undefined;
  sourcemapCacheMb: number;
  /**
   * GraphQL requests allowed per token within a sliding window (docs/quotas.md); `requests` 0 = no
   * limit. The environment sets requests per minute; tests shorten the window.
   */
  graphqlRateLimit: { requests: number; windowMs: number };
  /** Stripe billing; `billing.configured` is false unless key, webhook secret and one price are set. */
  billing: BillingConfig;
  /** Redis queue: how long an ingest request waits for its enqueue to be confirmed. */
  enqueueTimeoutMs: number;
  /** Database queue: the backlog ingest accepts before answering 503 (0 = no bound on that measure). */
  maxBacklog: { items: number; bytes: number };
  /** Slow clients: headers, and the whole request, must arrive within these times. */
  http: { headersTimeoutMs: number; requestTimeoutMs: number };
  /** Hard deadline of a graceful shutdown (SIGTERM). */
  shutdownTimeoutMs: number;
};

/** Stripe billing configuration (docs/billing.md). Price ids map to plans here and nowhere else. */
export interface BillingConfig {
  configured: boolean;
  secretKey: string | undefined;
  webhookSecret: string | undefined;
  /** Stripe price id per paid plan; a plan without a price cannot be bought. */
  prices: { pro: string | undefined; business: string | undefined };
  /** From STRIPE_API_BASE: where the SDK connects (tests: a loopback stand-in). Undefined = api.stripe.com. */
  api: { host: string; port: number; protocol: 'http' | 'https' } | undefined;
  graceDays: number;
}

function parseBilling(e: {
  STRIPE_SECRET_KEY?: string;
  STRIPE_WEBHOOK_SECRET?: string;
  STRIPE_PRICE_PRO?: string;
  STRIPE_PRICE_BUSINESS?: string;
  STRIPE_API_BASE?: string;
  TRACKER_BILLING_GRACE_DAYS: number;
}): BillingConfig {
  const prices = { pro: e.STRIPE_PRICE_PRO, business: e.STRIPE_PRICE_BUSINESS };
  let api: BillingConfig['api'];
  if (e.STRIPE_API_BASE) {
    const u = new URL(e.STRIPE_API_BASE);
    const protocol = u.protocol === 'http:' ? 'http' : 'https';
    api = {
      host: u.hostname.replace(/^\[|\]$/g, ''),
      port: u.port ? Number(u.port) : protocol === 'http' ? 80 : 443,
      protocol,
    };
  }
  return {
    configured: Boolean(e.STRIPE_SECRET_KEY && e.STRIPE_WEBHOOK_SECRET && (prices.pro || prices.business)),
    secretKey: e.STRIPE_SECRET_KEY,
    webhookSecret: e.STRIPE_WEBHOOK_SECRET,
    prices,
    api,
    graceDays: e.TRACKER_BILLING_GRACE_DAYS,
  };
}

/** Where alert emails go out; absent = EMAIL alert rules fail their deliveries with a clear error. */
export interface SmtpConfig {
  host: string;
  port: number;
  secure: boolean;
  auth?: { user: string; pass: string };
  from: string;
}

/**
 * `nodemailer.createTransport` options for a relay, shared by every mail Tracker sends (alerts,
 * invitations, usage warnings). A timeout per SMTP stage, so an unreachable relay fails the
 * attempt instead of hanging it; no file or URL access for message parts, whose content is
 * built from what users wrote.
 */
export function smtpTransportOptions(
  smtp: SmtpConfig & { requireTLS?: boolean; tls?: { rejectUnauthorized?: boolean; servername?: string } },
  timeoutMs: number,
) {
  return {
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    auth: smtp.auth,
    requireTLS: smtp.requireTLS,
    tls: smtp.tls,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}

function parseSmtp(url: string | undefined, from: string): SmtpConfig | undefined {
  if (!url) return undefined;
  const u = new URL(url);
  const secure = u.protocol === 'smtps:';
  return {
    host: u.hostname.replace(/^\[|\]$/g, ''),
    port: u.port ? Number(u.port) : secure ? 465 : 587,
    secure,
    auth: u.username ? { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) } : undefined,
    from,
  };
}

/** Raised at boot with one line per bad variable, so an operator can fix them all at once. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Parses the environment once at boot. Nothing else in the codebase reads `process.env`:
 * a typo in a variable fails the start, not the first request that needs it.
 */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  overrides: Partial<Config> = {},
): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const e = parsed.data;
  const shardProblems = queueShardProblems(e.REDIS_URL, e.TRACKER_REDIS_PREFIX, e.TRACKER_QUEUE_SHARDS);
  if (shardProblems.length > 0) throw new ConfigError(shardProblems);
  const config: Config = {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    dataDir: e.TRACKER_DATA_DIR,
    publicUrl: (e.TRACKER_PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    trustedProxies: e.TRACKER_TRUSTED_PROXIES,
    apiUrl: e.TRACKER_API_URL,
    roles: e.TRACKER_ROLES,
    redisPrefix: e.TRACKER_REDIS_PREFIX,
    queueShards: e.TRACKER_QUEUE_SHARDS,
    sessionSecret: e.TRACKER_SESSION_SECRET,
    defaultPlan: e.TRACKER_DEFAULT_PLAN,
    signupClosed: e.TRACKER_SIGNUP === 'closed',
    allowPrivateTargets: e.TRACKER_ALLOW_PRIVATE_TARGETS === '1',
    graphqlIntrospection: e.TRACKER_GRAPHQL_INTROSPECTION === '1',
    workerBatchSize: e.TRACKER_WORKER_BATCH_SIZE,
    workerTransactionMs: e.TRACKER_WORKER_TRANSACTION_MS,
    logLevel: e.TRACKER_LOG_LEVEL,
    logFormat: e.TRACKER_LOG_FORMAT,
    smtp: parseSmtp(e.TRACKER_SMTP_URL, e.TRACKER_SMTP_FROM),
    sourcemapCacheMb: e.TRACKER_SOURCEMAP_CACHE_MB,
    graphqlRateLimit: { requests: e.TRACKER_GRAPHQL_RATE_LIMIT, windowMs: 60_000 },
    billing: parseBilling(e),
    enqueueTimeoutMs: e.TRACKER_ENQUEUE_TIMEOUT_MS,
    maxBacklog: { items: e.TRACKER_MAX_BACKLOG, bytes: e.TRACKER_MAX_BACKLOG_MB * 1024 * 1024 },
    http: { headersTimeoutMs: e.TRACKER_HTTP_HEADERS_TIMEOUT_MS, requestTimeoutMs: e.TRACKER_HTTP_REQUEST_TIMEOUT_MS },
    shutdownTimeoutMs: e.TRACKER_SHUTDOWN_TIMEOUT_MS,
    ...overrides,
  };
  return config;
}

/**
 * Shards are streams in Redis (the database queue is one table), and their hash tags must be the
 * only braces in a key: a `{` in the prefix would become every key's tag and put every shard,
 * quota and rate counter of a cluster in one slot.
 */
function queueShardProblems(redisUrl: string | undefined, prefix: string, shards: number): string[] {
  const problems: string[] = [];
  if (shards > 1 && !redisUrl)
    problems.push('TRACKER_QUEUE_SHARDS: more than 1 shard needs REDIS_URL (the database queue is one table)');
  const cluster = redisUrl !== undefined && parseRedisUrl(redisUrl).kind === 'cluster';
  if ((shards > 1 || cluster) && /[{}]/.test(prefix)) {
    problems.push(
      'TRACKER_REDIS_PREFIX: must not contain { or } with queue shards or a Redis Cluster (they are hash tags)',
    );
  }
  return problems;
}
