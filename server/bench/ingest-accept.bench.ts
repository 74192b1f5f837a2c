/**
 * Ingest accept rate: requests/s and latency of `POST /ingest/error` for Tracker's ingest role
 * alone (PostgreSQL + Redis mode) against a bare node:http server that reads the body and
 * answers 202, measured in the same run with the same load generator (autocannon).
 *
 * A third target, fastify with one empty route configured as Tracker configures it, is the
 * framework's floor: what any fastify-based edge costs before it authenticates, validates or
 * enqueues anything (TRACKER_BENCH_FLOOR=0 leaves it out).
 *
 * Each target runs in a forked child process and autocannon runs here, in the parent, so all
 * targets get the same treatment on this 2-core machine. Targets alternate A B C C B A so slow
 * drift of the machine (another job, thermal, cache) does not favour one of them.
 *
 * The targets run the built packages, as `npm start` does (`targetExecArgv`); the bench
 * scripts build them first.
 *
 * Run: `npm run bench -w @tracker/server` (or `npm run bench` at the root).
 * Env: TRACKER_BENCH_ROUNDS (default 3), TRACKER_BENCH_DURATION (s, default 10),
 *      TRACKER_BENCH_SOURCE=1 (targets run the TypeScript sources through tsx, no build needed),
 *      TRACKER_BENCH_CONNECTIONS (default 50), TRACKER_BENCH_STRICT=1 (exit 1 below target),
 *      TRACKER_BENCH_LOG_LEVEL (Tracker's log level, default silent),
 *      TRACKER_BENCH_FLOOR=0 (skip the fastify floor target),
 *      TRACKER_BENCH_NO_DOC=1 (do not rewrite docs/benchmarks.md),
 *      TRACKER_BENCH_BREADCRUMBS=N (each event carries N breadcrumbs, as the browser SDK sends them),
 *      TRACKER_BENCH_DISCARDS=1 (Tracker's project discards an issue the events do not match: every
 *      request pays the edge's discard check; docs/decisions/023-unmerge-snooze-discard.md),
 *      TRACKER_BENCH_FILTERS=1 (every inbound filter on, none matching: every request pays the whole
 *      filter check; docs/decisions/055-inbound-filters.md).
 */
import autocannon from 'autocannon';
import {
  describeMachine,
  envFlag,
  envNumber,
  fmt,
  loadAverage,
  machineLine,
  table,
  writeDocSection,
} from '@tracker/core/testing';
import { median, openBenchEnvironment } from './bench-environment';
import { sampleEvent } from './sample-event';
import { killChildren, startTarget, type TargetKind } from './target-process';

/** Issue 21 (issue 2 asked 0.5): above the empty fastify route, so only an edge in front of fastify can meet it. */
const TARGET_RATIO = 0.8;
const ROUNDS = envNumber('BENCH_ROUNDS', 3);
const DURATION_S = envNumber('BENCH_DURATION', 10);
const WARMUP_S = 2;
const CONNECTIONS = envNumber('BENCH_CONNECTIONS', 50);
const STRICT = envFlag('BENCH_STRICT');
const LOG_LEVEL = process.env.TRACKER_BENCH_LOG_LEVEL || 'silent';
const FLOOR = process.env.TRACKER_BENCH_FLOOR !== '0';
const FROM_SOURCE = envFlag('BENCH_SOURCE');
const DISCARDS = envFlag('BENCH_DISCARDS');
const FILTERS = envFlag('BENCH_FILTERS');

/** Issue 5: the quota and rate-limit checks may cost at most this share of the accept rate. */
const GATE_COST_TARGET = 0.1;

const TARGETS: TargetKind[] = FLOOR
  ? ['bare', 'fastify', 'tracker', 'tracker-nogate']
  : ['bare', 'tracker', 'tracker-nogate'];
const isTracker = (kind: TargetKind) => kind === 'tracker' || kind === 'tracker-nogate';

interface RunResult {
  target: TargetKind;
  round: number;
  rps: number;
  /** CPU time of the target process per 2xx answered in the measured window, µs. */
  cpuPerRequest: number;
  /** CPU time of this process (autocannon) per 2xx in the measured window, µs. */
  loadGenCpuPerRequest: number;
  /** Share of one core the target process used during the measured window. */
  targetCores: number;
  /** Tracker only: CPU time of the Redis server per 2xx in the measured window, µs. */
  redisCpuPerRequest?: number;
  p50: number;
  p99: number;
  /** 2xx seen by the client during the measured window (and warm-up). */
  ok: number;
  okWarmup: number;
  non2xx: number;
  errors: number;
  /** Tracker only: 202s the server wrote, payloads it enqueued, stream entries found afterwards. */
  serverAccepted?: number;
  enqueued?: number;
  streamLength?: number;
}

function load(url: string, key: string, body: string, seconds: number): Promise<autocannon.Result> {
  return autocannon({
    url: `${url}/ingest/error`,
    method: 'POST',
    connections: CONNECTIONS,
    duration: seconds,
    headers: { 'content-type': 'application/json', authorization: `DSN ${key}` },
    body,
  });
}

/** CPU time (user + system, µs) the Redis server has used so far, from INFO cpu. */
async function redisCpu(readInfo: () => Promise<unknown>): Promise<number> {
  const info = String(await readInfo());
  const get = (name: string) => Number(new RegExp(`^${name}:([0-9.]+)`, 'm').exec(info)?.[1] ?? 0);
  return (get('used_cpu_user') + get('used_cpu_sys')) * 1e6;
}

async function main(): Promise<void> {
  const machine = describeMachine();
  const started = new Date();
  const loadAtStart = loadAverage();
  const body = JSON.stringify(sampleEvent(envNumber('BENCH_BREADCRUMBS', 0)));
  const bytes = Buffer.byteLength(body);
  console.log(`ingest-accept: ${machineLine(machine)}; load average ${loadAtStart}`);
  console.log(
    `body ${bytes} B, ${CONNECTIONS} connections, ${WARMUP_S} s warm-up + ${DURATION_S} s per run, ${ROUNDS} rounds`,
  );

  const results: RunResult[] = [];
  const problems: string[] = [];
  const env = await openBenchEnvironment(LOG_LEVEL);
  const { redis, prefix, childEnv } = env;
  try {
    const stream = `${prefix}:jobs`;
    // A B C C B A …: each round reverses the order of the previous one.
    for (let round = 1; round <= ROUNDS; round++) {
      const order: TargetKind[] = round % 2 === 1 ? TARGETS : [...TARGETS].reverse();
      for (const kind of order) {
        // With the gate on, a per-second limit far above the load: the rate-limit check runs on
        // every request without ever refusing one.
        const key = isTracker(kind)
          ? (
              await env.freshProject(
                kind === 'tracker'
                  ? { rateLimitPerSecond: 1_000_000, discards: DISCARDS, filters: FILTERS }
                  : { discards: DISCARDS, filters: FILTERS },
              )
            ).key
          : `et_${'0'.repeat(32)}`;
        if (env.aborted) throw new Error('interrupted');
        const target = await startTarget(kind, childEnv);
        let warm: autocannon.Result;
        let run: autocannon.Result;
        let counts: { accepted: number; enqueued: number };
        let cpuMicros: number;
        let redisMicros: number;
        let selfMicros: number;
        try {
          warm = await load(target.url, key, body, WARMUP_S);
          const cpuBefore = await target.cpu();
          const redisBefore = await redisCpu(() => redis.info('cpu'));
          const selfBefore = process.cpuUsage();
          run = await load(target.url, key, body, DURATION_S);
          const self = process.cpuUsage(selfBefore);
          selfMicros = self.user + self.system;
          cpuMicros = (await target.cpu()) - cpuBefore;
          redisMicros = (await redisCpu(() => redis.info('cpu'))) - redisBefore;
        } finally {
          counts = await target.stop();
        }
        const r: RunResult = {
          target: kind,
          round,
          rps: run.requests.average,
          cpuPerRequest: cpuMicros / Math.max(1, run['2xx']),
          loadGenCpuPerRequest: selfMicros / Math.max(1, run['2xx']),
          targetCores: cpuMicros / (DURATION_S * 1e6),
          p50: run.latency.p50,
          p99: run.latency.p99,
          ok: run['2xx'],
          okWarmup: warm['2xx'],
          non2xx: run.non2xx + warm.non2xx,
          errors: run.errors + run.timeouts + warm.errors + warm.timeouts,
        };
        if (isTracker(kind)) {
          r.redisCpuPerRequest = redisMicros / Math.max(1, run['2xx']);
          // Honesty check (no worker runs, so nothing drains the stream): the stream holds
          // exactly what the server enqueued, the server wrote a 202 only after an enqueue
          // (202s ≤ enqueued) and the client saw no 2xx the server did not write. Enqueued can
          // exceed 202s by the requests in flight when autocannon cut its connections.
          r.serverAccepted = counts.accepted;
          r.enqueued = counts.enqueued;
          r.streamLength = await redis.xLen(stream);
          const clientOk = r.ok + r.okWarmup;
          if (r.streamLength !== counts.enqueued) {
            problems.push(
              `round ${round}: stream has ${r.streamLength} entries, the server enqueued ${counts.enqueued}`,
            );
          }
          if (counts.accepted > counts.enqueued || clientOk > counts.accepted) {
            problems.push(
              `round ${round}: client 2xx ${clientOk}, server 202s ${counts.accepted}, enqueued ${counts.enqueued} (expected client ≤ server ≤ enqueued)`,
            );
          }
          // Start the next run from an empty stream (bounded Redis memory, exact count).
          await env.clearRedis();
        }
        if (r.non2xx > 0 || r.errors > 0)
          problems.push(`round ${round} ${kind}: ${r.non2xx} non-2xx, ${r.errors} errors/timeouts`);
        results.push(r);
        console.log(
          `round ${round} ${kind.padEnd(14)} ${fmt(r.rps).padStart(7)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  ${fmt(r.cpuPerRequest)} µs CPU/req ` +
            `(${r.targetCores.toFixed(2)} core; autocannon ${fmt(r.loadGenCpuPerRequest)} µs/req)  2xx ${r.ok}` +
            (isTracker(kind)
              ? `  Redis ${fmt(r.redisCpuPerRequest!)} µs CPU/req  (incl. warm-up: client 2xx ${r.ok + r.okWarmup}, server 202s ${r.serverAccepted}, enqueued ${r.enqueued}, stream ${r.streamLength})`
              : ''),
        );
      }
    }
  } finally {
    await env.close();
  }

  const of = (kind: TargetKind) => results.filter((r) => r.target === kind);
  const summary = (kind: TargetKind) => ({
    rps: median(of(kind).map((r) => r.rps)),
    p50: median(of(kind).map((r) => r.p50)),
    p99: median(of(kind).map((r) => r.p99)),
    cpu: median(of(kind).map((r) => r.cpuPerRequest)),
    redisCpu: median(of(kind).map((r) => r.redisCpuPerRequest ?? 0)),
    cores: median(of(kind).map((r) => r.targetCores)),
    loadGen: median(of(kind).map((r) => r.loadGenCpuPerRequest)),
  });
  const bare = summary('bare');
  const floor = FLOOR ? summary('fastify') : undefined;
  const tracker = summary('tracker');
  const nogate = summary('tracker-nogate');
  const ratio = tracker.rps / bare.rps;
  const cpuRatio = tracker.cpu / bare.cpu;
  const met = ratio >= TARGET_RATIO && problems.length === 0;
  // What the checks cost: the share of the accept rate lost with them on, same run.
  const gateCost = 1 - tracker.rps / nogate.rps;
  const gateCpu = tracker.cpu + tracker.redisCpu - (nogate.cpu + nogate.redisCpu);
  const gateMet = gateCost < GATE_COST_TARGET && problems.length === 0;

  console.log(
    `\nmedian bare    ${fmt(bare.rps)} req/s  p50 ${bare.p50} ms  p99 ${bare.p99} ms  ${fmt(bare.cpu)} µs CPU/req`,
  );
  if (floor) {
    console.log(
      `median fastify ${fmt(floor.rps)} req/s  p50 ${floor.p50} ms  p99 ${floor.p99} ms  ${fmt(floor.cpu)} µs CPU/req (ratio to bare ${(floor.rps / bare.rps).toFixed(2)})`,
    );
  }
  console.log(
    `median tracker ${fmt(tracker.rps)} req/s  p50 ${tracker.p50} ms  p99 ${tracker.p99} ms  ${fmt(tracker.cpu)} µs CPU/req (+ Redis ${fmt(tracker.redisCpu)})`,
  );
  console.log(
    `median tracker without quota/rate checks ${fmt(nogate.rps)} req/s  p99 ${nogate.p99} ms  ${fmt(nogate.cpu)} µs CPU/req (+ Redis ${fmt(nogate.redisCpu)})`,
  );
  console.log(`CPU per request tracker/bare ${cpuRatio.toFixed(1)}×`);
  console.log(
    `quota + rate checks cost ${(gateCost * 100).toFixed(1)} % of the accept rate (target < ${GATE_COST_TARGET * 100} %) ${gateMet ? 'MET' : 'MISSED'}; ${fmt(gateCpu)} µs CPU/req (server + Redis)`,
  );
  console.log(`ratio tracker/bare ${ratio.toFixed(2)} (target ≥ ${TARGET_RATIO}) ${met ? 'MET' : 'MISSED'}`);
  for (const p of problems) console.log(`PROBLEM: ${p}`);

  if (!envFlag('BENCH_NO_DOC')) {
    const acceptedTotal = [...of('tracker'), ...of('tracker-nogate')].reduce((n, r) => n + (r.serverAccepted ?? 0), 0);
    writeDocSection(
      'ingest-accept',
      `## Ingest accept rate (\`server/bench/ingest-accept.bench.ts\`)

- **Date**: ${started.toISOString()}
- **Machine**: ${machineLine(machine)}; 1-minute load average ${loadAtStart} at the start, ${loadAverage()} at the end${Math.max(loadAtStart, loadAverage()) > machine.nproc ? ' (**other work was competing for the cores: absolute figures are depressed**)' : ''}
- **Command**: \`npm run bench\` at the root, which builds every package and runs (in \`server/\`) \`TSX_TSCONFIG_PATH=../tsconfig.json node --conditions=@tracker/source --import tsx bench/ingest-accept.bench.ts\` (\`npm run bench:ingest -w @tracker/server\` alone builds what the server needs first). ${FROM_SOURCE ? '**The targets ran the TypeScript sources through tsx (TRACKER_BENCH_SOURCE=1), not what `npm start` runs.**' : 'The targets run the built packages (`dist/`), as `npm start` does.'}
- **Load**: autocannon (programmatic), ${CONNECTIONS} connections, \`POST /ingest/error\` with the same ${bytes}-byte JSON event (15-frame V8 stack, tags, user, context) and a valid DSN key; per run a ${WARMUP_S} s warm-up, then ${DURATION_S} s measured. ${ROUNDS} rounds, targets alternating (${FLOOR ? 'A B C C B A' : 'A B B A'} …); the figures are the median over rounds.
- **Targets**: (a) bare \`node:http\` server that reads the body and answers \`202 {"id": "<uuid>"}\`; ${FLOOR ? `(b) the framework floor: fastify 5 configured as \`createTracker\` configures it (no logger, no request logging, same keep-alive), one \`POST /ingest/error\` route with the 1 MB body limit and fastify's JSON parser that answers \`202 {"id": "<uuid>"}\`: no authentication, validation or queue, only for comparison; ` : ''}(${FLOOR ? 'c' : 'b'}) Tracker: \`createTracker\` with \`roles: ['ingest']\`, every request through the whole route (DSN check, validation, the quota and rate-limit gate, enqueue), PostgreSQL + Redis mode, \`NODE_ENV=production\`, log level \`${LOG_LEVEL}\`, a fresh business-plan organization and DSN key per run whose per-second rate limit (1,000,000) is set so the rate check runs without refusing; (${FLOOR ? 'd' : 'c'}) the same Tracker with the quota and rate-limit checks off (\`createTracker({ quota: false })\`, bench only), to measure what the checks cost (issue 5). **Each target runs in its own forked child process, autocannon in the parent**, so all get the same treatment on the 2 cores (Tracker also shares them with Redis, which is part of what it costs).
- **Honesty check**: no worker runs, so nothing drains the stream. After each Tracker run (warm-up included) the stream length must equal the payloads the server enqueued, the server must have written no more 202s than it enqueued, and the client must have seen no more 2xx than the server wrote (${fmt(acceptedTotal)} × 202 in total; ${problems.length === 0 ? 'all checks passed' : 'FAILED, see below'}). Enqueued exceeds 202s written by at most the requests in flight when autocannon drops its connections at the end of a run.

${table(
  [
    'target',
    'req/s (median)',
    'p50 ms',
    'p99 ms',
    'server CPU µs / request',
    'cores the server used',
    'Redis CPU µs / request',
    'autocannon CPU µs / request',
  ],
  [
    ['bare node:http', fmt(bare.rps), bare.p50, bare.p99, fmt(bare.cpu), bare.cores.toFixed(2), '—', fmt(bare.loadGen)],
    ...(floor
      ? [
          [
            'fastify, empty route (floor)',
            fmt(floor.rps),
            floor.p50,
            floor.p99,
            fmt(floor.cpu),
            floor.cores.toFixed(2),
            '—',
            fmt(floor.loadGen),
          ],
        ]
      : []),
    [
      'Tracker, checks off',
      fmt(nogate.rps),
      nogate.p50,
      nogate.p99,
      fmt(nogate.cpu),
      nogate.cores.toFixed(2),
      fmt(nogate.redisCpu),
      fmt(nogate.loadGen),
    ],
    [
      'Tracker ingest role',
      fmt(tracker.rps),
      tracker.p50,
      tracker.p99,
      fmt(tracker.cpu),
      tracker.cores.toFixed(2),
      fmt(tracker.redisCpu),
      fmt(tracker.loadGen),
    ],
  ],
)}

**Ratio Tracker / bare: ${ratio.toFixed(2)}** (target ≥ ${TARGET_RATIO}: ${met ? 'met' : 'missed'}).${floor ? ` For scale, the empty fastify route reaches ${(floor.rps / bare.rps).toFixed(2)} of bare at ${fmt(floor.cpu)} µs CPU per request, and Tracker ${(tracker.rps / floor.rps).toFixed(2)} of that floor.` : ''} Server CPU time per request (user + system of the target process over the measured window, divided by its 2xx): Tracker costs ${cpuRatio.toFixed(1)}× the bare server, plus the Redis server's share (\`INFO cpu\` over the same window; it runs on the same 2 cores). These figures move less than req/s when other work shares the machine, and when the server is the bottleneck the req/s ratio tends to the inverse of the CPU ratio. "Cores the server used" near 1.0 means its single event loop was saturated: it, not the load generator, set the rate.

**Quota and rate-limit checks: ${(gateCost * 100).toFixed(1)} % of the accept rate** (Tracker with them on against Tracker with them off, same run; target < ${GATE_COST_TARGET * 100} %: ${gateMet ? 'met' : 'missed'}); in CPU, ${fmt(gateCpu)} µs per request, server and Redis together. Each process reserves quota and rate units from Redis in blocks and hands them out in memory (\`ingest/src/quota/\`, docs/quotas.md), so a steady flow costs a Redis round trip every few hundred events, not one per event.

Every run:

${table(
  [
    'round',
    'target',
    'req/s',
    'p50 ms',
    'p99 ms',
    'CPU µs/req (cores used)',
    'autocannon CPU µs/req',
    '2xx (measured)',
    'non-2xx / errors',
    'client 2xx / server 202s / enqueued / stream (incl. warm-up)',
  ],
  results.map((r) => [
    r.round,
    r.target,
    fmt(r.rps),
    r.p50,
    r.p99,
    `${fmt(r.cpuPerRequest)} (${r.targetCores.toFixed(2)})`,
    fmt(r.loadGenCpuPerRequest),
    fmt(r.ok),
    `${r.non2xx} / ${r.errors}`,
    r.streamLength === undefined
      ? '—'
      : `${fmt(r.ok + r.okWarmup)} / ${fmt(r.serverAccepted!)} / ${fmt(r.enqueued!)} / ${fmt(r.streamLength)}`,
  ]),
)}
${problems.length > 0 ? `\nProblems:\n\n${problems.map((p) => `- ${p}`).join('\n')}\n` : ''}`,
    );
    console.log('docs/benchmarks.md updated');
  }

  if (STRICT && !(met && gateMet)) process.exitCode = 1;
}

main().catch((err) => {
  killChildren();
  console.error(err);
  process.exitCode = 1;
});
