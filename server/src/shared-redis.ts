import type { UsageRedisCommands } from '@tracker/core';
import type { RateLimitRedisCommands } from '@tracker/api';
import { createClient } from 'redis';

/**
 * One Redis connection per process for reads and small scripts outside the ingest hot path:
 * the usage reader (GraphQL usage, usage warnings) and the GraphQL rate limiter. The queue and
 * the ingest gate keep connections of their own, tuned for their traffic.
 */
export interface SharedRedis {
  usage: UsageRedisCommands;
  rateLimit: RateLimitRedisCommands;
  close(): Promise<void>;
}

/** A command not answered in this time fails (the rate limiter then lets the request through). */
const COMMAND_TIMEOUT_MS = 2_000;

export async function connectSharedRedis(url: string): Promise<SharedRedis> {
  // No offline queue: while Redis is unreachable commands fail at once instead of piling up
  // behind a reconnect, so a GraphQL request never waits on a dead Redis.
  const client = createClient({ url, disableOfflineQueue: true, commandOptions: { timeout: COMMAND_TIMEOUT_MS } });
  client.on('error', () => undefined); // reconnects by itself; callers see failed commands
  await client.connect();
  return {
    usage: {
      mGet: (keys) => client.mGet(keys),
      scan: async (cursor, options) => {
        const page = await client.scan(cursor, options);
        return { cursor: String(page.cursor), keys: page.keys.map(String) };
      },
    },
    rateLimit: {
      eval: (script, options) => client.eval(script, options),
    },
    async close() {
      if (client.isOpen) await client.quit().catch(() => client.destroy());
    },
  };
}
