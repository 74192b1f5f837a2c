import type { ThrottleRedisCommands, UsageRedisCommands } from '@tracker/core';
import type { RateLimitRedisCommands } from '@tracker/api';
import { createRecycler, createRedisClient, isClusterClient, recycleOnTimeout } from '@tracker/ingest';

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
  const cluster = isClusterClient(client);
  return {
    usage: {
      // On a cluster the keys of one MGET must share a slot; usage keys are spread (one per
      // organization and month), so each is a GET of its own (node-redis pipelines them per node).
      mGet: (keys) =>
        recycleOnTimeout(
          cluster ? Promise.all(keys.map((k) => client.get(k))) : client.mGet(keys),
          recycler,
          COMMAND_TIMEOUT_MS,
        ),
      scan: cluster
        ? (cursor, options) => scanClusterPage(client, cursor, options)
        : async (cursor, options) => {
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
      if (!(await Promise.race([quit, new Promise<false>((r) => setTimeout(r, 1_000, false).unref())])))
        client.destroy();
    },
  };
}

/**
 * SCAN over a cluster: every master holds some of the keys, so the cursor walks them one after
 * the other. It reads `<master index>:<that master's cursor>`; '0' starts and ends, as SCAN's own.
 */
async function scanClusterPage(
  client: ReturnType<typeof createRedisClient>,
  cursor: string,
  options: { MATCH: string; COUNT: number },
): Promise<{ cursor: string; keys: string[] }> {
  const cluster = client as unknown as {
    masters: Array<{ host: string; port: number }>;
    nodeClient(node: { host: string; port: number }): Promise<ReturnType<typeof createRedisClient>>;
  };
  const masters = [...cluster.masters].sort((a, b) => `${a.host}:${a.port}`.localeCompare(`${b.host}:${b.port}`));
  const [at, inner] = cursor === '0' ? [0, '0'] : [Number(cursor.split(':')[0]), cursor.split(':')[1]];
  const master = masters[at];
  if (!master) return { cursor: '0', keys: [] };
  const node = await cluster.nodeClient(master);
  const page = await withTimeout(node.scan(inner, options), COMMAND_TIMEOUT_MS);
  const next = String(page.cursor);
  const keys = page.keys.map(String);
  if (next !== '0') return { cursor: `${at}:${next}`, keys };
  return { cursor: at + 1 < masters.length ? `${at + 1}:0` : '0', keys };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`Redis did not answer within ${ms} ms`)), ms)),
  );
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
