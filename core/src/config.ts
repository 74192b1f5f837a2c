import { z } from 'zod';

/** The roles one process can run; `server` starts any subset of them. */
export const ROLES = ['ingest', 'worker', 'api', 'web'] as const;
export type ServiceRole = (typeof ROLES)[number];

const roleList = z
  .string()
  .transform((value) => value.split(',').map((r) => r.trim()).filter(Boolean))
  .pipe(z.array(z.enum(ROLES)).min(1, 'name at least one role'));

const optionalUrl = z.preprocess((v) => (v === '' ? undefined : v), z.string().url().optional());

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: optionalUrl,
  REDIS_URL: optionalUrl,
  TRACKER_DATA_DIR: z.string().min(1).default('./.tracker'),
  TRACKER_PUBLIC_URL: optionalUrl,
  /** Where the dashboard's server calls GraphQL; defaults to this process when it runs the api role. */
  TRACKER_API_URL: optionalUrl,
  TRACKER_ROLES: roleList.default([...ROLES]),
  /** Prefix for every Redis key, so several installations (or test suites) share one Redis. */
  TRACKER_REDIS_PREFIX: z.string().min(1).default('tracker'),
  /** Signs the dashboard's session cookie. Required in production with PostgreSQL. */
  TRACKER_SESSION_SECRET: z.string().min(16).optional(),
  TRACKER_DEFAULT_PLAN: z.enum(['free', 'pro', 'business']).default('free'),
  TRACKER_ALLOW_PRIVATE_TARGETS: z.enum(['0', '1']).default('0'),
  TRACKER_WORKER_BATCH_SIZE: z.coerce.number().int().min(1).max(5000).default(500),
  TRACKER_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Config = {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  host: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  dataDir: string;
  publicUrl: string;
  apiUrl: string | undefined;
  roles: ServiceRole[];
  redisPrefix: string;
  sessionSecret: string | undefined;
  defaultPlan: 'free' | 'pro' | 'business';
  allowPrivateTargets: boolean;
  workerBatchSize: number;
  logLevel: string;
};

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
export function loadConfig(env: Record<string, string | undefined> = process.env, overrides: Partial<Config> = {}): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const e = parsed.data;
  const config: Config = {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    dataDir: e.TRACKER_DATA_DIR,
    publicUrl: (e.TRACKER_PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    apiUrl: e.TRACKER_API_URL,
    roles: e.TRACKER_ROLES,
    redisPrefix: e.TRACKER_REDIS_PREFIX,
    sessionSecret: e.TRACKER_SESSION_SECRET,
    defaultPlan: e.TRACKER_DEFAULT_PLAN,
    allowPrivateTargets: e.TRACKER_ALLOW_PRIVATE_TARGETS === '1',
    workerBatchSize: e.TRACKER_WORKER_BATCH_SIZE,
    logLevel: e.TRACKER_LOG_LEVEL,
    ...overrides,
  };
  return config;
}
