/**
 * Sentry envelope accept rate: requests/s of `POST /api/<number>/envelope/` with a typical ~3 KB
 * envelope, against Tracker's own fast path `POST /ingest/error` with the equivalent event, in
 * the same run, same process kind, same connections (issue 17; target ≥ 0.5); and since issue 30
 * an envelope holding one `session` item (the real @sentry/node 11's, scenario `sessions`), same
 * target ≥ 0.5. CPU µs per accepted request of each door: the target process's own counters.
 *
 * The envelope is made once per run by the real @sentry/node 11 (test/sentry-node-sender.cjs,
 * scenario `bench`: one TypeError with user and tags) sending to a loopback capture server; the
 * `/ingest/error` body carries the same message, type, stack (the frames written back as V8
 * text), tags, user, contexts, release and SDK. Every request gets a fresh event id on both
 * sides (the edge may treat a repeated id as a retry).
 *
 * Run: `npm run bench:sentry -w @tracker/server` (part of `npm run bench`).
 * Env: TRACKER_BENCH_ROUNDS (default 3), TRACKER_BENCH_DURATION (s, default 10),
 *      TRACKER_BENCH_CONNECTIONS (default 50), TRACKER_BENCH_SOURCE=1, TRACKER_BENCH_STRICT=1,
 *      TRACKER_BENCH_NO_DOC=1.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
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
import { parseEnvelope, runNodeScenario, sentryVersion } from '../test/sentry-sdk-harness';
import { median, openBenchEnvironment } from './bench-environment';
import { killChildren, startTarget } from './target-process';

const TARGET_RATIO = 0.5;
const ROUNDS = envNumber('BENCH_ROUNDS', 3);
const DURATION_S = envNumber('BENCH_DURATION', 10);
const WARMUP_S = 2;
const CONNECTIONS = envNumber('BENCH_CONNECTIONS', 50);
const STRICT = envFlag('BENCH_STRICT');
const FROM_SOURCE = envFlag('BENCH_SOURCE');
const SDK_MAJOR = 11;
/** Stands for the event id in both bodies; replaced per request. */
const ID_MARK = '__EVENT_ID__';

type Door = 'ingest-error' | 'sentry-envelope' | 'sentry-session';
const DOORS: Door[] = ['ingest-error', 'sentry-envelope', 'sentry-session'];

/** What @sentry/node sent (an error, or sessions): the envelope, the path it used and its content type. */
async function captureSentryEnvelope(
  scenario: 'bench' | 'sessions' = 'bench',
  itemType = 'event',
): Promise<{ body: Buffer; path: string; contentType: string }> {
  const captured: Array<{ body: Buffer; path: string; contentType: string }> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const body = req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
      captured.push({ body, path: req.url ?? '/', contentType: String(req.headers['content-type'] ?? '') });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const port = (server.address() as AddressInfo).port;
    await runNodeScenario(SDK_MAJOR, scenario, `http://et_${'0'.repeat(32)}@127.0.0.1:${port}/1`);
  } finally {
    server.closeAllConnections();
    server.close();
  }
  const found = captured.find((c) => parseEnvelope(c.body).items.some((i) => i.header.type === itemType));
  if (!found) throw new Error(`@sentry/node sent no ${itemType} envelope (${captured.length} requests)`);
  return found;
}

/** The same event as Tracker's own SDKs would send it to `/ingest/error`. */
function equivalentIngestEvent(sentryEvent: any): Record<string, unknown> {
  const exception = sentryEvent.exception.values.at(-1);
  const frames: any[] = exception.stacktrace?.frames ?? [];
  // Sentry lists frames outermost first; a V8 stack is innermost first.
  const stack = [
    `${exception.type}: ${exception.value}`,
    ...[...frames].reverse().map((f) => `    at ${f.function ?? '<anonymous>'} (${f.filename}:${f.lineno}:${f.colno})`),
  ].join('\n');
  return {
    eventId: ID_MARK,
    message: exception.value,
    type: exception.type,
    environment: sentryEvent.environment,
    level: sentryEvent.level,
    release: sentryEvent.release,
    stack,
    handled: exception.mechanism?.handled ?? true,
    timestamp: new Date(sentryEvent.timestamp * 1000).toISOString(),
    tags: sentryEvent.tags,
    user: sentryEvent.user,
    context: sentryEvent.contexts,
    sdk: { name: sentryEvent.sdk.name, version: sentryEvent.sdk.version },
  };
}

interface RunResult {
  door: Door;
  round: number;
  rps: number;
  p50: number;
  p99: number;
  /** CPU (user + system) of the target process per 2xx of the measured run, µs. */
  cpuMicros: number;
  ok: number;
  non2xx: number;
  errors: number;
  streamLength: number;
}

async function main(): Promise<void> {
  const machine = describeMachine();
  const started = new Date();
  const loadAtStart = loadAverage();

  const sentry = await captureSentryEnvelope();
  const envelopeText = sentry.body.toString('utf8');
  const envelope = parseEnvelope(sentry.body);
  const eventItem = envelope.items.find((i) => i.header.type === 'event')!;
  const sentryEvent = JSON.parse(eventItem.payload.toString('utf8'));
  const sentryId: string = sentryEvent.event_id;
  // The envelope as sent, its event id (header and payload) turned into the mark.
  const envelopeParts = envelopeText.split(sentryId);
  const ingestParts = JSON.stringify(equivalentIngestEvent(sentryEvent)).split(ID_MARK);
  // A session envelope as @sentry/node 11 sends it (one `session` item, init), its sid the mark:
  // every request starts a new session, as many processes of an app would.
  const sessionSent = await captureSentryEnvelope('sessions', 'session');
  const sessionEnvelope = parseEnvelope(sessionSent.body);
  const sid: string = JSON.parse(sessionEnvelope.items[0].payload.toString('utf8')).sid;
  const sessionParts = sessionSent.body.toString('utf8').split(sid);
  const bodies: Record<Door, string[]> = {
    'ingest-error': ingestParts,
    'sentry-envelope': envelopeParts,
    'sentry-session': sessionParts,
  };
  const bytes = (door: Door) => Buffer.byteLength(bodies[door].join(randomUUID().replace(/-/g, '')));
  const sdkVersion = sentryVersion('node', SDK_MAJOR);
  console.log(`sentry-envelope: ${machineLine(machine)}; load average ${loadAtStart}`);
  console.log(
    `@sentry/node ${sdkVersion} envelope ${bytes('sentry-envelope')} B (items: ${envelope.items.map((i) => i.header.type).join(', ')}); ` +
      `equivalent /ingest/error body ${bytes('ingest-error')} B; ${CONNECTIONS} connections, ${WARMUP_S} s warm-up + ${DURATION_S} s per run, ${ROUNDS} rounds`,
  );

  const results: RunResult[] = [];
  const problems: string[] = [];
  const env = await openBenchEnvironment();
  const { redis, prefix, childEnv } = env;
  try {
    const load = (url: string, door: Door, p: { key: string; number: string }, seconds: number) => {
      const parts = bodies[door];
      const sent = door === 'sentry-session' ? sessionSent : sentry;
      const sentryPath = sent.path
        .replace(/^\/api\/\d+\//, `/api/${p.number}/`)
        .replace(/sentry_key=[^&]*/, `sentry_key=${p.key}`);
      const request =
        door === 'ingest-error'
          ? { path: '/ingest/error', headers: { 'content-type': 'application/json', authorization: `DSN ${p.key}` } }
          : // As the SDK sent it: @sentry/node sends no Content-Type.
            { path: sentryPath, headers: sent.contentType ? { 'content-type': sent.contentType } : {} };
      const freshId = door === 'ingest-error' ? () => randomUUID() : () => randomUUID().replace(/-/g, '');
      return autocannon({
        url,
        connections: CONNECTIONS,
        duration: seconds,
        requests: [
          {
            method: 'POST',
            ...request,
            // The same per-request work for both doors: a new id spliced into a fixed body.
            setupRequest: (req: any) => ({ ...req, body: parts.join(freshId()) }),
          },
        ],
      });
    };

    for (let round = 1; round <= ROUNDS; round++) {
      const order = round % 2 === 1 ? DOORS : [...DOORS].reverse();
      for (const door of order) {
        if (env.aborted) throw new Error('interrupted');
        const p = await env.freshProject();
        const target = await startTarget('tracker', childEnv);
        let warm: autocannon.Result;
        let run: autocannon.Result;
        let cpuBefore = 0;
        let cpuAfter = 0;
        try {
          warm = await load(target.url, door, p, WARMUP_S);
          cpuBefore = await target.cpu();
          run = await load(target.url, door, p, DURATION_S);
          cpuAfter = await target.cpu();
        } finally {
          await target.stop();
        }
        const streamLength = await redis.xLen(`${prefix}:jobs`);
        await env.clearRedis();
        const r: RunResult = {
          door,
          round,
          rps: run.requests.average,
          p50: run.latency.p50,
          p99: run.latency.p99,
          cpuMicros: run['2xx'] > 0 ? (cpuAfter - cpuBefore) / run['2xx'] : NaN,
          ok: run['2xx'],
          non2xx: run.non2xx + warm.non2xx,
          errors: run.errors + run.timeouts + warm.errors + warm.timeouts,
          streamLength,
        };
        // Honesty: every 2xx the client saw stands for a queued job (no worker drains the stream).
        if (streamLength < run['2xx'] + warm['2xx']) {
          problems.push(`round ${round} ${door}: ${run['2xx'] + warm['2xx']} × 2xx but ${streamLength} queued`);
        }
        if (r.non2xx > 0 || r.errors > 0)
          problems.push(`round ${round} ${door}: ${r.non2xx} non-2xx, ${r.errors} errors/timeouts`);
        results.push(r);
        console.log(
          `round ${round} ${door.padEnd(16)} ${fmt(r.rps).padStart(7)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  CPU ${r.cpuMicros.toFixed(0)} µs/req  2xx ${r.ok}  queued ${streamLength} (incl. warm-up)`,
        );
      }
    }
  } finally {
    await env.close();
  }

  const summary = (door: Door) => {
    const of = results.filter((r) => r.door === door);
    return {
      rps: median(of.map((r) => r.rps)),
      p50: median(of.map((r) => r.p50)),
      p99: median(of.map((r) => r.p99)),
      cpu: median(of.map((r) => r.cpuMicros)),
    };
  };
  const own = summary('ingest-error');
  const envelopeDoor = summary('sentry-envelope');
  const sessionDoor = summary('sentry-session');
  const ratio = envelopeDoor.rps / own.rps;
  const sessionRatio = sessionDoor.rps / own.rps;
  const met = ratio >= TARGET_RATIO && sessionRatio >= TARGET_RATIO && problems.length === 0;
  console.log(`\nmedian /ingest/error      ${fmt(own.rps)} req/s  p50 ${own.p50} ms  p99 ${own.p99} ms`);
  console.log(
    `median /api/N/envelope/   ${fmt(envelopeDoor.rps)} req/s  p50 ${envelopeDoor.p50} ms  p99 ${envelopeDoor.p99} ms`,
  );
  console.log(
    `median session envelope   ${fmt(sessionDoor.rps)} req/s  p50 ${sessionDoor.p50} ms  p99 ${sessionDoor.p99} ms`,
  );
  console.log(
    `CPU µs/request: ingest-error ${own.cpu.toFixed(0)}, envelope ${envelopeDoor.cpu.toFixed(0)}, session ${sessionDoor.cpu.toFixed(0)}`,
  );
  console.log(
    `ratio envelope / ingest-error ${ratio.toFixed(2)}, session envelope / ingest-error ${sessionRatio.toFixed(2)} (target ≥ ${TARGET_RATIO}) ${met ? 'MET' : 'MISSED'}`,
  );
  for (const p of problems) console.log(`PROBLEM: ${p}`);

  if (!envFlag('BENCH_NO_DOC')) {
    writeDocSection(
      'sentry-envelope',
      `## Sentry envelope accept rate (\`server/bench/sentry-envelope.bench.ts\`)

- **Date**: ${started.toISOString()}
- **Machine**: ${machineLine(machine)}; 1-minute load average ${loadAtStart} at the start, ${loadAverage()} at the end${Math.max(loadAtStart, loadAverage()) > machine.nproc ? ' (**other work was competing for the cores: absolute figures are depressed**)' : ''}
- **Command**: \`npm run bench\` at the root, which runs (in \`server/\`) \`TSX_TSCONFIG_PATH=../tsconfig.json node --conditions=@tracker/source --import tsx bench/sentry-envelope.bench.ts\` (\`npm run bench:sentry -w @tracker/server\` alone). ${FROM_SOURCE ? '**The target ran the TypeScript sources through tsx (TRACKER_BENCH_SOURCE=1).**' : 'The target runs the built packages (`dist/`), as `npm start` does.'}
- **Bodies**: a ${fmt(bytes('sentry-session'))}-byte session envelope (one \`session\` item with \`init: true\`, a fresh sid per request) as the real \`@sentry/node\` ${sdkVersion} sent it for \`Sentry.startSession()\` … \`endSession()\` (issue 30); a ${fmt(bytes('sentry-envelope'))}-byte envelope (items: ${envelope.items.map((i) => i.header.type).join(', ')}) serialised by the real \`@sentry/node\` ${sdkVersion} for one caught \`TypeError\` with user and tags (default integrations but Modules and ContextLines, which add the installed-package list and source lines), sent as the SDK sends it (${sentry.contentType ? `\`Content-Type: ${sentry.contentType}\`` : 'no `Content-Type`'}, key in the \`sentry_key\` query parameter); and the equivalent ${fmt(bytes('ingest-error'))}-byte JSON event to \`POST /ingest/error\` (same message, type, frames as V8 stack text, tags, user, contexts, release, SDK). Both get a fresh event id per request (spliced in by autocannon's \`setupRequest\`, the same work on both sides).
- **Load**: autocannon, ${CONNECTIONS} connections, per run ${WARMUP_S} s warm-up then ${DURATION_S} s measured; ${ROUNDS} rounds alternating A B B A …; medians over rounds. **Target**: Tracker's ingest role alone (\`createTracker\`, \`roles: ['ingest']\`, PostgreSQL + Redis, \`NODE_ENV=production\`), a fresh forked process and a fresh business-plan project per run, quota checks on; no worker, so the stream length after each run must cover every 2xx (${problems.length === 0 ? 'it did' : 'FAILED, see below'}).

${table(
  ['door', 'req/s (median)', 'p50 ms', 'p99 ms', 'CPU µs / request (median)'],
  [
    ['`POST /ingest/error` (own fast path)', fmt(own.rps), own.p50, own.p99, own.cpu.toFixed(0)],
    [
      '`POST /api/<number>/envelope/` (Sentry event)',
      fmt(envelopeDoor.rps),
      envelopeDoor.p50,
      envelopeDoor.p99,
      envelopeDoor.cpu.toFixed(0),
    ],
    [
      '`POST /api/<number>/envelope/` (Sentry session)',
      fmt(sessionDoor.rps),
      sessionDoor.p50,
      sessionDoor.p99,
      sessionDoor.cpu.toFixed(0),
    ],
  ],
)}

**Ratio envelope / own fast path: ${ratio.toFixed(2)}; session envelope / own fast path: ${sessionRatio.toFixed(2)}** (target ≥ ${TARGET_RATIO} for both: ${met ? 'met' : 'missed'}). CPU µs per request: user + system time of the target process over the measured run (its \`process.cpuUsage()\`), divided by the run's 2xx; it counts no waiting for a core, so it moves least when other work shares the machine.

Every run:

${table(
  [
    'round',
    'door',
    'req/s',
    'p50 ms',
    'p99 ms',
    'CPU µs / req',
    '2xx (measured)',
    'non-2xx / errors',
    'queued (incl. warm-up)',
  ],
  results.map((r) => [
    r.round,
    r.door,
    fmt(r.rps),
    r.p50,
    r.p99,
    r.cpuMicros.toFixed(0),
    fmt(r.ok),
    `${r.non2xx} / ${r.errors}`,
    fmt(r.streamLength),
  ]),
)}
${problems.length > 0 ? `\nProblems:\n\n${problems.map((p) => `- ${p}`).join('\n')}\n` : ''}`,
    );
    console.log('docs/benchmarks.md updated');
  }
  if (STRICT && !met) process.exitCode = 1;
}

main().catch((err) => {
  killChildren();
  console.error(err);
  process.exitCode = 1;
});
