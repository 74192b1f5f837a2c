/**
 * OTLP/protobuf accept rates (issue 34), each against its own door in the same run, same process
 * kind, same connections; with the target's CPU µs per record:
 * - logs: target ≥ 50,000 log records/s per ingest process in batches of 512, against
 *   `POST /ingest/log` (one record a request, as Tracker's SDKs send);
 * - exceptions: an OTLP span carrying an `exception` event, target ≥ 0.5 × the rate of
 *   `POST /ingest/error` with the same error (a span a request, as a BatchSpanProcessor sends
 *   when errors are rare).
 *
 * The protobuf body is an `ExportLogsServiceRequest` of 512 records encoded by OpenTelemetry's
 * own generated code (the same that decodes it at the edge), shaped as the Node SDK sends them:
 * one resource (service, version, environment, host), one scope, records with a body, severity,
 * trace and span ids and three attributes.
 *
 * Run: `npm run bench:otlp -w @tracker/server`.
 * Env: TRACKER_BENCH_ROUNDS (default 2), TRACKER_BENCH_DURATION (s, default 10),
 *      TRACKER_BENCH_CONNECTIONS (default 20), TRACKER_BENCH_OTLP=logs|traces|both (default both),
 *      TRACKER_BENCH_NO_DOC=1.
 */
import { randomBytes } from 'node:crypto';
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
import generated from 'otlp-transformer-protos/build/src/generated/root';
import { median, openBenchEnvironment } from './bench-environment';
import { sampleEvent } from './sample-event';
import { killChildren, startTarget } from './target-process';

const TARGET_RECORDS_PER_S = 50_000;
const TARGET_EXCEPTION_RATIO = 0.5;
const BATCH = 512;
const ROUNDS = envNumber('BENCH_ROUNDS', 2);
const DURATION_S = envNumber('BENCH_DURATION', 10);
const WARMUP_S = 2;
const CONNECTIONS = envNumber('BENCH_CONNECTIONS', 20);

type Door = 'ingest-log' | 'otlp-logs' | 'ingest-error' | 'otlp-exception';
const RECORDS: Record<Door, number> = { 'ingest-log': 1, 'otlp-logs': BATCH, 'ingest-error': 1, 'otlp-exception': 1 };
const PAIRS = { logs: ['ingest-log', 'otlp-logs'], traces: ['ingest-error', 'otlp-exception'] } as const;
const WHICH = process.env.TRACKER_BENCH_OTLP ?? 'both';
const DOORS: Door[] =
  WHICH === 'logs' ? [...PAIRS.logs] : WHICH === 'traces' ? [...PAIRS.traces] : [...PAIRS.logs, ...PAIRS.traces];

const errorEvent = sampleEvent();
const ingestErrorBody = JSON.stringify(errorEvent);

/** The same error as `ingestErrorBody`, recorded on a span by OpenTelemetry (`span.recordException`). */
function otlpExceptionBody(): Buffer {
  const str = (v: string) => ({ stringValue: v });
  const now = BigInt(Date.now()) * 1_000_000n;
  const request = {
    resourceSpans: [
      {
        resource: {
          attributes: [
            { key: 'service.name', value: str('shop-web') },
            { key: 'service.version', value: str(String(errorEvent.release)) },
            { key: 'deployment.environment.name', value: str('production') },
          ],
        },
        scopeSpans: [
          {
            scope: { name: 'checkout', version: '2.0.0' },
            spans: [
              {
                traceId: randomBytes(16),
                spanId: randomBytes(8),
                name: 'POST /checkout',
                kind: 2,
                startTimeUnixNano: (now - 5_000_000n).toString(),
                endTimeUnixNano: now.toString(),
                attributes: [{ key: 'http.route', value: str('/checkout/:step') }],
                events: [
                  {
                    name: 'exception',
                    timeUnixNano: now.toString(),
                    attributes: [
                      { key: 'exception.type', value: str(String(errorEvent.type)) },
                      { key: 'exception.message', value: str(String(errorEvent.message)) },
                      { key: 'exception.stacktrace', value: str(String(errorEvent.stack)) },
                      { key: 'exception.escaped', value: { boolValue: true } },
                    ],
                  },
                ],
                status: { code: 2 },
              },
            ],
          },
        ],
      },
    ],
  };
  const Request = (generated as any).opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
  return Buffer.from(Request.encode(Request.fromObject(request)).finish());
}

function otlpBody(): Buffer {
  const str = (v: string) => ({ stringValue: v });
  const now = BigInt(Date.now()) * 1_000_000n;
  const request = {
    resourceLogs: [
      {
        resource: {
          attributes: [
            { key: 'service.name', value: str('checkout') },
            { key: 'service.version', value: str('1.4.2') },
            { key: 'deployment.environment.name', value: str('production') },
            { key: 'host.name', value: str('box-1') },
          ],
        },
        scopeLogs: [
          {
            scope: { name: 'orders', version: '2.0.0' },
            logRecords: Array.from({ length: BATCH }, (_, i) => ({
              timeUnixNano: (now + BigInt(i)).toString(),
              observedTimeUnixNano: (now + BigInt(i)).toString(),
              severityNumber: 9,
              severityText: 'INFO',
              body: str(`order ${i} placed for customer c-${i % 97}`),
              attributes: [
                { key: 'order.id', value: str(`A-${i}`) },
                { key: 'attempt', value: { intValue: 1 } },
                { key: 'http.route', value: str('/checkout') },
              ],
              traceId: randomBytes(16),
              spanId: randomBytes(8),
            })),
          },
        ],
      },
    ],
  };
  const Request = (generated as any).opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
  return Buffer.from(Request.encode(Request.fromObject(request)).finish());
}

const ingestLogBody = JSON.stringify({
  level: 'info',
  message: 'order 1 placed for customer c-1',
  environment: 'production',
  release: '1.4.2',
  tags: { service: 'checkout' },
  context: { 'order.id': 'A-1', attempt: 1, 'http.route': '/checkout', trace_id: randomBytes(16).toString('hex') },
  timestamp: new Date().toISOString(),
});

interface RunResult {
  door: Door;
  round: number;
  rps: number;
  recordsPerS: number;
  cpuUsPerRecord: number;
  p99: number;
  non2xx: number;
  errors: number;
}

async function main(): Promise<void> {
  const machine = describeMachine();
  const started = new Date();
  const loadAtStart = loadAverage();
  const proto = otlpBody();
  const exceptionProto = otlpExceptionBody();
  console.log(
    `otlp-logs: ${machineLine(machine)}; load ${loadAtStart}; protobuf body ${fmt(proto.length)} B / ${BATCH} records`,
  );
  const results: RunResult[] = [];
  const env = await openBenchEnvironment();
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      for (const door of round % 2 === 1 ? DOORS : [...DOORS].reverse()) {
        if (env.aborted) throw new Error('interrupted');
        const p = await env.freshProject();
        const target = await startTarget('tracker', env.childEnv);
        const requests: Record<Door, { path: string; headers: Record<string, string>; body: string | Buffer }> = {
          'otlp-logs': {
            path: '/v1/logs',
            headers: { 'content-type': 'application/x-protobuf', 'x-tracker-key': p.key },
            body: proto,
          },
          'ingest-log': {
            path: '/ingest/log',
            headers: { 'content-type': 'application/json', authorization: `DSN ${p.key}` },
            body: ingestLogBody,
          },
          'otlp-exception': {
            path: '/v1/traces',
            headers: { 'content-type': 'application/x-protobuf', 'x-tracker-key': p.key },
            body: exceptionProto,
          },
          'ingest-error': {
            path: '/ingest/error',
            headers: { 'content-type': 'application/json', authorization: `DSN ${p.key}` },
            body: ingestErrorBody,
          },
        };
        const request = requests[door];
        const load = (seconds: number) =>
          autocannon({
            url: target.url,
            connections: CONNECTIONS,
            duration: seconds,
            requests: [{ method: 'POST', ...request }],
          });
        let run: autocannon.Result;
        let cpu: number;
        try {
          await load(WARMUP_S);
          const cpuBefore = await target.cpu();
          run = await load(DURATION_S);
          cpu = (await target.cpu()) - cpuBefore;
        } finally {
          await target.stop();
        }
        await env.clearRedis();
        const records = run['2xx'] * RECORDS[door];
        const r: RunResult = {
          door,
          round,
          rps: run.requests.average,
          recordsPerS: records / DURATION_S,
          cpuUsPerRecord: records > 0 ? cpu / records : NaN,
          p99: run.latency.p99,
          non2xx: run.non2xx,
          errors: run.errors + run.timeouts,
        };
        results.push(r);
        console.log(
          `round ${round} ${door.padEnd(10)} ${fmt(r.rps)} req/s  ${fmt(r.recordsPerS)} records/s  ${r.cpuUsPerRecord.toFixed(1)} µs CPU/record  p99 ${r.p99} ms  non-2xx ${r.non2xx}  errors ${r.errors}`,
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
      recordsPerS: median(of.map((r) => r.recordsPerS)),
      cpu: median(of.map((r) => r.cpuUsPerRecord)),
      p99: median(of.map((r) => r.p99)),
    };
  };
  if (DOORS.includes('otlp-logs')) writeLogs(results, summary, started, machine, loadAtStart, proto.length);
  if (DOORS.includes('otlp-exception'))
    writeExceptions(results, summary, started, machine, loadAtStart, exceptionProto.length);
}

type Summary = (door: Door) => { rps: number; recordsPerS: number; cpu: number; p99: number };

function roundsTable(results: RunResult[], doors: readonly Door[]): string {
  return table(
    ['round', 'door', 'req/s', 'records/s', 'CPU µs / record', 'p99 ms', 'non-2xx', 'errors'],
    results
      .filter((r) => doors.includes(r.door))
      .map((r) => [
        r.round,
        r.door,
        fmt(r.rps),
        fmt(r.recordsPerS),
        r.cpuUsPerRecord.toFixed(1),
        r.p99,
        r.non2xx,
        r.errors,
      ]),
  );
}

function writeExceptions(
  results: RunResult[],
  summary: Summary,
  started: Date,
  machine: ReturnType<typeof describeMachine>,
  loadAtStart: number,
  bytes: number,
): void {
  const own = summary('ingest-error');
  const otlp = summary('otlp-exception');
  const ratio = otlp.rps / own.rps;
  const met = ratio >= TARGET_EXCEPTION_RATIO;
  console.log(
    `OTLP exception ${fmt(otlp.rps)} req/s = ${ratio.toFixed(2)} × /ingest/error (target ≥ ${TARGET_EXCEPTION_RATIO}) ${met ? 'MET' : 'MISSED'}`,
  );
  if (envFlag('BENCH_NO_DOC')) return;
  writeDocSection(
    'otlp-exceptions',
    `## OTLP exception accept rate against \`/ingest/error\` (\`server/bench/otlp-logs.bench.ts\`)

- **Date**: ${started.toISOString()}
- **Machine**: ${machineLine(machine)}; 1-minute load average ${loadAtStart} at the start, ${loadAverage()} at the end
- **Command**: \`TRACKER_BENCH_OTLP=traces npm run bench:otlp -w @tracker/server\` (or \`both\`, the default). The target runs the built packages.
- **Bodies**: the same 15-frame browser error (\`bench/sample-event.ts\`) as an \`/ingest/error\` JSON body (${fmt(ingestErrorBody.length)} B) and as an OTLP/protobuf \`ExportTraceServiceRequest\` of one span carrying an \`exception\` event with type, message, stack text and \`escaped\` (${fmt(bytes)} B).
- **Load**: autocannon, ${CONNECTIONS} connections, ${WARMUP_S} s warm-up then ${DURATION_S} s measured, ${ROUNDS} rounds; medians. **Target**: the ingest role alone (PostgreSQL + Redis, quota checks on, business plan), a fresh process per run.

${table(
  ['door', 'events/s', 'CPU µs / event', 'p99 ms'],
  [
    ['`POST /ingest/error`', fmt(own.rps), own.cpu.toFixed(1), own.p99],
    ['`POST /v1/traces` (protobuf, 1 span with an exception)', fmt(otlp.rps), otlp.cpu.toFixed(1), otlp.p99],
  ],
)}

**OTLP exceptions: ${ratio.toFixed(2)} × \`/ingest/error\`'s rate** (target ≥ ${TARGET_EXCEPTION_RATIO}: ${met ? 'met' : 'missed'}).

${roundsTable(results, PAIRS.traces)}
`,
  );
}

function writeLogs(
  results: RunResult[],
  summary: Summary,
  started: Date,
  machine: ReturnType<typeof describeMachine>,
  loadAtStart: number,
  protoBytes: number,
): void {
  const own = summary('ingest-log');
  const otlp = summary('otlp-logs');
  const met = otlp.recordsPerS >= TARGET_RECORDS_PER_S;
  console.log(
    `OTLP ${fmt(otlp.recordsPerS)} records/s (target ≥ ${fmt(TARGET_RECORDS_PER_S)}) ${met ? 'MET' : 'MISSED'}`,
  );
  if (!envFlag('BENCH_NO_DOC')) {
    writeDocSection(
      'otlp-logs',
      `## OTLP/protobuf log accept rate (\`server/bench/otlp-logs.bench.ts\`)

- **Date**: ${started.toISOString()}
- **Machine**: ${machineLine(machine)}; 1-minute load average ${loadAtStart} at the start, ${loadAverage()} at the end
- **Command**: \`npm run bench:otlp -w @tracker/server\`. The target runs the built packages.
- **Bodies**: an OTLP/protobuf \`ExportLogsServiceRequest\` of ${BATCH} records (${fmt(protoBytes)} B, uncompressed; resource with service, version, environment, host; each record a body, severity, trace/span ids, three attributes) to \`POST /v1/logs\`; baseline one equivalent JSON record per request to \`POST /ingest/log\`.
- **Load**: autocannon, ${CONNECTIONS} connections, ${WARMUP_S} s warm-up then ${DURATION_S} s measured, ${ROUNDS} rounds; medians. **Target**: the ingest role alone (PostgreSQL + Redis, quota checks on, business plan), a fresh process per run; CPU is the target's user + system time over the measured seconds.

${table(
  ['door', 'req/s', 'records/s', 'CPU µs / record', 'p99 ms'],
  [
    ['`POST /ingest/log` (1 record)', fmt(own.rps), fmt(own.recordsPerS), own.cpu.toFixed(1), own.p99],
    [
      `\`POST /v1/logs\` (protobuf, ${BATCH} records)`,
      fmt(otlp.rps),
      fmt(otlp.recordsPerS),
      otlp.cpu.toFixed(1),
      otlp.p99,
    ],
  ],
)}

**OTLP: ${fmt(otlp.recordsPerS)} records/s** (target ≥ ${fmt(TARGET_RECORDS_PER_S)}: ${met ? 'met' : 'missed'}). ${coreArithmetic(otlp.cpu)}

${roundsTable(results, PAIRS.logs)}
`,
    );
  }
}

/**
 * What the CPU per record allows whatever the machine's load: the measured rate depends on how
 * much of a core the shared machine gave the target, the CPU per record does not.
 */
function coreArithmetic(cpuUsPerRecord: number): string {
  const budget = 1_000_000 / TARGET_RECORDS_PER_S;
  const oneCore = 1_000_000 / cpuUsPerRecord;
  return (
    `At ${cpuUsPerRecord.toFixed(1)} µs of CPU per record, one whole core accepts 1,000,000 / ${cpuUsPerRecord.toFixed(1)} ≈ ${fmt(oneCore)} records/s; ` +
    `${fmt(TARGET_RECORDS_PER_S)}/s needs ≤ ${budget} µs per record on one core, ≤ ~${Math.floor(budget * 0.9)} µs leaving a tenth of it to the rest of the process ` +
    `(${cpuUsPerRecord <= budget * 0.9 ? 'within' : 'over'} that budget).`
  );
}

main().catch((err) => {
  killChildren();
  console.error(err);
  process.exitCode = 1;
});
