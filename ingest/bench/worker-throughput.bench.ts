/**
 * Worker processing rate: one worker (startWorker, the production loop) drains a Redis stream
 * pre-filled with 50,000 error jobs (200 issues, ~2 KB each, in the real job format) into a
 * fresh PostgreSQL database. Baseline in the same run: the same 50,000 rows written by plain
 * multi-row INSERTs in 500-row transactions into a scratch copy of the events table (same
 * columns and indexes, no foreign keys): the cost of the rows alone, without our logic.
 *
 * Run: `npm run bench -w @tracker/ingest` (or `npm run bench` at the root).
 * Env: TRACKER_WORKER_BATCH_SIZE (default 500), TRACKER_BENCH_EVENTS (default 50000),
 *      TRACKER_BENCH_STRICT=1 (exit 1 below target), TRACKER_BENCH_CPU_PROF=1 (profile the
 *      worker phase, print the hot spots, keep the .cpuprofile), TRACKER_BENCH_NO_DOC=1.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  createProject,
  decodeJob,
  encodeJob,
  loadConfig,
  openDatabase,
  prepareEvent,
  signUp,
  type Database,
  type ErrorJob,
  type PreparedEvent,
} from '@tracker/core';
import { createTestPostgres, createTestRedisPrefix, TEST_REDIS_URL, type TestPostgres, describeMachine, envFlag, envNumber, fmt, loadAverage, machineLine, table, writeDocSection } from '@tracker/core/testing';
import { createClient } from 'redis';
import type { EntityManager, QueryRunner } from 'typeorm';
import { RedisStreamQueue, type QueueMessage } from '../src/queue';
import { startWorker, type RunningWorker } from '../src/worker/worker';

const TARGET_EVENTS_PER_S = 3_000;
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

// ------------------------------------------------------------------------------ the data

/** Deterministic, so every run processes the same data (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TYPES = [
  'TypeError',
  'RangeError',
  'Error',
  'ValidationError',
  'QueryFailedError',
  'SyntaxError',
  'ReferenceError',
  'TimeoutError',
];
const VERBS = ['load', 'save', 'update', 'validate', 'render', 'charge', 'sync', 'resolve', 'compute', 'notify'];
const NOUNS = [
  'Order',
  'Invoice',
  'Customer',
  'Cart',
  'Payment',
  'Shipment',
  'Coupon',
  'Product',
  'Review',
  'Session',
  'Account',
  'Refund',
  'Report',
  'Webhook',
  'Address',
  'Subscription',
  'Inventory',
  'Price',
  'Tax',
  'Upload',
];

interface IssueTemplate {
  type: string;
  message: (r: () => number) => string;
  stack: string;
  route: string;
}

/** 200 issues: each its own innermost in-app function (verb × noun), so 200 grouping keys. */
function issueTemplates(): IssueTemplate[] {
  const out: IssueTemplate[] = [];
  for (let i = 0; i < ISSUES; i++) {
    const verb = VERBS[i % VERBS.length];
    const noun = NOUNS[Math.floor(i / VERBS.length) % NOUNS.length];
    const file = `/srv/app/dist/services/${noun.toLowerCase()}-service.js`;
    const type = TYPES[i % TYPES.length];
    const route = `/api/${noun.toLowerCase()}s/:id`;
    const stack = [
      `${type}: placeholder`,
      `    at ${verb}${noun} (${file}:${40 + (i % 300)}:${11 + (i % 40)})`,
      `    at ${noun}Service.${verb} (${file}:${120 + (i % 90)}:23)`,
      `    at async ${noun}Controller.handle (/srv/app/dist/controllers/${noun.toLowerCase()}-controller.js:58:20)`,
      `    at async withTransaction (/srv/app/dist/db/transaction.js:31:12)`,
      `    at Layer.handle [as handle_request] (/srv/app/node_modules/express/lib/router/layer.js:95:5)`,
      `    at next (/srv/app/node_modules/express/lib/router/route.js:149:13)`,
      `    at Route.dispatch (/srv/app/node_modules/express/lib/router/route.js:119:3)`,
      `    at Layer.handle [as handle_request] (/srv/app/node_modules/express/lib/router/layer.js:95:5)`,
      `    at /srv/app/node_modules/express/lib/router/index.js:284:15`,
      `    at Function.process_params (/srv/app/node_modules/express/lib/router/index.js:346:12)`,
      `    at next (/srv/app/node_modules/express/lib/router/index.js:280:10)`,
      `    at authenticate (/srv/app/dist/middleware/auth.js:44:5)`,
      `    at Layer.handle [as handle_request] (/srv/app/node_modules/express/lib/router/layer.js:95:5)`,
      `    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)`,
    ].join('\n');
    out.push({
      type,
      route,
      stack,
      message: (r) =>
        i % 2 === 0
          ? `Cannot read properties of undefined (reading '${noun.toLowerCase()}Id') for ${noun.toLowerCase()} ${Math.floor(r() * 1e6)}`
          : `${verb} ${noun.toLowerCase()} failed: upstream answered ${[500, 502, 503, 504][Math.floor(r() * 4)]} after ${Math.floor(r() * 3000)} ms`,
    });
  }
  return out;
}

interface Generated {
  payloads: string[];
  /** Distinct (issue, user) pairs, i.e. the expected sum of issues.user_count. */
  expectedUserPairs: number;
  avgBytes: number;
}

function generateJobs(projectId: string): Generated {
  const r = rng(42);
  const templates = issueTemplates();
  const start = Date.now() - 3_600_000;
  const receivedAt = new Date().toISOString();
  const pairs = new Set<string>();
  const payloads: string[] = [];
  let bytes = 0;
  for (let n = 0; n < EVENTS; n++) {
    // Every issue gets events (the first 200 go round-robin), then uniformly at random.
    const issue = n < ISSUES ? n : Math.floor(r() * ISSUES);
    const t = templates[issue];
    const u = Math.floor(r() * USERS);
    const who = r();
    // 90 % of events name a user by id, 5 % by email only, 5 % no user.
    const user: ErrorJob['event']['user'] =
      who < 0.9
        ? { id: `u${u}`, email: `user${u}@example.com`, username: `user${u}`, ip_address: `10.${u % 250}.${n % 250}.7` }
        : who < 0.95
          ? { id: undefined, email: `User${u}@Example.com` }
          : undefined;
    if (user) pairs.add(`${issue}|${user.id ? `id:${user.id}` : `email:${user.email!.toLowerCase()}`}`);
    const message = t.message(r);
    const job: ErrorJob = {
      v: 1,
      kind: 'error',
      projectId,
      receivedAt,
      event: {
        eventId: randomUUID(),
        message,
        type: t.type,
        environment: r() < 0.8 ? 'production' : 'staging',
        level: 'error',
        release: `api@1.${42 + Math.floor(r() * 3)}.0`,
        stack: t.stack.replace('placeholder', message),
        handled: r() < 0.3,
        url: `https://api.example.com${t.route.replace(':id', String(Math.floor(r() * 1e5)))}`,
        timestamp: new Date(start + Math.floor((n / EVENTS) * 3_500_000)).toISOString(),
        tags: {
          runtime: 'node 20.18.1',
          region: ['eu-west-1', 'us-east-1', 'ap-south-1'][n % 3],
          route: t.route,
          pod: `api-7d9f${n % 12}`,
          plan: ['free', 'pro', 'business'][u % 3],
        },
        user,
        context: {
          request: {
            method: n % 4 === 0 ? 'GET' : 'POST',
            route: t.route,
            query: { expand: 'items' },
            headers: { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36' },
          },
          runtime: { name: 'node', version: '20.18.1' },
          os: { name: 'Linux', version: '6.1' },
          app: { memoryMb: 180 + (n % 90), uptimeS: 3600 + n },
        },
        sdk: { name: '@tracker/node', version: '0.1.0' },
        fingerprint: undefined,
      },
    };
    const payload = encodeJob(job);
    bytes += Buffer.byteLength(payload);
    payloads.push(payload);
  }
  return { payloads, expectedUserPairs: pairs.size, avgBytes: bytes / EVENTS };
}

// ------------------------------------------------------------------- instrumentation

interface BatchTiming {
  size: number;
  receive: number;
  /** From the messages' arrival to the transaction's start: decode, validate, parse, group. */
  prepare: number;
  transaction: number;
  statements: Map<string, number>;
  ack: number;
}

/**
 * Times the phases of each batch from outside the worker: the queue's receive and ack, and the
 * DataSource's transaction (and each statement in it). Nothing in src is changed.
 */
function instrument(db: Database, queue: RedisStreamQueue): BatchTiming[] {
  const batches: BatchTiming[] = [];
  let current: BatchTiming | undefined;
  let receivedAt = 0;
  const receive = queue.receive.bind(queue);
  queue.receive = async (max, waitMs) => {
    const t = performance.now();
    const messages = await receive(max, waitMs);
    receivedAt = performance.now();
    if (messages.length > 0) {
      current = {
        size: messages.length,
        receive: receivedAt - t,
        prepare: 0,
        transaction: 0,
        statements: new Map(),
        ack: 0,
      };
    }
    return messages;
  };
  const ack = queue.ack.bind(queue);
  queue.ack = async (messages: QueueMessage[]) => {
    const t = performance.now();
    await ack(messages);
    if (current) {
      current.ack = performance.now() - t;
      batches.push(current);
      current = undefined;
    }
  };
  const ds = db.ds as any;
  const transaction = ds.transaction.bind(ds);
  ds.transaction = async (...args: any[]) => {
    const fn = args.pop() as (em: EntityManager) => Promise<unknown>;
    const t = performance.now();
    const batch = current;
    if (batch) batch.prepare += t - receivedAt;
    try {
      return await transaction(...args, async (em: EntityManager) => {
        const qr = em.queryRunner as QueryRunner & { query: (...a: any[]) => Promise<any> };
        const own = Object.prototype.hasOwnProperty.call(qr, 'query');
        const query = qr.query;
        qr.query = async (sql: string, ...rest: any[]) => {
          const s = performance.now();
          try {
            return await query.call(qr, sql, ...rest);
          } finally {
            const label = statementLabel(sql);
            batch?.statements.set(label, (batch.statements.get(label) ?? 0) + performance.now() - s);
          }
        };
        try {
          return await fn(em);
        } finally {
          if (own) qr.query = query;
          else delete (qr as any).query;
        }
      });
    } finally {
      if (batch) batch.transaction += performance.now() - t;
    }
  };
  return batches;
}

function statementLabel(sql: string): string {
  const m = /^\s*(INSERT INTO|UPDATE|DELETE FROM|SELECT .*? FROM)\s+("?\w+"?)/is.exec(sql);
  return m ? `${m[1].split(/\s/)[0].toUpperCase()} ${m[2]}` : sql.trim().split(/\s+/).slice(0, 2).join(' ');
}

/** Self time by function and by package/file of a V8 CPU profile, largest first. */
function summarizeProfile(profile: any, top = 20): string[] {
  const dt = (profile.endTime - profile.startTime) / profile.samples.length / 1000; // ms per sample
  const byFn = new Map<string, number>();
  const byFile = new Map<string, number>();
  let total = 0;
  for (const n of profile.nodes) {
    const ms = (n.hitCount ?? 0) * dt;
    if (!ms) continue;
    total += ms;
    const url: string = n.callFrame.url ?? '';
    const short = url
      .replace(/^.*node_modules\//, '')
      .replace(/^.*?\/(core|ingest|server|api)\/src\//, '$1/src/')
      .replace(/^file:\/\//, '');
    const fn = `${n.callFrame.functionName || '(anonymous)'} ${short}:${n.callFrame.lineNumber + 1}`;
    byFn.set(fn, (byFn.get(fn) ?? 0) + ms);
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1] ?? (short || n.callFrame.functionName);
    byFile.set(pkg, (byFile.get(pkg) ?? 0) + ms);
  }
  const rows = (m: Map<string, number>) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, v]) => `${fmt(v).padStart(7)} ms ${((100 * v) / total).toFixed(1).padStart(5)} %  ${k}`);
  return [`self time, ${fmt(total)} ms sampled — by function:`, ...rows(byFn), 'by package / file:', ...rows(byFile)];
}

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

function clockTickMs(): number {
  try {
    return 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
  } catch {
    return 10;
  }
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
    const data = generateJobs(project.id);
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
    filler = await RedisStreamQueue.connect({ url: TEST_REDIS_URL, prefix });
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
    queue = await RedisStreamQueue.connect({ url: TEST_REDIS_URL, prefix });
    const batches = instrument(db, queue);
    const session = PROFILE ? new Session() : undefined;
    if (session) {
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.start');
    }
    const meter = new CpuMeter(db);
    await meter.start();
    checkAborted();
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
    const workerCpu = await meter.read();
    let profileLines: string[] = [];
    if (session) {
      const { profile } = await session.post('Profiler.stop');
      session.disconnect();
      const file = join(tmpdir(), `worker-throughput-${Date.now()}.cpuprofile`);
      writeFileSync(file, JSON.stringify(profile));
      profileLines = [`CPU profile of the worker phase: ${file}`, ...summarizeProfile(profile)];
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
    const columns = [
      'project_id',
      'issue_id',
      'event_id',
      'timestamp',
      'received_at',
      'level',
      'type',
      'message',
      'environment',
      'release',
      'url',
      'handled',
      'stack',
      'frames',
      'tags',
      'context',
      '"user"',
      'sdk',
      'fingerprint',
    ];
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
    console.log(
      `baseline: ${fmt(EVENTS)} rows in ${fmt(baselineMs)} ms = ${fmt(baselineRate)} rows/s; ` +
        `CPU per row: Node ${fmt(perEvent(baselineCpu.nodeMs))} µs, PostgreSQL backends ${fmt(perEvent(baselineCpu.pgMs))} µs`,
    );
    // One worker is a sequential loop (Node prepares, then PostgreSQL writes), so on an idle
    // machine its rate is bounded by 1 / (Node CPU + PostgreSQL CPU) per event.
    const cpuBound = (c: { nodeMs: number; pgMs: number }) =>
      1e6 / Math.max(1e-9, perEvent(c.nodeMs) + perEvent(c.pgMs));
    console.log(
      `ratio worker/baseline ${ratio.toFixed(2)}; target ≥ ${fmt(TARGET_EVENTS_PER_S)} events/s: ${workerRate >= TARGET_EVENTS_PER_S ? 'MET' : 'MISSED'}`,
    );

    // ---- per-batch breakdown
    const full = batches.filter((b) => b.size > 0);
    const per = (f: (b: BatchTiming) => number) => sum(full.map(f)) / Math.max(1, full.length);
    const labels = [...new Set(full.flatMap((b) => [...b.statements.keys()]))];
    const inStatements = (b: BatchTiming) => sum([...b.statements.values()]);
    const breakdown: Array<[string, number]> = [
      ['receive (XREADGROUP)', per((b) => b.receive)],
      ['decode + validate + parse stack + group (JS)', per((b) => b.prepare)],
      ...labels.map((l): [string, number] => [`SQL: ${l}`, per((b) => b.statements.get(l) ?? 0)]),
      ['SQL: BEGIN / COMMIT / pool', per((b) => b.transaction - inStatements(b))],
      ['ack (XACK + XDEL + HDEL)', per((b) => b.ack)],
    ];
    const accounted = sum(breakdown.map(([, v]) => v));
    const perBatchWall = workerMs / Math.max(1, full.length);
    breakdown.push(['other (between phases)', Math.max(0, perBatchWall - accounted)]);
    console.log(
      `per batch (avg of ${full.length}, ${fmt(per((b) => b.size))} events, ${fmt(perBatchWall, 1)} ms wall):`,
    );
    for (const [k, v] of breakdown)
      console.log(`  ${fmt(v, 1).padStart(7)} ms ${((100 * v) / perBatchWall).toFixed(0).padStart(3)} %  ${k}`);
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
- **Baseline** (same run, same database, after the worker): the same ${fmt(EVENTS)} rows as plain multi-row \`INSERT … VALUES\` in ${BASELINE_CHUNK}-row transactions into \`bench_events_raw\` (\`LIKE events INCLUDING ALL\`: same columns and indexes, no foreign keys), rows pre-built outside the clock. It is what the rows cost with none of our logic: no queue, no decoding, grouping, issue upsert, user or counter updates.
- **Verified** after the worker: events = ${fmt(check.events)}, issues = ${check.issues}, sum(event_count) = ${fmt(check.event_count)}, sum(user_count) = ${fmt(check.user_count)} (expected ${fmt(data.expectedUserPairs)}), stream left = ${left}${problems.length ? `. **Problems**: ${problems.join('; ')}` : ': all as expected'}.

${table(
  [
    '',
    'events/s',
    `time for ${fmt(EVENTS)}`,
    'CPU µs/event: Node',
    'CPU µs/event: PostgreSQL',
    'CPU-bound rate (1 / CPU per event)',
  ],
  [
    [
      'worker (Redis → parse/group → PostgreSQL)',
      fmt(workerRate),
      `${fmt(workerMs / 1000, 2)} s`,
      fmt(perEvent(workerCpu.nodeMs)),
      fmt(perEvent(workerCpu.pgMs)),
      fmt(cpuBound(workerCpu)),
    ],
    [
      'baseline (plain INSERT of the same rows)',
      fmt(baselineRate),
      `${fmt(baselineMs / 1000, 2)} s`,
      fmt(perEvent(baselineCpu.nodeMs)),
      fmt(perEvent(baselineCpu.pgMs)),
      fmt(cpuBound(baselineCpu)),
    ],
  ],
)}

CPU columns: user + system time of the bench's Node process and of the PostgreSQL backends serving the bench database (from \`/proc\`), divided by the events. They move much less than wall time when other work shares the machine; the last column is what one sequential worker could reach with no waiting and no competition (an estimate, not a measurement).

**Ratio worker / baseline: ${ratio.toFixed(2)}.** Target ≥ ${fmt(TARGET_EVENTS_PER_S)} events/s for the worker: **${workerRate >= TARGET_EVENTS_PER_S ? 'met' : 'missed'}**.

Where a batch's time goes (average of ${full.length} batches of ${fmt(per((b) => b.size))} events, ${fmt(perBatchWall, 1)} ms wall each; measured by wrapping the queue's \`receive\`/\`ack\` and the DataSource's \`transaction\` and statements from the bench, nothing in \`src\` changed; a statement's time includes the driver turning its parameters into the wire format in Node, e.g. the 19 array literals of \`INSERT events\`):

${table(
  ['phase', 'ms per batch', 'share'],
  breakdown.map(([k, v]) => [k, fmt(v, 1), `${((100 * v) / perBatchWall).toFixed(0)} %`]),
)}

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
