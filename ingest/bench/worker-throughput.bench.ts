/**
 * Worker processing rate: one worker (startWorker, the production loop) drains a Redis stream
 * pre-filled with 50,000 error jobs (200 issues, ~2 KB each, in the real job format) into a
 * fresh PostgreSQL database. Baselines in the same run, into scratch copies of the events table
 * (same columns and indexes, no foreign keys): the same rows already inside PostgreSQL copied by
 * its own INSERT … SELECT in batch-size slices (issue 21's), and the same rows as multi-row
 * INSERT … VALUES from Node in 500-row transactions. Then one worker process against two
 * (bench/worker-process.ts), the same jobs each time, with the CPU of every process and how
 * often the workers' backends wait for a lock.
 *
 * Run: `npm run bench -w @tracker/ingest` (or `npm run bench` at the root).
 * Env: TRACKER_WORKER_BATCH_SIZE (default 500), TRACKER_BENCH_EVENTS (default 50000),
 *      TRACKER_BENCH_STRICT=1 (exit 1 below target), TRACKER_BENCH_CPU_PROF=1 (profile the
 *      worker phase, print the hot spots, keep the .cpuprofile), TRACKER_BENCH_NO_DOC=1.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  createProject,
  deadLetterSink,
  EVENT_COLUMNS,
  decodeJob,
  loadConfig,
  openDatabase,
  prepareEvent,
  signUp,
  type Database,
  type ErrorJob,
  type PreparedEvent,
} from '@tracker/core';
import {
  createTestPostgres,
  createTestRedisPrefix,
  TEST_REDIS_URL,
  type TestPostgres,
  describeMachine,
  envFlag,
  envNumber,
  fmt,
  loadAverage,
  machineLine,
  table,
  writeDocSection,
  clockTickMs,
  processCpuMs,
  summarizeCpuProfile,
} from '@tracker/core/testing';
import { createClient } from 'redis';
import type { EntityManager, QueryRunner } from 'typeorm';
import { RedisStreamQueue, type QueueMessage } from '../src/queue';
import { generateJobs } from './worker-data';
import { startWorker, type RunningWorker } from '../src/worker/worker';
import type { ChildMessage } from './worker-process';

const TARGET_EVENTS_PER_S = 3_000;
/** Issue 21: the worker at ≥ 0.30 of PostgreSQL's own INSERT … SELECT, two processes ≥ 1.6 × one. */
const TARGET_SELECT_RATIO = 0.3;
const TARGET_SCALING = 1.6;
const PROCESS_COUNTS = [1, 2];
/** What infra/ (compose, the worker Deployment) gives the worker role's node. */
const WORKER_V8_FLAG = '--max-semi-space-size=64';
const EVENTS = envNumber('BENCH_EVENTS', 50_000);
const ISSUES = 200;
const USERS = 5_000;
const BASELINE_CHUNK = 500;
const TIMEOUT_MS = 150_000;
const STRICT = envFlag('BENCH_STRICT');
const PROFILE = envFlag('BENCH_CPU_PROF');
const BATCH_SIZE = loadConfig({
  TRACKER_WORKER_BATCH_SIZE: process.env.TRACKER_WORKER_BATCH_SIZE,
} as NodeJS.ProcessEnv).workerBatchSize;

// ------------------------------------------------------------------- instrumentation

interface BatchTiming {
  size: number;
  /** Wall time of the queue's receive (XREADGROUP). */
  receive: number;
  receiveStart: number;
  receiveEnd: number;
  /** Of the receive, the part that ran while another batch's transaction was open. */
  receiveOverlapped: number;
  txStart?: number;
  txEnd?: number;
  statements: Map<string, number>;
  /** CPU time of the PostgreSQL backend (ms, from /proc in clock ticks) over each kind of statement. */
  statementCpu: Map<string, number>;
  ack?: number;
}

/**
 * Times the phases of each batch from outside the worker: the queue's receive and ack, the
 * DataSource's transaction, and each statement in it (at the driver connection, so statements
 * TypeORM does not see are counted too). Nothing in src is changed. The worker receives and
 * prepares batch N+1 while batch N's transaction runs, and runs transactions and acks in
 * order, so receives, transactions and acks are matched to batches first in, first out.
 */
function instrument(db: Database, queue: RedisStreamQueue): BatchTiming[] {
  const batches: BatchTiming[] = [];
  const txOpen: Array<{ start: number; end?: number }> = [];
  const receive = queue.receive.bind(queue);
  queue.receive = async (max, waitMs) => {
    const t = performance.now();
    const messages = await receive(max, waitMs);
    const end = performance.now();
    if (messages.length > 0) {
      // How much of [t, end) some transaction covered.
      let overlapped = 0;
      for (const tx of txOpen) overlapped += Math.max(0, Math.min(end, tx.end ?? end) - Math.max(t, tx.start));
      batches.push({
        size: messages.length,
        receive: end - t,
        receiveStart: t,
        receiveEnd: end,
        receiveOverlapped: overlapped,
        statements: new Map(),
        statementCpu: new Map(),
      });
    }
    return messages;
  };
  const ack = queue.ack.bind(queue);
  queue.ack = async (messages: QueueMessage[]) => {
    const t = performance.now();
    await ack(messages);
    const batch = batches.find((b) => b.ack === undefined && b.txEnd !== undefined);
    if (batch) batch.ack = performance.now() - t;
  };
  const ds = db.ds as any;
  const transaction = ds.transaction.bind(ds);
  ds.transaction = async (...args: any[]) => {
    const fn = args.pop() as (em: EntityManager) => Promise<unknown>;
    const t = performance.now();
    const batch = batches.find((b) => b.txStart === undefined);
    if (batch) batch.txStart = t;
    const open: { start: number; end?: number } = { start: t };
    txOpen.push(open);
    try {
      return await transaction(...args, async (em: EntityManager) => {
        const qr = em.queryRunner as QueryRunner & { connect(): Promise<any> };
        const client = await qr.connect();
        const own = Object.prototype.hasOwnProperty.call(client, 'query');
        const query = client.query;
        client.query = function (config: any, ...rest: any[]) {
          const s = performance.now();
          const cpu0 = processCpuMs(client.processID);
          const result = query.call(client, config, ...rest);
          if (result && typeof result.then === 'function') {
            const label = statementLabel(typeof config === 'string' ? config : String(config?.text ?? ''));
            const done = () => {
              batch?.statements.set(label, (batch.statements.get(label) ?? 0) + performance.now() - s);
              const cpu1 = processCpuMs(client.processID);
              if (cpu0 !== null && cpu1 !== null)
                batch?.statementCpu.set(label, (batch.statementCpu.get(label) ?? 0) + cpu1 - cpu0);
            };
            result.then(done, done);
          }
          return result;
        };
        try {
          return await fn(em);
        } finally {
          if (own) client.query = query;
          else delete client.query;
        }
      });
    } finally {
      open.end = performance.now();
      if (batch) batch.txEnd = open.end;
      while (txOpen.length > 2) txOpen.shift();
    }
  };
  return batches;
}

function statementLabel(sql: string): string {
  const m = /^\s*(INSERT INTO|UPDATE|DELETE FROM|SELECT .*? FROM)\s+("?\w+"?)/is.exec(sql);
  return m ? `${m[1].split(/\s/)[0].toUpperCase()} ${m[2]}` : sql.trim().split(/\s+/).slice(0, 2).join(' ');
}

/** Self time by function and by package/file of a V8 CPU profile, largest first. */

// ------------------------------------------------------------------------------ CPU time

/**
 * CPU time (ms) of this process and of the PostgreSQL backends serving this database. On a
 * machine shared with other work, wall time stretches but CPU time per event barely moves, so
 * it shows what the work costs and where (Node or PostgreSQL) whatever the noise.
 */
class CpuMeter {
  private readonly tick = clockTickMs();
  private node = process.cpuUsage();
  private pg = new Map<number, number>();

  constructor(private readonly db: Database) {}

  private async backends(): Promise<Map<number, number>> {
    const rows: Array<{ pid: number }> = await this.db.ds.query(
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database()',
    );
    const out = new Map<number, number>();
    for (const { pid } of rows) {
      try {
        // Fields after the command name: utime and stime are the 12th and 13th.
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        out.set(pid, (Number(f[11]) + Number(f[12])) * this.tick);
      } catch {
        // not on this host (remote PostgreSQL) or gone
      }
    }
    return out;
  }

  async start(): Promise<void> {
    this.pg = await this.backends();
    this.node = process.cpuUsage();
  }

  async read(): Promise<{ nodeMs: number; pgMs: number }> {
    const n = process.cpuUsage(this.node);
    const nodeMs = (n.user + n.system) / 1000;
    const end = await this.backends();
    let pgMs = 0;
    for (const [pid, ms] of end) pgMs += ms - (this.pg.get(pid) ?? 0);
    return { nodeMs, pgMs };
  }
}

/**
 * Work PostgreSQL does outside the bench's own backends, which the CPU columns do not count but
 * which shares the same cores: checkpoints (started by anyone on the server, e.g. another
 * session's DROP DATABASE) and autovacuum/autoanalyze of the tables the worker writes.
 */
interface PgBackground {
  checkpoints: number;
  buffersCheckpoint: number;
  tables: Map<string, { vacuums: number; analyzes: number }>;
}

async function pgBackground(db: Database): Promise<PgBackground> {
  const [bg] = await db.ds.query(
    'SELECT (checkpoints_timed + checkpoints_req)::int AS checkpoints, buffers_checkpoint::int AS buffers FROM pg_stat_bgwriter',
  );
  const rows: Array<{ relname: string; vacuums: number; analyzes: number }> = await db.ds.query(
    `SELECT relname, autovacuum_count::int AS vacuums, autoanalyze_count::int AS analyzes FROM pg_stat_user_tables
     WHERE relname IN ('events', 'issues', 'issue_users', 'issue_releases')`,
  );
  return {
    checkpoints: bg?.checkpoints ?? 0,
    buffersCheckpoint: bg?.buffers ?? 0,
    tables: new Map(rows.map((r) => [r.relname, { vacuums: r.vacuums, analyzes: r.analyzes }])),
  };
}

function diffBackground(a: PgBackground, b: PgBackground): PgBackground {
  const tables = new Map<string, { vacuums: number; analyzes: number }>();
  for (const [name, t] of b.tables) {
    const before = a.tables.get(name) ?? { vacuums: 0, analyzes: 0 };
    tables.set(name, { vacuums: t.vacuums - before.vacuums, analyzes: t.analyzes - before.analyzes });
  }
  return {
    checkpoints: b.checkpoints - a.checkpoints,
    buffersCheckpoint: b.buffersCheckpoint - a.buffersCheckpoint,
    tables,
  };
}

function describeBackground(b: PgBackground): string {
  const tables = [...b.tables]
    .filter(([, t]) => t.vacuums + t.analyzes > 0)
    .map(([name, t]) => `${name} ${t.vacuums} autovacuum / ${t.analyzes} autoanalyze`);
  // pg_stat counters are sent by the backends now and then (~0.5 s): a count may lag a little.
  return `${b.checkpoints} checkpoint(s) (${fmt(b.buffersCheckpoint)} buffers written), ${tables.length > 0 ? tables.join(', ') : 'no autovacuum of its tables'}`;
}

// ------------------------------------------------------------------- worker processes

interface ProcessRun {
  processes: number;
  ms: number;
  rate: number;
  /** CPU ms over the run: each worker process, the PostgreSQL backends of the database, Redis. */
  workerCpuMs: number[];
  pgCpuMs: number;
  redisCpuMs: number | null;
  /** 1-minute load average at the end of the run. */
  load: number;
  batches: number[];
  /** Of the samples of each worker's backend, the share waiting for a lock. */
  lockWaitShare: number;
  /** WAL bytes per stored event: of records touching this database's relations, and of the whole cluster (an upper bound: other work shares it). */
  walPerEvent: { database: number | null; cluster: number };
  /** Growth of the database (tables and indexes) per stored event. */
  diskPerEvent: number;
  problems: string[];
}

/**
 * WAL written between two LSNs: every record in the cluster, and the records whose blocks belong
 * to this database (pg_walinspect reads them back from the WAL; commit records carry no block
 * and count only in the cluster figure). Null for the database share when pg_walinspect is
 * not installed.
 */
async function walBytes(db: Database, from: string, to: string): Promise<{ database: number | null; cluster: number }> {
  const [c] = await db.ds.query('SELECT pg_wal_lsn_diff($2::pg_lsn, $1::pg_lsn)::float8 AS n', [from, to]);
  try {
    await db.ds.query('CREATE EXTENSION IF NOT EXISTS pg_walinspect');
    const [d] = await db.ds.query(
      `SELECT coalesce(sum(record_length), 0)::float8 AS n FROM pg_get_wal_records_info($1::pg_lsn, $2::pg_lsn)
        WHERE block_ref LIKE '%/' || (SELECT oid FROM pg_database WHERE datname = current_database()) || '/%'`,
      [from, to],
    );
    return { database: Number(d.n), cluster: Number(c.n) };
  } catch {
    return { database: null, cluster: Number(c.n) };
  }
}

/**
 * `processes` child processes (worker-process.ts), each running startWorker, drain the same
 * jobs from a fresh stream into the same database, emptied of the previous run's events and
 * issues first. Timed from `go` (every child connected) until their stats add up to all jobs.
 */
async function runWorkerProcesses(
  db: Database,
  databaseUrl: string,
  payloads: string[],
  processes: number,
  expectedUserPairs: number,
): Promise<ProcessRun> {
  // The ledgers too (decision 067): otherwise every id is already claimed and nothing is stored again.
  await db.ds.query('TRUNCATE events, issues, stored_event_ids CASCADE');
  const prefix = createTestRedisPrefix();
  const filler = await RedisStreamQueue.connect({ url: TEST_REDIS_URL, prefix, deadLetters: deadLetterSink(db.ds) });
  const children: ChildProcess[] = [];
  const redis = createClient({ url: TEST_REDIS_URL });
  redis.on('error', () => undefined);
  try {
    for (let i = 0; i < payloads.length; i += 1000) await filler.enqueue(payloads.slice(i, i + 1000));
    await redis.connect();
    const info = await redis.info('server');
    const redisPid = Number(/process_id:(\d+)/.exec(info)?.[1]);
    const done = new Array<number>(processes).fill(0);
    const failures = new Array<number>(processes).fill(0);
    const stopped: Array<Promise<{ cpuMs: number; batches: number }>> = [];
    const ready: Array<Promise<void>> = [];
    for (let i = 0; i < processes; i++) {
      const child = fork(join(__dirname, 'worker-process.ts'), [], {
        // The worker role's V8 flag, as infra/ runs it (decision 033).
        execArgv: [...process.execArgv, WORKER_V8_FLAG],
        env: {
          ...process.env,
          TRACKER_BENCH_WORKER: JSON.stringify({
            databaseUrl,
            redisUrl: TEST_REDIS_URL,
            prefix,
            batchSize: BATCH_SIZE,
          }),
        },
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      children.push(child);
      ready.push(
        new Promise((resolve, reject) => {
          child.once('exit', (code) => reject(new Error(`worker process exited with ${code}`)));
          child.on('message', (m: ChildMessage) => {
            if (m.type === 'ready') resolve();
            else if (m.type === 'stats') {
              done[i] = m.events + m.duplicates;
              failures[i] = m.failures;
            }
          });
        }),
      );
      stopped.push(
        new Promise((resolve) =>
          child.on('message', (m: ChildMessage) => {
            if (m.type === 'stopped') resolve(m);
          }),
        ),
      );
    }
    await Promise.all(ready);
    const meter = new CpuMeter(db);
    await db.ds.query('CHECKPOINT'); // full-page images after a checkpoint are part of the cost, from a known start
    const [{ lsn: lsn0, size: size0 }] = await db.ds.query(
      'SELECT pg_current_wal_lsn()::text AS lsn, pg_database_size(current_database())::float8 AS size',
    );
    await meter.start();
    const redis0 = processCpuMs(redisPid);
    const t0 = performance.now();
    for (const c of children) c.send({ type: 'go' });
    // Sampled: how often the workers' backends wait for a lock (another transaction's row locks).
    let samples = 0;
    let lockWaits = 0;
    let nextSample = 0;
    while (sum(done) < payloads.length) {
      checkAborted();
      if (performance.now() - t0 > TIMEOUT_MS)
        throw new Error(`${processes} worker process(es) persisted only ${sum(done)} events in ${TIMEOUT_MS / 1000} s`);
      if (sum(failures) > 0) throw new Error(`worker processes reported ${sum(failures)} failures`);
      if (performance.now() >= nextSample) {
        nextSample = performance.now() + 50;
        const [w] = await db.ds.query(
          `SELECT count(*) FILTER (WHERE wait_event_type = 'Lock')::int AS n FROM pg_stat_activity
            WHERE datname = current_database() AND pid <> pg_backend_pid()`,
        );
        samples += 1;
        lockWaits += w.n;
      }
      await sleep(10);
    }
    const ms = performance.now() - t0;
    const pgCpuMs = (await meter.read()).pgMs;
    const redis1 = processCpuMs(redisPid);
    const load = loadAverage();
    const [{ lsn: lsn1, size: size1 }] = await db.ds.query(
      'SELECT pg_current_wal_lsn()::text AS lsn, pg_database_size(current_database())::float8 AS size',
    );
    const wal = await walBytes(db, lsn0, lsn1);
    for (const c of children) c.send({ type: 'stop' });
    const outcomes = await Promise.all(stopped);
    const problems: string[] = [];
    const [check] = await db.ds.query(
      `SELECT (SELECT count(*) FROM events)::int AS events, (SELECT count(*) FROM issues)::int AS issues,
              (SELECT coalesce(sum(event_count), 0) FROM issues)::int AS event_count,
              (SELECT coalesce(sum(user_count), 0) FROM issues)::int AS user_count`,
    );
    const expect = (what: string, got: number, want: number) => {
      if (got !== want) problems.push(`${processes} process(es), ${what}: ${got}, expected ${want}`);
    };
    expect('events', check.events, payloads.length);
    expect('issues', check.issues, ISSUES);
    expect('sum(issues.event_count)', check.event_count, payloads.length);
    expect('sum(issues.user_count)', check.user_count, expectedUserPairs);
    expect('jobs left in the stream', await filler.depth(), 0);
    return {
      processes,
      ms,
      rate: (payloads.length / ms) * 1000,
      workerCpuMs: outcomes.map((o) => o.cpuMs),
      pgCpuMs,
      redisCpuMs: redis0 !== null && redis1 !== null ? redis1 - redis0 : null,
      load,
      batches: outcomes.map((o) => o.batches),
      lockWaitShare: lockWaits / Math.max(1, samples * processes),
      walPerEvent: {
        database: wal.database === null ? null : wal.database / payloads.length,
        cluster: wal.cluster / payloads.length,
      },
      diskPerEvent: (Number(size1) - Number(size0)) / payloads.length,
      problems,
    };
  } finally {
    for (const c of children) if (c.exitCode === null && c.connected) c.kill();
    const keys = await redis.keys(`${prefix}:*`).catch(() => []);
    if (keys.length > 0) await redis.del(keys).catch(() => undefined);
    await redis.close().catch(() => undefined);
    await filler.close().catch(() => undefined);
  }
}

/** The share of the machine's cores a run used: all its CPU over wall time × cores. */
function coresBusy(run: ProcessRun): number {
  return (sum(run.workerCpuMs) + run.pgCpuMs + (run.redisCpuMs ?? 0)) / run.ms;
}

function describeProcessRun(run: ProcessRun): string {
  const per = (ms: number) => fmt((ms * 1000) / EVENTS);
  return (
    `${run.processes} worker process(es): ${fmt(EVENTS)} events in ${fmt(run.ms)} ms = ${fmt(run.rate)} events/s; ` +
    `CPU per event: workers ${run.workerCpuMs.map(per).join(' + ')} µs, PostgreSQL ${per(run.pgCpuMs)} µs, ` +
    `Redis ${run.redisCpuMs === null ? '?' : per(run.redisCpuMs)} µs; ${coresBusy(run).toFixed(2)} cores busy of ${describeMachine().nproc}; ` +
    `backends waiting for a lock ${(100 * run.lockWaitShare).toFixed(0)} % of the time; ` +
    `WAL per event ${run.walPerEvent.database === null ? '?' : fmt(run.walPerEvent.database)} B of this database ` +
    `(${fmt(run.walPerEvent.cluster)} B cluster-wide); tables + indexes ${fmt(run.diskPerEvent)} B per event; load average ${run.load}`
  );
}

// ---------------------------------------------------------------------------- the bench

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

function sum(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0);
}

let cleanupOnSignal: (() => Promise<void>) | undefined;
/** Set by SIGINT/SIGTERM: main starts no further phase, and the worker is stopped. */
let aborted = false;

function checkAborted(): void {
  if (aborted) throw new Error('interrupted');
}

async function main(): Promise<void> {
  const machine = describeMachine();
  const started = new Date();
  const loadAtStart = loadAverage();
  console.log(`worker-throughput: ${machineLine(machine)}; load average ${loadAtStart}`);
  console.log(`${fmt(EVENTS)} jobs over ${ISSUES} issues, worker batch size ${BATCH_SIZE}`);

  const prefix = createTestRedisPrefix();
  const redis = createClient({ url: TEST_REDIS_URL });
  redis.on('error', () => undefined);
  let pg: TestPostgres | undefined;
  let db: Database | undefined;
  let filler: RedisStreamQueue | undefined;
  let queue: RedisStreamQueue | undefined;
  let worker: RunningWorker | undefined;
  let cleaned: Promise<void> | undefined;
  const cleanUp = (): Promise<void> =>
    (cleaned ??= (async () => {
      // main checks `aborted` before starting the worker, so none can start after this read.
      await worker?.stop().catch(() => undefined);
      await filler?.close().catch(() => undefined);
      await queue?.close().catch(() => undefined);
      await db?.close().catch(() => undefined);
      if (redis.isOpen) {
        const keys = await redis.keys(`${prefix}:*`).catch(() => []);
        if (keys.length > 0) await redis.del(keys).catch(() => undefined);
        await redis.close().catch(() => undefined);
      }
      await pg?.drop().catch((e: Error) => console.error(`could not drop the database: ${e.message}`));
    })());
  cleanupOnSignal = cleanUp;

  const problems: string[] = [];
  try {
    await redis.connect();
    pg = await createTestPostgres();
    db = await openDatabase({ databaseUrl: pg.url, dataDir: '' }, { migrate: true });
    const account = await signUp(
      db.ds,
      { email: `bench-${randomUUID()}@example.com`, password: 'correct horse battery', organizationName: 'Bench' },
      'business',
    );
    const { project } = await createProject(db.ds, account.user.id, account.organization.id, 'Bench');

    // ---- data: generate, check the grouping, fill the stream
    let t = performance.now();
    const data = generateJobs(project.id, { events: EVENTS, issues: ISSUES, users: USERS });
    const genMs = performance.now() - t;
    // Decode + prepare on their own, outside the worker: the pure CPU cost of our logic, and the
    // rows the baseline writes.
    t = performance.now();
    const prepareCpu0 = process.cpuUsage();
    const prepared: PreparedEvent[] = data.payloads.map((p) => prepareEvent(decodeJob(p) as ErrorJob));
    const prepareAllMs = performance.now() - t;
    const prepareCpu = process.cpuUsage(prepareCpu0);
    const prepareCpuUs = (prepareCpu.user + prepareCpu.system) / EVENTS;
    const groupingKeys = new Set(prepared.map((e) => e.groupingKey)).size;
    if (groupingKeys !== ISSUES)
      throw new Error(`the generated data groups into ${groupingKeys} issues, not ${ISSUES}`);

    checkAborted();
    filler = await RedisStreamQueue.connect({ url: TEST_REDIS_URL, prefix, deadLetters: deadLetterSink(db.ds) });
    t = performance.now();
    for (let i = 0; i < data.payloads.length; i += 1000) {
      checkAborted();
      await filler.enqueue(data.payloads.slice(i, i + 1000));
    }
    const fillMs = performance.now() - t;
    const depth = await filler.depth();
    if (depth !== EVENTS) throw new Error(`stream holds ${depth} jobs, expected ${EVENTS}`);
    console.log(
      `generated ${fmt(EVENTS)} jobs (avg ${fmt(data.avgBytes)} B) in ${fmt(genMs)} ms; stream filled in ${fmt(fillMs)} ms; ` +
        `decode+prepare alone: ${fmt(prepareAllMs)} ms (${fmt((prepareAllMs * 1000) / EVENTS, 1)} µs/event wall, ${fmt(prepareCpuUs, 1)} µs CPU)`,
    );

    // ---- the worker
    queue = await RedisStreamQueue.connect({ url: TEST_REDIS_URL, prefix, deadLetters: deadLetterSink(db.ds) });
    const batches = instrument(db, queue);
    const session = PROFILE ? new Session() : undefined;
    if (session) {
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.start');
    }
    const meter = new CpuMeter(db);
    const background0 = await pgBackground(db);
    await meter.start();
    checkAborted();
    const elu0 = performance.eventLoopUtilization();
    const t0 = performance.now();
    worker = startWorker({
      ds: db.ds,
      queue,
      batchSize: BATCH_SIZE,
      log: (level, msg, d) => {
        if (level !== 'info') console.error(`worker ${level}: ${msg} ${JSON.stringify(d ?? {})}`);
      },
    });
    while (worker.stats.events + worker.stats.duplicates < EVENTS) {
      checkAborted();
      if (performance.now() - t0 > TIMEOUT_MS)
        throw new Error(`worker persisted only ${worker.stats.events} events in ${TIMEOUT_MS / 1000} s`);
      if (worker.stats.failures > 0) throw new Error(`worker reported ${worker.stats.failures} failures`);
      await sleep(10);
    }
    const workerMs = performance.now() - t0;
    const workerElu = performance.eventLoopUtilization(elu0).utilization;
    const workerCpu = await meter.read();
    const background = diffBackground(background0, await pgBackground(db));
    let profileLines: string[] = [];
    if (session) {
      const { profile } = await session.post('Profiler.stop');
      session.disconnect();
      const file = join(tmpdir(), `worker-throughput-${Date.now()}.cpuprofile`);
      writeFileSync(file, JSON.stringify(profile));
      profileLines = [`CPU profile of the worker phase: ${file}`, ...summarizeCpuProfile(profile)];
    }
    const stats = { ...worker.stats };
    await worker.stop();
    worker = undefined;
    const workerRate = (EVENTS / workerMs) * 1000;
    const perEvent = (ms: number) => (ms * 1000) / EVENTS;
    console.log(
      `worker: ${fmt(EVENTS)} events in ${fmt(workerMs)} ms = ${fmt(workerRate)} events/s (${stats.batches} batches); ` +
        `CPU per event: Node ${fmt(perEvent(workerCpu.nodeMs))} µs, PostgreSQL backends ${fmt(perEvent(workerCpu.pgMs))} µs`,
    );

    console.log(
      `PostgreSQL background work during the worker phase (not in the CPU columns): ${describeBackground(background)}`,
    );

    // ---- verify
    const [check] = await db.ds.query(
      `SELECT (SELECT count(*) FROM events)::int AS events, (SELECT count(*) FROM issues)::int AS issues,
              (SELECT coalesce(sum(event_count), 0) FROM issues)::int AS event_count,
              (SELECT coalesce(sum(user_count), 0) FROM issues)::int AS user_count,
              (SELECT count(*) FROM issue_users)::int AS issue_users`,
    );
    const left = await queue.depth();
    const expect = (what: string, got: number, want: number) => {
      if (got !== want) problems.push(`${what}: ${got}, expected ${want}`);
    };
    expect('events', check.events, EVENTS);
    expect('issues', check.issues, ISSUES);
    expect('sum(issues.event_count)', check.event_count, EVENTS);
    expect('sum(issues.user_count)', check.user_count, data.expectedUserPairs);
    expect('issue_users rows', check.issue_users, data.expectedUserPairs);
    expect('jobs left in the stream', left, 0);
    expect('worker duplicates', stats.duplicates, 0);
    console.log(
      `verify: events ${fmt(check.events)}, issues ${check.issues}, sum(event_count) ${fmt(check.event_count)}, ` +
        `sum(user_count) ${fmt(check.user_count)} (expected ${fmt(data.expectedUserPairs)}), stream left ${left}` +
        (problems.length ? `  PROBLEMS: ${problems.join('; ')}` : '  OK'),
    );

    // ---- baseline: the same rows, plain multi-row INSERTs, 500-row transactions
    const issueIds = new Map<string, string>(
      (await db.ds.query('SELECT id, fingerprint FROM issues')).map((r: { id: string; fingerprint: string }) => [
        r.fingerprint,
        r.id,
      ]),
    );
    checkAborted();
    await db.ds.query('CREATE TABLE bench_events_raw (LIKE events INCLUDING ALL)');
    const columns = EVENT_COLUMNS;
    const json = (v: unknown) => (v == null ? null : JSON.stringify(v));
    const chunks: Array<{ sql: string; params: unknown[] }> = [];
    for (let i = 0; i < prepared.length; i += BASELINE_CHUNK) {
      const rows = prepared.slice(i, i + BASELINE_CHUNK);
      const params: unknown[] = [];
      const values = rows.map((e) => {
        const base = params.length;
        params.push(
          e.projectId,
          issueIds.get(e.groupingKey),
          e.eventId,
          e.timestamp.toISOString(),
          e.receivedAt.toISOString(),
          e.level,
          e.type,
          e.message,
          e.environment,
          e.release,
          e.url,
          e.handled,
          e.stack,
          JSON.stringify(e.frames),
          JSON.stringify(e.tags),
          json(e.context),
          json(e.user),
          json(e.sdk),
          json(e.fingerprint),
          e.groupingKey,
          30, // retention_days (decision 029): the free plan's
          json(e.causes),
          json(e.breadcrumbs),
          json(e.request),
          e.logMessage,
        );
        return `(${columns.map((_, c) => `$${base + c + 1}`).join(', ')})`;
      });
      chunks.push({ sql: `INSERT INTO bench_events_raw (${columns.join(', ')}) VALUES ${values.join(', ')}`, params });
    }
    const runner = db.ds.createQueryRunner();
    let baselineMs: number;
    let baselineCpu: { nodeMs: number; pgMs: number };
    try {
      await runner.connect();
      await meter.start();
      t = performance.now();
      for (const c of chunks) {
        checkAborted();
        await runner.startTransaction();
        await runner.query(c.sql, c.params);
        await runner.commitTransaction();
      }
      baselineMs = performance.now() - t;
      baselineCpu = await meter.read();
    } finally {
      await runner.release();
    }
    const [{ n: baselineRows }] = await db.ds.query('SELECT count(*)::int AS n FROM bench_events_raw');
    expect('baseline rows', baselineRows, EVENTS);
    const baselineRate = (EVENTS / baselineMs) * 1000;
    const ratio = workerRate / baselineRate;

    // ---- baseline 2 (issue 21's): the same rows already inside PostgreSQL, copied by its own
    // INSERT … SELECT in BATCH_SIZE-row slices, a transaction each (as the worker's batches).
    checkAborted();
    await db.ds.query(
      `CREATE TABLE bench_staging AS SELECT row_number() OVER (ORDER BY id) AS seq, ${columns.join(', ')} FROM bench_events_raw`,
    );
    await db.ds.query('CREATE INDEX bench_staging_seq ON bench_staging (seq)');
    await db.ds.query('VACUUM ANALYZE bench_staging');
    await db.ds.query('CREATE TABLE bench_events_select (LIKE events INCLUDING ALL)');
    const selectSql = `INSERT INTO bench_events_select (${columns.join(', ')})
      SELECT ${columns.join(', ')} FROM bench_staging WHERE seq > $1 AND seq <= $2`;
    const selectRunner = db.ds.createQueryRunner();
    let selectMs: number;
    let selectCpu: { nodeMs: number; pgMs: number };
    try {
      await selectRunner.connect();
      await selectRunner.query('SELECT count(*) FROM bench_staging'); // read it once: no cold start in the clock
      await meter.start();
      t = performance.now();
      for (let i = 0; i < EVENTS; i += BATCH_SIZE) {
        checkAborted();
        await selectRunner.startTransaction();
        await selectRunner.query(selectSql, [i, i + BATCH_SIZE]);
        await selectRunner.commitTransaction();
      }
      selectMs = performance.now() - t;
      selectCpu = await meter.read();
    } finally {
      await selectRunner.release();
    }
    const [{ n: selectRows }] = await db.ds.query('SELECT count(*)::int AS n FROM bench_events_select');
    expect('INSERT … SELECT rows', selectRows, EVENTS);
    const selectRate = (EVENTS / selectMs) * 1000;
    const selectRatio = workerRate / selectRate;
    console.log(
      `baseline INSERT … SELECT (${BATCH_SIZE}-row slices): ${fmt(EVENTS)} rows in ${fmt(selectMs)} ms = ${fmt(selectRate)} rows/s; ` +
        `CPU per row: PostgreSQL backends ${fmt(perEvent(selectCpu.pgMs))} µs`,
    );
    console.log(
      `ratio worker / INSERT … SELECT ${selectRatio.toFixed(2)} (target ≥ ${TARGET_SELECT_RATIO}: ${selectRatio >= TARGET_SELECT_RATIO ? 'MET' : 'MISSED'})`,
    );
    for (const name of ['bench_events_select', 'bench_staging', 'bench_events_raw'])
      await db.ds.query(`DROP TABLE ${name}`);

    // ---- one worker process against two, the same data each time
    const processRuns: ProcessRun[] = [];
    for (const n of PROCESS_COUNTS) {
      checkAborted();
      const run = await runWorkerProcesses(db, pg.url, data.payloads, n, data.expectedUserPairs);
      processRuns.push(run);
      console.log(describeProcessRun(run));
      problems.push(...run.problems);
    }
    const oneProcess = processRuns.find((r) => r.processes === 1)!;
    const twoProcesses = processRuns.find((r) => r.processes === 2)!;
    const scaling = twoProcesses.rate / oneProcess.rate;
    console.log(
      `ratio 2 processes / 1 process ${scaling.toFixed(2)} (target ≥ ${TARGET_SCALING}: ${scaling >= TARGET_SCALING ? 'MET' : 'MISSED'})`,
    );
    console.log(
      `baseline: ${fmt(EVENTS)} rows in ${fmt(baselineMs)} ms = ${fmt(baselineRate)} rows/s; ` +
        `CPU per row: Node ${fmt(perEvent(baselineCpu.nodeMs))} µs, PostgreSQL backends ${fmt(perEvent(baselineCpu.pgMs))} µs`,
    );
    // With nothing overlapping, a loop is bounded by 1 / (Node CPU + PostgreSQL CPU) per event.
    // The worker prepares the next batch while the current one's transaction runs, so with a
    // core each its bound is 1 / max(Node CPU, PostgreSQL CPU) (estimates, not measurements).
    const cpuBound = (c: { nodeMs: number; pgMs: number }) =>
      1e6 / Math.max(1e-9, perEvent(c.nodeMs) + perEvent(c.pgMs));
    const overlapBound = (c: { nodeMs: number; pgMs: number }) =>
      1e6 / Math.max(1e-9, perEvent(c.nodeMs), perEvent(c.pgMs));
    console.log(
      `ratio worker / INSERT … VALUES ${ratio.toFixed(2)}; target ≥ ${fmt(TARGET_EVENTS_PER_S)} events/s: ${workerRate >= TARGET_EVENTS_PER_S ? 'MET' : 'MISSED'}`,
    );

    // ---- per-batch breakdown
    const full = batches.filter((b) => b.size > 0 && b.txStart !== undefined && b.txEnd !== undefined);
    const per = (f: (b: BatchTiming) => number) => sum(full.map(f)) / Math.max(1, full.length);
    const labels = [...new Set(full.flatMap((b) => [...b.statements.keys()]))];
    const inStatements = (b: BatchTiming) => sum([...b.statements.values()]);
    const txMs = (b: BatchTiming) => b.txEnd! - b.txStart!;
    const perBatchWall = workerMs / Math.max(1, full.length);
    const txPer = per(txMs);
    // [phase, wall ms per batch, PostgreSQL backend CPU ms per batch (statements only)]
    const cpuOf = (l: string) => per((b) => b.statementCpu.get(l) ?? 0);
    const breakdown: Array<[string, number, number | undefined]> = [
      ...labels.map((l): [string, number, number] => [`SQL: ${l}`, per((b) => b.statements.get(l) ?? 0), cpuOf(l)]),
      ['BEGIN / COMMIT / pool, and Node between statements', per((b) => txMs(b) - inStatements(b)), undefined],
      ['**transaction, total** (one at a time, in order)', txPer, sum(labels.map(cpuOf))],
      [
        'no transaction open (ack, then waiting for the next batch to be ready)',
        Math.max(0, perBatchWall - txPer),
        undefined,
      ],
    ];
    const receivePer = per((b) => b.receive);
    const receiveOverlap = sum(full.map((b) => b.receiveOverlapped)) / Math.max(1e-9, sum(full.map((b) => b.receive)));
    const ackPer = per((b) => b.ack ?? 0);
    const elu = workerElu;
    console.log(
      `per batch (avg of ${full.length}, ${fmt(per((b) => b.size))} events, ${fmt(perBatchWall, 1)} ms wall):`,
    );
    for (const [k, v, cpu] of breakdown)
      console.log(
        `  ${fmt(v, 1).padStart(7)} ms ${((100 * v) / perBatchWall).toFixed(0).padStart(3)} %  ${cpu === undefined ? '' : `(PostgreSQL CPU ${fmt(cpu, 1)} ms)  `}${k}`,
      );
    console.log(
      `  receive (XREADGROUP) ${fmt(receivePer, 1)} ms, ${(100 * receiveOverlap).toFixed(0)} % of it while the previous batch's transaction was open; ` +
        `ack ${fmt(ackPer, 1)} ms; event loop busy ${(100 * elu).toFixed(0)} % of the worker phase`,
    );
    for (const line of profileLines) console.log(line);

    const met = workerRate >= TARGET_EVENTS_PER_S && problems.length === 0;
    for (const p of problems) console.log(`PROBLEM: ${p}`);

    if (!envFlag('BENCH_NO_DOC')) {
      writeDocSection(
        'worker-throughput',
        `## Worker processing rate (\`ingest/bench/worker-throughput.bench.ts\`)

- **Date**: ${started.toISOString()}
- **Machine**: ${machineLine(machine)}; 1-minute load average ${loadAtStart} at the start, ${loadAverage()} at the end${Math.max(loadAtStart, loadAverage()) > machine.nproc ? ' (**other work was competing for the cores: absolute figures are depressed**)' : ''}
- **Command**: \`npm run bench\` at the root, which runs (in \`ingest/\`) \`TSX_TSCONFIG_PATH=../tsconfig.json node --conditions=@tracker/source --import tsx bench/worker-throughput.bench.ts\`${process.env.TRACKER_WORKER_BATCH_SIZE ? ` with \`TRACKER_WORKER_BATCH_SIZE=${process.env.TRACKER_WORKER_BATCH_SIZE}\`` : ''}
- **Data**: ${fmt(EVENTS)} error jobs in the worker's real format (\`encodeJob\`), avg ${fmt(data.avgBytes)} B, over ${ISSUES} issues (200 distinct 15-frame V8 stacks, 8 error types; issues drawn uniformly at random), users among ${fmt(USERS)} (90 % by id, 5 % by email only, 5 % none: ${fmt(data.expectedUserPairs)} distinct issue/user pairs). Pre-filled into a Redis stream (\`RedisStreamQueue\`, unique prefix) before the clock starts.
- **Worker**: one \`startWorker\` (batch size ${BATCH_SIZE}) in the bench process against a fresh migrated PostgreSQL database; timed from start until it has persisted all ${fmt(EVENTS)} (its own stats, polled every 10 ms).
- **Baselines** (same run, same database, after the worker), what the rows cost with none of our logic (no queue, no decoding, grouping, issue upsert, user or counter updates), into scratch copies of the events table (\`LIKE events INCLUDING ALL\`: same columns and indexes, no foreign keys):
  - **\`INSERT … SELECT\`** (issue 21's baseline): the same ${fmt(EVENTS)} rows already inside PostgreSQL (\`bench_staging\`, filled and read once before the clock, indexed on a row number), copied by \`INSERT INTO bench_events_select SELECT … FROM bench_staging WHERE seq > $1 AND seq <= $2\` in ${BATCH_SIZE}-row slices, one transaction each (as the worker's batches); no \`ON CONFLICT\`, no \`RETURNING\`. PostgreSQL's own limit for these rows: nothing to parse (the jsonb is already jsonb), nothing crosses the wire.
  - **\`INSERT … VALUES\`**: the same rows as plain multi-row \`INSERT … VALUES\` from Node in ${BASELINE_CHUNK}-row transactions into \`bench_events_raw\`, one parameter per value, rows pre-built outside the clock.
- **Worker processes**: ${PROCESS_COUNTS.join(' then ')} child process(es) (\`bench/worker-process.ts\`, each one \`startWorker\` with its own pool and Redis consumer, node run with \`${WORKER_V8_FLAG}\` as infra/ runs the worker role), the same ${fmt(EVENTS)} jobs in a fresh stream each time, into the same database emptied of events, issues and the event-id ledger (\`TRUNCATE events, issues, stored_event_ids CASCADE\`); timed from \`go\` (all connected) until their stats add up to every job. CPU of each worker process (its own \`process.cpuUsage\`), of the database's PostgreSQL backends and of \`redis-server\` (\`/proc\`).
- **Verified** after the worker: events = ${fmt(check.events)}, issues = ${check.issues}, sum(event_count) = ${fmt(check.event_count)}, sum(user_count) = ${fmt(check.user_count)} (expected ${fmt(data.expectedUserPairs)}), stream left = ${left}${problems.length ? `. **Problems**: ${problems.join('; ')}` : ': all as expected'}.

${table(
  [
    '',
    'events/s',
    `time for ${fmt(EVENTS)}`,
    'CPU µs/event: Node',
    'CPU µs/event: PostgreSQL',
    'CPU-bound rate (1 / CPU per event)',
    'bound with overlap (1 / max(Node, PostgreSQL))',
  ],
  [
    [
      'worker (Redis → parse/group → PostgreSQL)',
      fmt(workerRate),
      `${fmt(workerMs / 1000, 2)} s`,
      fmt(perEvent(workerCpu.nodeMs)),
      fmt(perEvent(workerCpu.pgMs)),
      fmt(cpuBound(workerCpu)),
      fmt(overlapBound(workerCpu)),
    ],
    [
      `baseline: PostgreSQL's own \`INSERT … SELECT\` of the same rows (${BATCH_SIZE}-row slices)`,
      fmt(selectRate),
      `${fmt(selectMs / 1000, 2)} s`,
      '—',
      fmt(perEvent(selectCpu.pgMs)),
      fmt(cpuBound({ nodeMs: 0, pgMs: selectCpu.pgMs })),
      '—',
    ],
    [
      'baseline: multi-row \`INSERT … VALUES\` of the same rows from Node',
      fmt(baselineRate),
      `${fmt(baselineMs / 1000, 2)} s`,
      fmt(perEvent(baselineCpu.nodeMs)),
      fmt(perEvent(baselineCpu.pgMs)),
      fmt(cpuBound(baselineCpu)),
      '—',
    ],
  ],
)}

**Ratio worker / \`INSERT … SELECT\`: ${selectRatio.toFixed(2)}** (issue 21's target ≥ ${TARGET_SELECT_RATIO}: **${selectRatio >= TARGET_SELECT_RATIO ? 'met' : 'missed'}**). Ratio worker / \`INSERT … VALUES\`: ${ratio.toFixed(2)}. Target ≥ ${fmt(TARGET_EVENTS_PER_S)} events/s for the worker: **${workerRate >= TARGET_EVENTS_PER_S ? 'met' : 'missed'}**.

Worker processes (the same jobs each time; CPU per event; "cores busy" = all that CPU over the wall time, of ${machine.nproc}):

${table(
  [
    'worker processes',
    'events/s',
    `time for ${fmt(EVENTS)}`,
    'CPU µs/event: workers (each)',
    'PostgreSQL',
    'Redis',
    'cores busy',
    "a worker's backend waiting for a lock",
    'WAL B/event (this database; cluster)',
    'tables + indexes B/event',
    'load average at the end',
  ],
  processRuns.map((r) => [
    String(r.processes),
    fmt(r.rate),
    `${fmt(r.ms / 1000, 2)} s`,
    r.workerCpuMs.map((c) => fmt((c * 1000) / EVENTS)).join(' + '),
    fmt((r.pgCpuMs * 1000) / EVENTS),
    r.redisCpuMs === null ? '?' : fmt((r.redisCpuMs * 1000) / EVENTS),
    coresBusy(r).toFixed(2),
    `${(100 * r.lockWaitShare).toFixed(0)} %`,
    `${r.walPerEvent.database === null ? '?' : fmt(r.walPerEvent.database)}; ${fmt(r.walPerEvent.cluster)}`,
    fmt(r.diskPerEvent),
    String(r.load),
  ]),
)}

**Ratio 2 processes / 1: ${scaling.toFixed(2)}** (issue 21's target ≥ ${TARGET_SCALING}: **${scaling >= TARGET_SCALING ? 'met' : 'missed'}**).

WAL: from a \`CHECKPOINT\` before each run (so the full-page images a run causes are counted) to its end; "this database" sums the WAL records whose blocks belong to the bench's database (pg_walinspect), "cluster" is all WAL written meanwhile, other databases' work included (an upper bound on a shared server). Commit records carry no block and are only in the cluster figure. Tables + indexes: growth of \`pg_database_size\` over the run.

PostgreSQL background work during the worker phase, on the same cores but not in the CPU columns: ${describeBackground(background)}.

CPU columns: user + system time of the bench's Node process and of the PostgreSQL backends serving the bench database (from \`/proc\`), divided by the events. They move much less than wall time when other work shares the machine; the last two columns are estimates, not measurements: what a strictly sequential loop could reach with no waiting and no competition, and what the worker, which prepares the next batch in Node while PostgreSQL writes the current one, could reach with a core each for Node and PostgreSQL and nothing else running (Redis and other work share the same 2 cores here).

Where a batch's time goes (average of ${full.length} batches of ${fmt(per((b) => b.size))} events, ${fmt(perBatchWall, 1)} ms wall each). The worker receives and prepares batch N+1 (decode, parse, group) while batch N's transaction runs, so the transaction is the critical path; the rows below add up to the wall time per batch. Measured by wrapping the queue's \`receive\`/\`ack\`, the DataSource's \`transaction\` and the driver connection's \`query\` from the bench, nothing in \`src\` changed; a statement's time includes the driver turning its parameters into the wire format in Node. The last column is the CPU time the transaction's PostgreSQL backend used during the statements (\`/proc\`, ${fmt(clockTickMs())} ms ticks, averaged over the batches); a statement's wall time above its CPU time is time PostgreSQL spent waiting: for Node (sending, receiving), for a core, or for I/O:

${table(
  ['phase', 'ms per batch', 'share', 'of which PostgreSQL backend CPU, ms'],
  breakdown.map(([k, v, cpu]) => [
    k,
    fmt(v, 1),
    `${((100 * v) / perBatchWall).toFixed(0)} %`,
    cpu === undefined ? '' : fmt(cpu, 1),
  ]),
)}

Receive (XREADGROUP): ${fmt(receivePer, 1)} ms per batch, ${(100 * receiveOverlap).toFixed(0)} % of it while the previous batch's transaction was open; ack (XACK + XDEL + HDEL) ${fmt(ackPer, 1)} ms. The bench's event loop (the worker's) was busy ${(100 * elu).toFixed(0)} % of the worker phase (\`performance.eventLoopUtilization\`).

Decoding and preparing all ${fmt(EVENTS)} jobs alone (\`prepareEvent(decodeJob(p))\`, outside the worker, before it ran; it also warms the JIT for the worker, as in a long-running process): ${fmt(prepareAllMs)} ms, ${fmt((prepareAllMs * 1000) / EVENTS, 1)} µs wall and ${fmt(prepareCpuUs, 1)} µs CPU per event.
`,
      );
      console.log('docs/benchmarks.md updated');
    }
    if (STRICT && !met) process.exitCode = 1;
  } finally {
    await cleanUp();
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    aborted = true;
    // Whatever happens, do not linger: cleanup gets 20 s.
    setTimeout(() => process.exit(130), 20_000).unref();
    void (cleanupOnSignal?.() ?? Promise.resolve()).finally(() => process.exit(130));
  });
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
