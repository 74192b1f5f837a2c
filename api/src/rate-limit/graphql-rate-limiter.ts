import { retryAfterSeconds, slidingEstimate } from './sliding-window';

/** The answer for one request. */
export interface RateLimitDecision {
  allowed: boolean;
  /** For a refused request: seconds until one more would be allowed. */
  retryAfter: number;
}

/**
 * GraphQL requests per subject (a session, an API token or a client IP) in a sliding window
 * (docs/quotas.md). A refused request is not counted, so a client that backs off for
 * `retryAfter` seconds gets through.
 */
export interface GraphqlRateLimiter {
  readonly kind: 'memory' | 'redis';
  hit(subject: string): Promise<RateLimitDecision>;
}

export interface RateLimitSettings {
  /** Requests per window; 0 turns the limit off. */
  requests: number;
  windowMs: number;
}

const ALLOWED: RateLimitDecision = { allowed: true, retryAfter: 0 };

/**
 * Embedded mode: one process serves the api, so a map in memory is the shared state. Windows
 * older than the previous one are swept once per window.
 */
export function createMemoryRateLimiter(settings: RateLimitSettings, now: () => number = Date.now): GraphqlRateLimiter {
  const { requests: limit, windowMs } = settings;
  const counts = new Map<string, { window: number; prev: number; curr: number }>();
  let swept = 0;
  return {
    kind: 'memory',
    async hit(subject) {
      if (limit <= 0) return ALLOWED;
      const t = now();
      const window = Math.floor(t / windowMs);
      if (window > swept) {
        for (const [k, v] of counts) if (v.window < window - 1) counts.delete(k);
        swept = window;
      }
      let entry = counts.get(subject);
      if (!entry) {
        entry = { window, prev: 0, curr: 0 };
        counts.set(subject, entry);
      } else if (entry.window !== window) {
        entry.prev = entry.window === window - 1 ? entry.curr : 0;
        entry.curr = 0;
        entry.window = window;
      }
      const elapsed = t - window * windowMs;
      if (slidingEstimate(entry.prev, entry.curr, elapsed, windowMs) + 1 > limit) {
        return { allowed: false, retryAfter: retryAfterSeconds(entry.prev, entry.curr, elapsed, limit, windowMs) };
      }
      entry.curr += 1;
      return ALLOWED;
    },
  };
}

/** The one Redis command the limiter needs, as node-redis's client has it (the server passes its client). */
export interface RateLimitRedisCommands {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

/**
 * Check and count in one step, atomically, so every api process shares one budget per subject.
 * KEYS: previous window, current window. ARGV: limit, window ms, ms elapsed in the window.
 * Answers {allowed 0|1, prev, curr}.
 */
const SCRIPT = `
local prev = tonumber(redis.call('GET', KEYS[1]) or '0')
local curr = tonumber(redis.call('GET', KEYS[2]) or '0')
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local elapsed = tonumber(ARGV[3])
if prev * (window - elapsed) / window + curr + 1 > limit then
  return {0, prev, curr}
end
curr = redis.call('INCR', KEYS[2])
if curr == 1 then redis.call('PEXPIRE', KEYS[2], window * 2 + 1000) end
return {1, prev, curr}`;

/**
 * Production: counters at `<prefix>:gqlrate:{<subject>}:<window index>`, shared by every api
 * process. The window index comes from the process clock (the keys are named up front, as Redis
 * wants of a script); a few milliseconds of skew between hosts do not matter for a 60 s window.
 */
export function createRedisRateLimiter(
  redis: RateLimitRedisCommands,
  prefix: string,
  settings: RateLimitSettings,
  now: () => number = Date.now,
): GraphqlRateLimiter {
  const { requests: limit, windowMs } = settings;
  return {
    kind: 'redis',
    async hit(subject) {
      if (limit <= 0) return ALLOWED;
      const t = now();
      const window = Math.floor(t / windowMs);
      const elapsed = t - window * windowMs;
      // The hash tag puts both windows' keys in one slot: a script's keys must be, on a Redis Cluster.
      const base = `${prefix}:gqlrate:{${subject}}`;
      const reply = (await redis.eval(SCRIPT, {
        keys: [`${base}:${window - 1}`, `${base}:${window}`],
        arguments: [String(limit), String(windowMs), String(elapsed)],
      })) as [number, number, number];
      if (Number(reply[0]) === 1) return ALLOWED;
      return {
        allowed: false,
        retryAfter: retryAfterSeconds(Number(reply[1]), Number(reply[2]), elapsed, limit, windowMs),
      };
    },
  };
}
