/**
 * Where Redis is: one server (`redis://`, `rediss://`, what node-redis takes as it is) or a
 * Redis Cluster, named by its seed nodes in one URL:
 * `redis+cluster://[user:password@]host1:7000,host2:7001[,…]` (`rediss+cluster://` for TLS).
 * Any one reachable seed is enough to learn the cluster's layout; give several so a start does
 * not depend on one node. (Why a URL scheme and not a flag: decision 068.)
 */
export type RedisTarget =
  | { kind: 'single'; url: string }
  | {
      kind: 'cluster';
      /** `redis://host:port` (or `rediss://`) per seed node, without credentials. */
      rootNodes: string[];
      username?: string;
      password?: string;
      tls: boolean;
    };

const CLUSTER_SCHEME = /^(rediss?)\+cluster:\/\/(.*)$/i;
const HOST_PORT = /^(\[[0-9a-f:.]+\]|[a-z0-9._-]+):(\d{1,5})$/i;

/** Parses REDIS_URL; throws an Error whose message says what is wrong (config turns it into a field error). */
export function parseRedisUrl(url: string): RedisTarget {
  const cluster = CLUSTER_SCHEME.exec(url);
  if (!cluster) {
    const parsed = new URL(url);
    if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
      throw new Error(`must be redis://, rediss://, redis+cluster:// or rediss+cluster:// (got ${parsed.protocol})`);
    }
    return { kind: 'single', url };
  }
  const scheme = cluster[1].toLowerCase();
  let rest = cluster[2];
  // The path (a database number) means nothing on a cluster, which has only database 0.
  if (/[/?#]/.test(rest))
    throw new Error('a cluster URL takes no path, query or fragment (a cluster has one database)');
  let username: string | undefined;
  let password: string | undefined;
  const at = rest.lastIndexOf('@');
  if (at >= 0) {
    const credentials = rest.slice(0, at);
    rest = rest.slice(at + 1);
    const colon = credentials.indexOf(':');
    username = decodeURIComponent(colon >= 0 ? credentials.slice(0, colon) : credentials) || undefined;
    password = colon >= 0 ? decodeURIComponent(credentials.slice(colon + 1)) || undefined : undefined;
  }
  const nodes = rest.split(',').map((n) => n.trim());
  if (nodes.length === 0 || nodes.some((n) => n === '')) throw new Error('a cluster URL names at least one host:port');
  const rootNodes = nodes.map((node) => {
    const m = HOST_PORT.exec(node);
    if (!m || Number(m[2]) < 1 || Number(m[2]) > 65535) throw new Error(`"${node}" is not host:port`);
    return `${scheme}://${m[1]}:${m[2]}`;
  });
  return { kind: 'cluster', rootNodes, username, password, tls: scheme === 'rediss' };
}

/**
 * The queue's stream keys for `shards` shards. One shard keeps the name Tracker always used
 * (`<prefix>:jobs`), so a deployment's backlog is still read after an upgrade; more shards are
 * `<prefix>:jobs:{k}`, whose hash tag `{k}` decides the cluster slot (and so the master) each
 * one lives on, together with its `:errors` hash.
 */
export function queueStreamKeys(prefix: string, shards: number): string[] {
  if (shards <= 1) return [`${prefix}:jobs`];
  return Array.from({ length: shards }, (_, k) => `${prefix}:jobs:{${k}}`);
}

/**
 * The shard of a project's jobs among `shards`: FNV-1a of its id, so every edge of every version
 * picks the same one and one project's jobs keep their order in one stream. Jobs without a
 * project go to shard 0.
 */
export function queueShardOf(projectId: string | undefined, shards: number): number {
  if (projectId === undefined || shards <= 1) return 0;
  let h = 0x811c9dc5;
  for (let i = 0; i < projectId.length; i++) {
    h ^= projectId.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % shards;
}
