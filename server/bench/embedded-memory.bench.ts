/**
 * Issue 21, embedded memory: RSS of the built server (`node server/dist/main.js`, every role,
 * embedded PGlite, `NODE_ENV=production`, as `npm start` runs it) idle after its FIRST start on
 * an empty data folder, after 10,000 events, and idle after a restart on that folder; the time
 * from spawn to `/readyz` answering 200 on each start. Baseline in the same run: PGlite alone
 * in a process of its own (no Tracker code), on a fresh folder (its initdb) and on an existing
 * one, with PGlite's default settings and with Tracker's. Targets: ≤ 300 MB idle after the
 * first start and after a restart, ≤ 400 MB after 10,000 events, ready in ≤ 3 s.
 *
 *   npm run bench:embedded-memory -w @tracker/server     (builds what the server needs first)
 *
 * Knobs: TRACKER_BENCH_EVENTS (10,000), TRACKER_BENCH_IDLE_MS (5,000: the wait before an idle
 * reading), TRACKER_BENCH_STRICT=1 (exit 1 on a missed target), TRACKER_BENCH_NO_DOC=1.
 * RSS does not depend much on a busy machine; the ready times do: the section records the load.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { PGLITE_START_PARAMS } from '@tracker/core';
import {
  describeMachine,
  envFlag,
  envNumber,
  fmt,
  freePort,
  loadAverage,
  machineLine,
  table,
  writeDocSection,
} from '@tracker/core/testing';
import { signUpWithProject } from '../test/helpers';
import { sampleEvent } from './sample-event';

const ROOT = join(__dirname, '..', '..');
const MAIN = join(ROOT, 'server', 'dist', 'main.js');
const PROBE = join(__dirname, 'memory-probe.cjs');
const EVENTS = envNumber('BENCH_EVENTS', 10_000);
const IDLE_MS = envNumber('BENCH_IDLE_MS', 5_000);
/** After the events, a second reading this long after the first: V8 collects the garbage of the load only once allocation has been low for a while. */
const SETTLE_MS = envNumber('BENCH_SETTLE_MS', 30_000);
const STRICT = envFlag('BENCH_STRICT');
const MB = 1024 * 1024;
/** The free plan takes 5,000 events a month: the events are spread over this many organizations. */
const ORGS = Math.max(1, Math.ceil(EVENTS / 2_500));

const TARGETS = { firstStartMb: 300, restartMb: 300, afterEventsMb: 400, readyS: 3 };

interface Reading {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (bytes: number) => fmt(bytes / MB);

function pgliteAlone(dir: string, settings: 'defaults' | 'tracker'): { readyMs: number } & Reading {
  const params = settings === 'defaults' ? 'defaults' : JSON.stringify(PGLITE_START_PARAMS);
  const out = spawnSyncJson(['--import', 'tsx', join(__dirname, 'pglite-alone.ts'), dir, params]);
  return out as { readyMs: number } & Reading;
}

function spawnSyncJson(args: string[]): unknown {
  const { execFileSync } = require('node:child_process') as typeof import('node:child_process');
  const text = execFileSync(process.execPath, args, { encoding: 'utf8', env: { ...process.env } });
  return JSON.parse(text.trim().split('\n').pop()!);
}

interface Server {
  child: ChildProcess;
  url: string;
  readyS: number;
  /** CPU seconds (user + system, its finished children included) the process used until ready: load hardly moves it. */
  readyCpuS: number;
}

/** utime + stime + cutime + cstime of a process, in seconds (/proc/<pid>/stat, clock ticks of 10 ms). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / 100;
}

async function startServer(dataDir: string, probe: string): Promise<Server> {
  const port = await freePort();
  const started = Date.now();
  const child = spawn(process.execPath, ['-r', PROBE, MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      TRACKER_DATA_DIR: dataDir,
      TRACKER_LOG_LEVEL: 'warn',
      TRACKER_MEMORY_PROBE: probe,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode})`);
    try {
      if ((await fetch(`${url}/readyz`)).status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() - started > 180_000) throw new Error('the server did not become ready in 3 minutes');
    await sleep(25);
  }
  return { child, url, readyS: (Date.now() - started) / 1000, readyCpuS: cpuSeconds(child.pid!) };
}

/** The server's own reading (the probe), taken after it has been idle for `idleMs`. */
async function idleReading(server: Server, probe: string, idleMs = IDLE_MS): Promise<Reading & { vmHwm: number }> {
  await sleep(idleMs);
  const file = `${probe}.${server.child.pid}`;
  const before = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).at : 0;
  for (let i = 0; i < 40; i++) {
    await sleep(100);
    const r = JSON.parse(readFileSync(file, 'utf8'));
    if (r.at > before) return { ...r, rss: r.vmRss };
  }
  throw new Error('the memory probe stopped writing');
}

async function stop(server: Server): Promise<void> {
  const exited = new Promise((r) => server.child.once('exit', r));
  server.child.kill('SIGTERM');
  await exited;
}

async function storedEvents(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Number(/^tracker_events_stored_total (\d+)/m.exec(text)?.[1] ?? 0);
}

async function main(): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'tracker-memory-bench-'));
  const probe = join(scratch, 'probe');
  const loadStart = loadAverage();
  let server: Server | undefined;
  try {
    // Baseline: PGlite alone, first on a fresh folder (initdb in the process), then reopened.
    const aloneFresh = pgliteAlone(join(scratch, 'alone'), 'defaults');
    const aloneOpen = pgliteAlone(join(scratch, 'alone'), 'defaults');
    const aloneTracker = pgliteAlone(join(scratch, 'alone'), 'tracker');

    const dataDir = join(scratch, 'data');
    server = await startServer(dataDir, probe);
    const firstServer = server;
    const firstReady = server.readyS;
    const first = await idleReading(server, probe);

    // 10,000 events through the fast path, spread over organizations (the free plan's quota).
    const keys = [];
    for (let i = 0; i < ORGS; i++) keys.push((await signUpWithProject(server.url, `Bench ${i}`)).key);
    const body = JSON.stringify(sampleEvent());
    const sendStarted = Date.now();
    let accepted = 0;
    for (const key of keys) {
      const r = await autocannon({
        url: `${server.url}/ingest/error`,
        method: 'POST',
        connections: 10,
        amount: Math.ceil(EVENTS / ORGS),
        headers: { 'content-type': 'application/json', authorization: `DSN ${key}` },
        body,
      });
      accepted += r['2xx'];
    }
    const url = server.url;
    for (;;) {
      if ((await storedEvents(url)) >= accepted) break;
      if (Date.now() - sendStarted > 600_000)
        throw new Error(`stored ${await storedEvents(url)} of ${accepted} in 10 minutes`);
      await sleep(250);
    }
    const processedS = (Date.now() - sendStarted) / 1000;
    const afterEventsSoon = await idleReading(server, probe);
    const afterEvents = await idleReading(server, probe, SETTLE_MS);
    await stop(server);
    server = undefined;

    server = await startServer(dataDir, probe);
    const restartServer = server;
    const restartReady = server.readyS;
    const restart = await idleReading(server, probe);
    await stop(server);
    server = undefined;
    const loadEnd = loadAverage();

    const ready = (s: Server) => `ready in ${s.readyS.toFixed(2)} s wall, ${s.readyCpuS.toFixed(2)} s of CPU`;
    const rows: Array<[string, Reading, number | undefined, string]> = [
      ['first start, empty data folder', first, TARGETS.firstStartMb, ready(firstServer)],
      [
        `${IDLE_MS / 1000} s after ${fmt(accepted)} events were stored (${processedS.toFixed(1)} s after the first was sent)`,
        afterEventsSoon,
        undefined,
        `peak RSS (VmHWM) of the run so far ${mb(afterEventsSoon.vmHwm)} MB`,
      ],
      [`${(IDLE_MS + SETTLE_MS) / 1000} s after the events were stored`, afterEvents, TARGETS.afterEventsMb, ''],
      ['restart on that folder', restart, TARGETS.restartMb, ready(restartServer)],
    ];
    const baseline: Array<[string, { readyMs: number } & Reading]> = [
      ['PGlite alone, fresh folder (initdb in the process), PGlite defaults', aloneFresh],
      ['PGlite alone, existing folder, PGlite defaults', aloneOpen],
      ["PGlite alone, existing folder, Tracker's settings (shared_buffers 16MB …)", aloneTracker],
    ];
    const readyMet = firstReady <= TARGETS.readyS && restartReady <= TARGETS.readyS;
    const memMet = rows.every(([, r, target]) => target === undefined || r.rss / MB <= target);
    const serverTable = table(
      [
        'Tracker (built server, all roles)',
        'RSS, MB',
        'target',
        'ratio to PGlite alone (existing folder, defaults)',
        'V8 heap used / total, MB',
        'external (WASM memory and buffers), MB',
        'note',
      ],
      rows.map(([label, r, target, note]) => [
        label,
        `**${mb(r.rss)}**`,
        target === undefined ? '' : `≤ ${target} ${r.rss / MB <= target ? '✓' : '✗'}`,
        (r.rss / aloneOpen.rss).toFixed(2),
        `${mb(r.heapUsed)} / ${mb(r.heapTotal)}`,
        mb(r.external),
        note,
      ]),
    );
    const baselineTable = table(
      ['baseline', 'RSS 2 s after ready, MB', 'peak RSS, MB', 'ready, ms'],
      baseline.map(([label, r]) => [label, mb(r.rss), mb((r as unknown as { hwm: number }).hwm), fmt(r.readyMs)]),
    );
    const summary = `Targets: ≤ ${TARGETS.firstStartMb} MB idle after the first start and after a restart, ≤ ${TARGETS.afterEventsMb} MB after ${fmt(EVENTS)} events: **${memMet ? 'met' : 'missed'}**; ready in ≤ ${TARGETS.readyS} s of wall time: **${readyMet ? 'met' : 'missed'}** (first start ${firstReady.toFixed(2)} s, restart ${restartReady.toFixed(2)} s, load average ${loadStart} → ${loadEnd} on ${describeMachine().nproc} cores; the CPU seconds until ready, ${firstServer.readyCpuS.toFixed(2)} and ${restartServer.readyCpuS.toFixed(2)}, are what a quiet machine would wait at the least).`;
    console.log(`\n${serverTable}\n\n${baselineTable}\n\n${summary}\n`);
    if (!envFlag('BENCH_NO_DOC')) {
      writeDocSection(
        'embedded-memory',
        `## Embedded memory (\`server/bench/embedded-memory.bench.ts\`)

- **Date**: ${new Date().toISOString()}
- **Machine**: ${machineLine(describeMachine())}; 1-minute load average ${loadStart} at the start, ${loadEnd} at the end (RSS hardly depends on it; the ready times do)
- **Command**: \`npm run bench\` at the root, which runs (in \`server/\`) \`TSX_TSCONFIG_PATH=../tsconfig.json node --conditions=@tracker/source --import tsx bench/embedded-memory.bench.ts\` (\`npm run bench:embedded-memory -w @tracker/server\` alone). The server is the build (\`node server/dist/main.js\`, \`NODE_ENV=production\`, every role), as \`npm start\` runs it; RSS is the kernel's VmRSS read by a preloaded probe (\`bench/memory-probe.cjs\`) after ${IDLE_MS / 1000} s idle; ready = spawn → \`/readyz\` 200; CPU = the process's user + system time until then, a finished child's included.

${serverTable}

${baselineTable}

${summary}`,
      );
    }
    if (STRICT && !(memMet && readyMet)) process.exitCode = 1;
  } finally {
    if (server) server.child.kill('SIGKILL');
    rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
