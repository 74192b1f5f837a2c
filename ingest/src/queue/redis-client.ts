import type * as NodeRedis from 'redis';
import type { RedisClientOptions } from 'redis';
import { parseRedisUrl } from '@tracker/core';

let nodeRedis: typeof NodeRedis | undefined;
/**
 * node-redis, loaded on first use: the embedded runtime never talks to Redis, and loading the
 * client's modules is a noticeable part of the start (0.12–0.19 s to `require` on the 2-core machine).
 */
function redisLibrary(): typeof NodeRedis {
  return (nodeRedis ??= require('redis') as typeof NodeRedis);
}

/**
 * Socket options for every node-redis connection Tracker opens. TCP keepalive makes the kernel
 * notice a peer that vanished (host gone, connection silently dropped by a middlebox); a
 * short connect timeout keeps a reconnect from hanging on an unreachable host; and the
 * reconnect strategy never gives up, also after a socket timeout (node-redis's default
 * strategy stops there, leaving the client closed for good).
 */
export const REDIS_SOCKET_OPTIONS = {
  keepAlive: true,
  keepAliveInitialDelay: 10_000,
  connectTimeout: 2_000,
  reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 2_000),
};

/**
 * A node-redis client with `REDIS_SOCKET_OPTIONS`. `disableClientInfo`: no `CLIENT SETINFO` in
 * the connection's set-up, whose answer node-redis waits for before the client is ready; a
 * Redis that accepts the connection but answers nothing (a stuck process) would hold the
 * reconnect forever. `commandTimeoutMs` bounds a command's wait to be sent (while reconnecting);
 * 0 = no timer. Once sent, only `recycleOnTimeout` bounds the wait for the answer.
 */
export function createRedisClient(
  url: string,
  commandTimeoutMs: number,
  options: Pick<RedisClientOptions, 'disableOfflineQueue'> = {},
) {
  const target = parseRedisUrl(url);
  if (target.kind === 'cluster') return createClusterClient(target, commandTimeoutMs, options);
  return createSingleClient(url, commandTimeoutMs, options);
}

function createSingleClient(
  url: string,
  commandTimeoutMs: number,
  options: Pick<RedisClientOptions, 'disableOfflineQueue'>,
) {
  return redisLibrary().createClient({
    url,
    disableClientInfo: true,
    socket: REDIS_SOCKET_OPTIONS,
    commandOptions: { timeout: commandTimeoutMs },
    ...options,
  });
}

type Client = ReturnType<typeof createSingleClient>;

const CLUSTER = Symbol('redis cluster');

/** Whether a client made by `createRedisClient` talks to a Redis Cluster. */
export function isClusterClient(client: object): boolean {
  return (client as { [CLUSTER]?: boolean })[CLUSTER] === true;
}

/**
 * A node-redis cluster client dressed as a single client, so the queue, counters and watch run
 * unchanged on either: the commands they use have the same names and answers on both, and
 * routing by key is the cluster client's. Only the raw `sendCommand(args)` differs (the cluster
 * wants the key that routes it): it is routed by `args[1]`, the key of every raw command Tracker
 * sends (XADD, XCLAIM). Every multi-key command Tracker sends keeps its keys in one slot
 * (decision 068).
 */
function createClusterClient(
  target: Extract<ReturnType<typeof parseRedisUrl>, { kind: 'cluster' }>,
  commandTimeoutMs: number,
  options: Pick<RedisClientOptions, 'disableOfflineQueue'>,
): Client {
  const cluster = redisLibrary().createCluster({
    rootNodes: target.rootNodes.map((url) => ({ url })),
    defaults: {
      username: target.username,
      password: target.password,
      disableClientInfo: true,
      socket: target.tls ? { ...REDIS_SOCKET_OPTIONS, tls: true } : REDIS_SOCKET_OPTIONS,
      ...options,
    },
    commandOptions: { timeout: commandTimeoutMs },
  });
  return dressAsClient(cluster);
}

function dressAsClient(cluster: object): Client {
  return new Proxy(cluster, {
    get(target, property, receiver) {
      if (property === CLUSTER) return true;
      const c = target as {
        sendCommand(key: unknown, readonly: boolean, args: unknown[], options?: unknown): Promise<unknown>;
        duplicate(): object;
        withCommandOptions(o: unknown): object;
      };
      if (property === 'sendCommand') {
        return (args: unknown[], options?: unknown) => c.sendCommand(args[1], false, args, options);
      }
      if (property === 'duplicate') return () => dressAsClient(c.duplicate());
      if (property === 'withCommandOptions') return (o: unknown) => dressAsClient(c.withCommandOptions(o));
      const value = Reflect.get(target, property, receiver) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  }) as unknown as Client;
}

/** Tears down a stuck connection and opens a new one (`createRecycler`). */
export interface Recycler {
  /** Counts the connections made: a timeout seen on an older one needs no new one. */
  readonly epoch: number;
  /** Recycles the connection; with `epoch`, only if no newer connection was made since. */
  recycle(epoch?: number): void;
  stop(): void;
}

/**
 * Tears down a client's connection and opens a new one, for a connection that stopped
 * answering: TCP keepalive does not notice a Redis process that is alive but stuck (its kernel
 * still acknowledges), and on a connection where requests were lost (a black-holed link) the
 * answers would never line up with the commands again. Commands in flight fail at once; the
 * client object stays usable, so holders of it need not know.
 */
export function createRecycler(client: Client): Recycler {
  let epoch = 0;
  let stopped = false;
  // A cluster client is one client for every master: tearing it down because one master stopped
  // answering would fail the commands of the healthy ones (and a reconnect has to ask a seed for
  // the layout, which may be that master). Its commands still time out one by one; a stuck
  // master's connection is left to answer once it runs again (decision 068).
  const cluster = isClusterClient(client);
  return {
    get epoch() {
      return epoch;
    },
    recycle(seen?: number) {
      if (stopped || (seen !== undefined && seen !== epoch)) return;
      epoch += 1;
      if (cluster) return;
      client.destroy();
      // Reconnects in the background (retrying until Redis answers); commands issued meanwhile
      // wait in node-redis's offline queue, bounded by their own timeouts.
      client.connect().catch(() => undefined);
    },
    stop() {
      stopped = true;
    },
  };
}

/** node-redis's error for a command not sent within its timeout, or ours (`recycleOnTimeout`). */
export function isTimeout(err: unknown): boolean {
  // Before node-redis is loaded no error of its own can exist.
  return err instanceof RedisTimeoutError || (nodeRedis !== undefined && err instanceof nodeRedis.TimeoutError);
}

/** Redis did not answer a command within its time; its connection is being made again. */
export class RedisTimeoutError extends Error {
  override name = 'TimeoutError';
}

/**
 * Passes `promise` (a command just sent on `recycler`'s client) through, failing it after
 * `timeoutMs` and recycling the connection it was sent on. node-redis's own per-command timeout
 * stops counting once the command is written (commands-queue.js), so it does not catch a Redis
 * that took the command and never answered. Several commands timing out together recycle the
 * connection once.
 */
export function recycleOnTimeout<T>(promise: Promise<T>, recycler: Recycler, timeoutMs: number): Promise<T> {
  const epoch = recycler.epoch;
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      recycler.recycle(epoch);
      reject(new RedisTimeoutError(`Redis did not answer within ${timeoutMs} ms`));
    }, timeoutMs);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        if (isTimeout(err)) recycler.recycle(epoch);
        reject(err);
      },
    );
  });
}
