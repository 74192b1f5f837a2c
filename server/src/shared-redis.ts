import type { ThrottleRedisCommands, UsageRedisCommands } from '@tracker/core';
import type { RateLimitRedisCommands } from '@tracker/api';
import { createRecycler, createRedisClient, recycleOnTimeout } from '@tracker/ingest';

/**
 * One Redis connection per process for reads and small scripts outside the ingest hot path:
 * the usage reader (GraphQL usage, usage warnings) and the GraphQL rate limiter. The queue and
 * the ingest gate keep connections of their own, tuned for their traffic.
 */
export interface SharedRedis {
  usage: UsageRedisCommands;
  rateLimit: RateLimitRedisCommands;
  /** The sign-in throttle's counters (core/src/accounts/throttle). */
  throttle: ThrottleRedisCommands;
  close(): Promise<void>;
}

/** A command not answered in this time fails (the rate limiter then lets the request through). */
const COMMAND_TIMEOUT_MS = 2_000;

export async function connectSharedRedis(url: string): Promise<SharedRedis> {
  // No offline queue: while Redis is unreachable commands fail at once instead of piling up
  // behind a reconnect, so a GraphQL request never waits on a dead Redis.
  const client = createRedisClient(url, COMMAND_TIMEOUT_MS, { disableOfflineQueue: true });
  client.on('error', () => undefined); // reconnects by itself; callers see failed commands
  await client.connect();
  // A timed-out command means a stuck connection: it is made again (keepalive alone does not
  // notice a Redis that is up but not answering).
  const recycler = createRecycler(client);
  return {
    usage: {
      mGet: (keys) => recycleOnTimeout(client.mGet(keys), recycler, COMMAND_TIMEOUT_MS),
      scan: async (cursor, options) => {
        const page = await recycleOnTimeout(client.scan(cursor, options), recycler, COMMAND_TIMEOUT_MS);
        return { cursor: String(page.cursor), keys: page.keys.map(String) };
      },
    },
    rateLimit: {
      eval: (script, options) => recycleOnTimeout(client.eval(script, options), recycler, COMMAND_TIMEOUT_MS),
    },
    throttle: {
      eval: (script, options) => recycleOnTimeout(client.eval(script, options), recycler, COMMAND_TIMEOUT_MS),
      del: (key) => recycleOnTimeout(client.del(key), recycler, COMMAND_TIMEOUT_MS),
    },
    async close() {
      recycler.stop();
      if (!client.isOpen) return;
      // QUIT waits for an answer a stuck Redis never gives.
      const quit = client.quit().then(
        () => true,
        () => false,
      );
      if (!(await Promise.race([quit, new Promise<false>((r) => setTimeout(r, 1_000, false).unref())]))) client.destroy();
    },
  };
}
