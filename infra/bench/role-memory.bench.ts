/**
 * Memory of each role run alone, as the Kubernetes manifests run them, for their requests and
 * limits (docs/scaling.md): the four roles as four processes of the built server
 * (`node server/dist/main.js`, TRACKER_ROLES=<role>) on one PostgreSQL database and one Redis
 * prefix. RSS idle, then after a load: `POST /ingest/error` to ingest, the worker draining all
 * of it, GraphQL to api and the login page to web. Then SIGTERM, timed per role (the ≤ 10 s
 * graceful stop the grace periods are set from).
 *
 *   npm run bench:memory -w @tracker/infra   (needs `npm run build` first and the test PostgreSQL + Redis)
 *
 * Prints only; figures go into docs/scaling.md by hand.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { freePort, waitForReady } from '@tracker/core/testing';
import { openBenchEnvironment } from '../../server/bench/bench-environment';
import { sampleEvent } from '../../server/bench/sample-event';

const ROLES = ['ingest', 'worker', 'api', 'web'] as const;
type Role = (typeof ROLES)[number];
const MAIN = join(__dirname, '..', '..', 'server', 'dist', 'main.js');
const EVENTS = Number(process.env.TRACKER_BENCH_EVENTS ?? 50_000);

/** VmRSS and VmHWM (peak RSS) of a process, in MB, from /proc. */
function memory(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'))?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (n: number) => n.toFixed(0);

async function main(): Promise<void> {
  const env = await openBenchEnvironment();
  const children = new Map<Role, { child: ChildProcess; url: string }>();
  const snapshot = () =>
    Object.fromEntries(ROLES.map((r) => [r, memory(children.get(r)!.child.pid!)])) as Record<string, { rss: number; peak: number }>;
  try {
    const { key } = await env.freshProject({ rateLimitPerSecond: 1_000_000 });
    const ports = Object.fromEntries(await Promise.all(ROLES.map(async (r) => [r, await freePort()]))) as Record<Role, number>;
    const base = {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      DATABASE_URL: env.childEnv.BENCH_DATABASE_URL,
      REDIS_URL: env.childEnv.BENCH_REDIS_URL,
      TRACKER_REDIS_PREFIX: env.prefix,
      TRACKER_LOG_LEVEL: 'warn',
      TRACKER_PUBLIC_URL: 'http://tracker.example.com',
      TRACKER_SESSION_SECRET: 'bench-session-secret-0123456789',
      TRACKER_API_URL: `http://127.0.0.1:${ports.api}/graphql`,
      // One client address sends every GraphQL request here: the per-address limit would refuse most.
      TRACKER_GRAPHQL_RATE_LIMIT: '0',
    };
    for (const role of ROLES) {
      const child = spawn(process.execPath, [MAIN], {
        env: { ...base, TRACKER_ROLES: role, PORT: String(ports[role]) },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      children.set(role, { child, url: `http://127.0.0.1:${ports[role]}` });
    }
    await Promise.all([...children.values()].map((c) => waitForReady(`${c.url}/readyz`, 60_000)));
    await sleep(5_000);
    const idle = snapshot();

    // Load: events to the edge (the worker drains them as they come), reads to api and web.
    const ingest = autocannon({
      url: `${children.get('ingest')!.url}/ingest/error`,
      method: 'POST',
      connections: 50,
      amount: EVENTS,
      headers: { 'content-type': 'application/json', authorization: `DSN ${key}` },
      body: JSON.stringify(sampleEvent()),
    });
    const api = autocannon({
      url: `${children.get('api')!.url}/graphql`,
      method: 'POST',
      connections: 10,
      amount: 5_000,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    const web = autocannon({ url: `${children.get('web')!.url}/login`, connections: 10, amount: 2_000 });
    const [ri, ra, rw] = await Promise.all([ingest, api, web]);
    const started = Date.now();
    // The worker acks and deletes each entry after its commit: an empty stream means drained.
    for (;;) {
      const stored = Number((await env.db.ds.query('SELECT count(*)::int AS n FROM events'))[0].n);
      if (stored >= ri['2xx']) break;
      if (Date.now() - started > 600_000) throw new Error(`worker stored ${stored} of ${ri['2xx']} in 10 minutes`);
      await sleep(500);
    }
    const drainS = (Date.now() - started) / 1000;
    const loaded = snapshot();

    // SIGTERM, timed.
    const stops: Record<string, { s: number; how: string }> = Object.fromEntries(
      await Promise.all(
        ROLES.map(async (r) => {
          const { child } = children.get(r)!;
          const t = Date.now();
          const exited = new Promise<string>((res) => child.once('exit', (code, signal) => res(signal ?? `exit ${code}`)));
          child.kill('SIGTERM');
          const code = await exited;
          return [r, { s: (Date.now() - t) / 1000, how: code }];
        }),
      ),
    );
    children.clear();

    const load: Record<Role, string> = {
      ingest: `${ri['2xx']} × POST /ingest/error (${Math.round(ri.requests.average)} req/s, 50 connections)`,
      worker: `stored all ${ri['2xx']} events (${drainS.toFixed(1)} s after the edge's load ended)`,
      api: `${ra['2xx']} × GraphQL \`{ __typename }\` (10 connections)`,
      web: `${rw['2xx']} × GET /login (10 connections)`,
    };
    console.log(`\nrole-memory: ${new Date().toISOString()}, Node ${process.version}, load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}\n`);
    console.log('| role | RSS idle, MB | load | RSS after, MB | peak RSS (VmHWM), MB | SIGTERM → exit |');
    console.log('| --- | --- | --- | --- | --- | --- |');
    for (const r of ROLES)
      console.log(
        `| ${r} | ${mb(idle[r].rss)} | ${load[r]} | ${mb(loaded[r].rss)} | ${mb(loaded[r].peak)} | ${stops[r].s.toFixed(2)} s (${stops[r].how}) |`,
      );
  } finally {
    for (const { child } of children.values()) child.kill('SIGKILL');
    await env.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
