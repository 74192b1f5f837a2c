import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@tracker/core/testing';

/** One master of a test cluster. */
export interface ClusterNode {
  port: number;
  proc: ChildProcess;
}

export interface TestRedisCluster {
  nodes: ClusterNode[];
  /** `redis+cluster://127.0.0.1:P1,…` (REDIS_URL). */
  url: string;
  /** The master that holds `key`'s slot. */
  masterOf(key: string): ClusterNode;
  stop(): Promise<void>;
}

const cli = (port: number, ...args: string[]) =>
  spawnSync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], { encoding: 'utf8', timeout: 30_000 });

/**
 * A Redis Cluster of `masters` masters on free loopback ports, each `redis-server` a child of the
 * test (never daemonized, so it dies with the test), no persistence, created with `redis-cli
 * --cluster create`. `cluster-require-full-coverage no`, as docs/scaling.md asks of production:
 * otherwise the masters still up refuse every command once one of them is marked failed.
 */
export async function startRedisCluster(masters = 3): Promise<TestRedisCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'tracker-cluster-'));
  const nodes: ClusterNode[] = [];
  for (let i = 0; i < masters; i++) nodes.push(await startNode(dir));
  const stop = async () => {
    for (const n of nodes) {
      if (n.proc.exitCode !== null || n.proc.signalCode !== null) continue;
      n.proc.kill('SIGCONT');
      const exited = new Promise((r) => n.proc.once('exit', r));
      n.proc.kill('SIGKILL');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const created = spawnSync(
      'redis-cli',
      ['--cluster', 'create', ...nodes.map((n) => `127.0.0.1:${n.port}`), '--cluster-replicas', '0', '--cluster-yes'],
      { encoding: 'utf8', timeout: 60_000 },
    );
    if (created.status !== 0) throw new Error(`redis-cli --cluster create failed:\n${created.stdout}${created.stderr}`);
    for (const n of nodes) {
      await until(
        () => /cluster_state:ok/.test(cli(n.port, 'cluster', 'info').stdout),
        `cluster state ok on ${n.port}`,
      );
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    nodes,
    url: `redis+cluster://${nodes.map((n) => `127.0.0.1:${n.port}`).join(',')}`,
    masterOf(key) {
      const slot = Number(cli(nodes[0].port, 'cluster', 'keyslot', key).stdout.trim());
      // CLUSTER SHARDS would be newer than some Redis 7.0s: `cluster nodes` lists `<from>-<to>` ranges.
      for (const line of cli(nodes[0].port, 'cluster', 'nodes').stdout.trim().split('\n')) {
        const fields = line.split(' ');
        const port = Number(fields[1].split('@')[0].split(':')[1]);
        for (const range of fields.slice(8)) {
          const [from, to = from] = range.split('-').map(Number);
          if (slot >= from && slot <= to) return nodes.find((n) => n.port === port)!;
        }
      }
      throw new Error(`no master holds slot ${slot}`);
    },
    stop,
  };
}

/**
 * One cluster node on free ports, answering PING. A port found free can be taken before
 * redis-server binds it (an outgoing connection's local port, under other work): then the
 * server exits at once, and the node is started again on other ports, up to three times.
 */
async function startNode(dir: string): Promise<ClusterNode> {
  for (let attempt = 1; ; attempt++) {
    // The bus port is named too: the default (port + 10000) is not known to be free.
    const [port, bus] = [await freePort(), await freePort()];
    const proc = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--cluster-port',
        String(bus),
        '--bind',
        '127.0.0.1',
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        join(dir, `nodes-${port}.conf`),
        '--cluster-require-full-coverage',
        'no',
        '--cluster-node-timeout',
        '60000',
        '--dir',
        dir,
        '--save',
        '',
        '--appendonly',
        'no',
        '--daemonize',
        'no',
      ],
      { stdio: 'ignore' },
    );
    const exited = () => proc.exitCode !== null || proc.signalCode !== null;
    await until(() => exited() || cli(port, 'ping').stdout.trim() === 'PONG', `redis-server on ${port}`);
    if (!exited()) return { port, proc };
    if (attempt === 3) throw new Error(`redis-server exited at start three times (last on ports ${port}/${bus})`);
  }
}

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
