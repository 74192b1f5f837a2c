import type { DataSource } from 'typeorm';

/** Failures counted under one key; the count starts again after a quiet window. */
export interface FailureCount {
  failures: number;
  firstAt: number;
  lastAt: number;
}

/**
 * Where the sign-in throttle's counters live, shared by every api process: Redis when there is
 * one, else the `auth_throttle` table (PostgreSQL, or PGlite in the embedded runtime). A count
 * ends `windowMs` after its **last** failure. Times are the caller's clock (decision 021), so
 * tests move them; neither store reads its own clock for the rule.
 */
export interface ThrottleStore {
  readonly kind: 'redis' | 'database';
  /** Adds one failure and answers the count after it. */
  fail(key: string, now: number, windowMs: number): Promise<FailureCount>;
  /** The live count, or null when there is none (or it has ended). */
  read(key: string, now: number, windowMs: number): Promise<FailureCount | null>;
  clear(key: string): Promise<void>;
}

/** PostgreSQL or PGlite: one upsert per failure. Old rows are swept now and then by `fail`. */
export function createDatabaseThrottleStore(ds: DataSource): ThrottleStore {
  let sinceSweep = 0;
  return {
    kind: 'database',
    async fail(key, now, windowMs) {
      const at = new Date(now);
      const rows = (await ds.query(
        `INSERT INTO auth_throttle (key, failures, first_failure_at, last_failure_at) VALUES ($1, 1, $2, $2)
         ON CONFLICT (key) DO UPDATE SET
           failures = CASE WHEN auth_throttle.last_failure_at <= $2::timestamptz - make_interval(secs => $3::float8 / 1000)
                           THEN 1 ELSE auth_throttle.failures + 1 END,
           first_failure_at = CASE WHEN auth_throttle.last_failure_at <= $2::timestamptz - make_interval(secs => $3::float8 / 1000)
                           THEN $2 ELSE auth_throttle.first_failure_at END,
           last_failure_at = GREATEST(auth_throttle.last_failure_at, $2)
         RETURNING failures, first_failure_at, last_failure_at`,
        [key, at, windowMs],
      )) as { failures: number; first_failure_at: Date; last_failure_at: Date }[];
      if (++sinceSweep >= 100) {
        sinceSweep = 0;
        await ds.query(`DELETE FROM auth_throttle WHERE last_failure_at < $1`, [new Date(now - 2 * windowMs)]);
      }
      const r = rows[0];
      return {
        failures: Number(r.failures),
        firstAt: r.first_failure_at.getTime(),
        lastAt: r.last_failure_at.getTime(),
      };
    },
    async read(key, now, windowMs) {
      const rows = (await ds.query(
        `SELECT failures, first_failure_at, last_failure_at FROM auth_throttle WHERE key = $1`,
        [key],
      )) as { failures: number; first_failure_at: Date; last_failure_at: Date }[];
      const r = rows[0];
      if (!r || r.last_failure_at.getTime() <= now - windowMs) return null;
      return {
        failures: Number(r.failures),
        firstAt: r.first_failure_at.getTime(),
        lastAt: r.last_failure_at.getTime(),
      };
    },
    async clear(key) {
      await ds.query(`DELETE FROM auth_throttle WHERE key = $1`, [key]);
    },
  };
}

/** The Redis commands the store needs, as node-redis's client has them (the server passes its client). */
export interface ThrottleRedisCommands {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  del(key: string): Promise<unknown>;
}

// KEYS[1]: the counter (a hash n, first, last). ARGV: now ms, window ms. Check and count in one step.
const FAIL_SCRIPT = `
local last = tonumber(redis.call('HGET', KEYS[1], 'last') or '-1')
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
if last < 0 or last <= now - window then
  redis.call('HSET', KEYS[1], 'n', 1, 'first', now, 'last', now)
else
  redis.call('HINCRBY', KEYS[1], 'n', 1)
  if now > last then redis.call('HSET', KEYS[1], 'last', now) end
end
redis.call('PEXPIRE', KEYS[1], window * 2)
return redis.call('HMGET', KEYS[1], 'n', 'first', 'last')`;

const READ_SCRIPT = `return redis.call('HMGET', KEYS[1], 'n', 'first', 'last')`;

/** Redis: a hash per key at `<prefix>:auththrottle:<key>`, expiring on its own. */
export function createRedisThrottleStore(redis: ThrottleRedisCommands, prefix: string): ThrottleStore {
  const keyOf = (key: string) => `${prefix}:auththrottle:${key}`;
  const parse = (reply: unknown): FailureCount | null => {
    const [n, first, last] = (reply as (string | null)[]).map((v) => (v === null ? NaN : Number(v)));
    return Number.isFinite(n) ? { failures: n, firstAt: first, lastAt: last } : null;
  };
  return {
    kind: 'redis',
    async fail(key, now, windowMs) {
      const reply = await redis.eval(FAIL_SCRIPT, { keys: [keyOf(key)], arguments: [String(now), String(windowMs)] });
      return parse(reply)!;
    },
    async read(key, now, windowMs) {
      const count = parse(await redis.eval(READ_SCRIPT, { keys: [keyOf(key)], arguments: [] }));
      return count && count.lastAt > now - windowMs ? count : null;
    },
    async clear(key) {
      await redis.del(keyOf(key));
    },
  };
}
