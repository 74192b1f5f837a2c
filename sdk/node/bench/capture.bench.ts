// Cost of captureException in Node: @tracker/node against @sentry/node, network stubbed at the
// transport (each SDK's own pipeline runs in full: payload building, dedup, serialization,
// Sentry's event processors and integrations). Each SDK runs in its own child process, so
// neither one's global hooks tax the other; both run in the same bench invocation.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { machineLine, writeBenchmarkSection } from '../../core/test/benchmarks-file';

type Sdk = 'tracker' | 'sentry';
interface Result {
  sdk: Sdk;
  calls: number;
  delivered: number;
  wallMs: number;
  callMs: number;
}

const BATCH = 50; // below Sentry's 64-slot transport buffer, so neither SDK drops events
const WARMUP_MS = 1_000;
const MEASURE_MS = 3_000;
const ROUNDS = 3;

async function measure(sdk: Sdk): Promise<Result> {
  let delivered = 0;
  let capture: (error: unknown) => unknown;
  let flush: (timeoutMs: number) => Promise<unknown>;
  if (sdk == 'tracker') {
    const Tracker = await import('@tracker/node');
    Tracker.init({
      dsn: 'et_benchkey',
      endpoint: 'http://127.0.0.1:9/ingest/error',
      exitOnFatal: false,
      _internal: { makeRequest: async () => (delivered++, { status: 202 }) },
    } as Parameters<typeof Tracker.init>[0]);
    capture = Tracker.captureException;
    flush = Tracker.flush;
  } else {
    const Sentry = await import('@sentry/node');
    Sentry.init({
      dsn: 'https://public@o0.ingest.sentry.io/0',
      transport: (options) => Sentry.createTransport(options, async () => (delivered++, { statusCode: 200 })),
    });
    capture = Sentry.captureException;
    flush = Sentry.flush;
  }
  let n = 0;
  const run = async (ms: number) => {
    const started = performance.now();
    let calls = 0;
    let callMs = 0;
    while (performance.now() - started < ms) {
      const t0 = performance.now();
      for (let i = 0; i < BATCH; i++) capture(new Error('bench error ' + n++));
      callMs += performance.now() - t0;
      calls += BATCH;
      await flush(5_000);
    }
    return { calls, callMs, wallMs: performance.now() - started };
  };
  await run(WARMUP_MS);
  delivered = 0;
  const { calls, callMs, wallMs } = await run(MEASURE_MS);
  return { sdk, calls, delivered, wallMs, callMs };
}

function version(name: string): string {
  for (let d = fileURLToPath(new URL('..', import.meta.url)); ; d = dirname(d)) {
    const file = join(d, 'node_modules', name, 'package.json');
    if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')).version;
    if (dirname(d) == d) return '?';
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

async function main() {
  const child = process.argv[2] as Sdk | undefined;
  if (child) {
    process.stdout.write(JSON.stringify(await measure(child)) + '\n');
    process.exit(0);
  }
  const results: Record<Sdk, Result[]> = { tracker: [], sentry: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const sdk of ['tracker', 'sentry'] as Sdk[]) {
      const run = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), sdk], { encoding: 'utf8' });
      if (run.status != 0) throw new Error(`${sdk} bench failed: ${run.stderr}`);
      const result = JSON.parse(run.stdout.trim().split('\n').pop()!) as Result;
      results[sdk].push(result);
      console.log(`round ${round + 1} ${sdk}: ${fmt(result.delivered / (result.wallMs / 1000))} events/s end to end, ${fmt(result.calls / (result.callMs / 1000))} calls/s synchronous (${result.delivered}/${result.calls} delivered)`);
    }
  }
  const endToEnd = (sdk: Sdk) => median(results[sdk].map((r) => r.delivered / (r.wallMs / 1000)));
  const sync = (sdk: Sdk) => median(results[sdk].map((r) => r.calls / (r.callMs / 1000)));
  const lost = (sdk: Sdk) => results[sdk].reduce((sum, r) => sum + r.calls - r.delivered, 0);
  const markdown = `## Node captureException cost

@tracker/node ${version('@tracker/node')} against @sentry/node ${version('@sentry/node')} (default integrations),
network stubbed at each SDK's transport; batches of ${BATCH} distinct errors, each batch followed
by \`flush()\`; ${MEASURE_MS / 1000} s measured after ${WARMUP_MS / 1000} s warm-up, median of ${ROUNDS} rounds, each SDK in
its own process. ${machineLine()}.

| SDK | events/s end to end (capture → transport) | calls/s, synchronous part only | events lost |
|---|---:|---:|---:|
| @tracker/node | ${fmt(endToEnd('tracker'))} | ${fmt(sync('tracker'))} | ${lost('tracker')} |
| @sentry/node | ${fmt(endToEnd('sentry'))} | ${fmt(sync('sentry'))} | ${lost('sentry')} |

Ratio, end to end: **${(endToEnd('tracker') / endToEnd('sentry')).toFixed(1)}×** Sentry's throughput
(synchronous call cost: ${(sync('tracker') / sync('sentry')).toFixed(1)}×). Both figures include creating the
\`Error\` (stack capture), which dominates the cheaper SDK's cost.
`;
  console.log(markdown);
  writeBenchmarkSection('node-capture', markdown);
}

await main();
