/**
 * Symbolication: frames/s of `Symbolicator.symbolicate` with a warm cache over a real ≥ 5 MB
 * source map, against the raw `originalPositionFor` lookups of `@jridgewell/trace-mapping` and
 * `source-map` (0.7, WASM) for the very same 100,000 frames, in the same run; and the cold cost
 * (map text → first answer) of each.
 *
 * The map is made at bench time (never committed): esbuild bundles and minifies real packages
 * from node_modules (React DOM, React Router, GraphQL, zod, Babel's parser, …, added one by one
 * until the map is ≥ 5 MB) for the browser, `sourcemap: true`. Frames are positions drawn
 * (seeded, uniformly) from the map's own mapped segments, 15 per stack, as a V8 stack of that
 * bundle would print them.
 *
 * Contenders run in rotating order, one pass each per round after a warm-up pass; the figure is
 * the median over rounds.
 *
 * Run: `npm run bench -w @tracker/core`.
 * Env: TRACKER_BENCH_FRAMES (default 100000), TRACKER_BENCH_ROUNDS (default 7),
 *      TRACKER_BENCH_STRICT=1 (exit 1 when the warm ratio misses 1.2×),
 *      TRACKER_BENCH_NO_DOC=1 (do not rewrite docs/benchmarks.md).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { TraceMap, decodedMappings, originalPositionFor } from '@jridgewell/trace-mapping';
import { build } from 'esbuild';
import { SourceMapConsumer } from 'source-map';
import type { StackFrame } from '../src/stacktrace';
import { LINE_BYTES, SEGMENT_BYTES, Symbolicator } from '../src/symbolication';
import {
  describeMachine,
  envFlag,
  envNumber,
  fmt,
  loadAverage,
  machineLine,
  table,
  writeDocSection,
} from '../src/testing/bench-report';

const FRAMES = envNumber('BENCH_FRAMES', 100_000);
const ROUNDS = envNumber('BENCH_ROUNDS', 7);
const COLD_RUNS = 5;
const STACK_DEPTH = 15;
/** Issue 21: the warm path within 1.2× of the fastest raw lookup (it was 1.5× before). */
const TARGET_RATIO = 1.2;
const MIN_MAP_BYTES = 5 * 1024 * 1024;
const STRICT = envFlag('BENCH_STRICT');
const NO_DOC = envFlag('BENCH_NO_DOC');
const ROOT = resolve(__dirname, '../..');
/** Real packages to bundle, in order; the bench takes a prefix long enough for a ≥ 5 MB map. */
const PACKAGES = ['react-dom', 'react-router-dom', 'graphql', 'zod', '@babel/parser', 'lodash', 'acorn', 'ajv', 'typescript'];
const BUNDLE = 'vendor.5c1f2a9e.js';
const BUNDLE_URL = `https://shop.example.com/assets/${BUNDLE}`;

interface GeneratedMap {
  text: string;
  packages: string[];
  bundleBytes: number;
}

async function generateMap(dir: string): Promise<GeneratedMap> {
  const requireFromRoot = createRequire(join(ROOT, 'package.json'));
  const available = PACKAGES.filter((name) => {
    try {
      requireFromRoot.resolve(name);
      return true;
    } catch {
      return false;
    }
  });
  for (let count = Math.min(5, available.length); count <= available.length; count++) {
    const packages = available.slice(0, count);
    const entry = join(dir, 'entry.js');
    writeFileSync(
      entry,
      packages.map((name, i) => `import * as m${i} from ${JSON.stringify(name)};\nglobalThis.m${i} = m${i};`).join('\n'),
    );
    const outfile = join(dir, BUNDLE);
    await build({
      entryPoints: [entry],
      bundle: true,
      minify: true,
      sourcemap: true,
      platform: 'browser',
      format: 'iife',
      define: { 'process.env.NODE_ENV': '"production"' },
      nodePaths: [join(ROOT, 'node_modules')],
      outfile,
      logLevel: 'error',
    });
    const text = readFileSync(`${outfile}.map`, 'utf8');
    if (Buffer.byteLength(text) >= MIN_MAP_BYTES) {
      return { text, packages, bundleBytes: readFileSync(outfile).length };
    }
  }
  throw new Error(`bundling ${available.join(', ')} gave a map under 5 MB: add packages to PACKAGES`);
}

/** Seeded PRNG (Park–Miller), so every run draws the same frames from the same map. */
function random(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 16807) % 2147483647) / 2147483647;
}

function makeStacks(text: string): StackFrame[][] {
  const mappings = decodedMappings(new TraceMap(text));
  // Per generated line, the columns of its segments that map somewhere.
  const lines: Array<{ line: number; columns: number[] }> = [];
  mappings.forEach((segments, line) => {
    const columns = segments.filter((s) => s.length >= 4).map((s) => s[0]);
    if (columns.length) lines.push({ line, columns });
  });
  const next = random(42);
  const stacks: StackFrame[][] = [];
  let stack: StackFrame[] = [];
  for (let f = 0; f < FRAMES; f++) {
    const { line, columns } = lines[Math.floor(next() * lines.length)];
    const column = columns[Math.floor(next() * columns.length)];
    stack.push({ filename: BUNDLE_URL, function: 'a', lineno: line + 1, colno: column + 1, inApp: true });
    if (stack.length === STACK_DEPTH) {
      stacks.push(stack);
      stack = [];
    }
  }
  if (stack.length) stacks.push(stack);
  return stacks;
}

function ms(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** CPU time (user + system, all threads of this process: GC helpers included) since `start`, ms. */
function cpuMs(start: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1000;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** A `gc()` without `--expose-gc` on the command line (the bench script's flags stay the same). */
function gc(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

let sink = 0;

async function main(): Promise<void> {
  const machine = describeMachine();
  const loadStart = loadAverage();
  const dir = mkdtempSync(join(tmpdir(), 'tracker-bench-symbolicate-'));
  try {
    const started = process.hrtime.bigint();
    const generated = await generateMap(dir);
    const generateMs = ms(started);
    const { text } = generated;
    const parsed = JSON.parse(text) as { sources: string[]; names: string[]; mappings: string; sourcesContent: string[] };
    const stacks = makeStacks(text);
    const frames = stacks.flat();
    const frameCount = frames.length;
    const mapBytes = Buffer.byteLength(text);
    console.log(
      `map: ${fmt(mapBytes / 1e6, 2)} MB (${generated.packages.join(', ')}), generated in ${fmt(generateMs)} ms; ` +
        `${fmt(frameCount)} frames in ${fmt(stacks.length)} stacks`,
    );

    // ------------------------------------------------------------------ cold: text → first answer
    const first = frames[0];
    const cold = { traceMapping: [] as number[], sourceMap: [] as number[], symbolicator: [] as number[] };
    for (let run = 0; run < COLD_RUNS; run++) {
      gc();
      let t = process.hrtime.bigint();
      const tm = new TraceMap(text);
      sink += originalPositionFor(tm, { line: first.lineno!, column: first.colno! - 1 }).line ?? 0;
      cold.traceMapping.push(ms(t));

      gc();
      t = process.hrtime.bigint();
      const consumer = await new SourceMapConsumer(text);
      sink += consumer.originalPositionFor({ line: first.lineno!, column: first.colno! - 1 }).line ?? 0;
      cold.sourceMap.push(ms(t));
      consumer.destroy();

      gc();
      t = process.hrtime.bigint();
      const symbolicator = new Symbolicator({ maxCacheBytes: 1e9, loadMap: async () => text });
      sink += (await symbolicator.symbolicate('p1', 'r1', [first]))[0].lineno ?? 0;
      cold.symbolicator.push(ms(t));
    }

    // ------------------------------------------------------------------ memory of a cached map
    // Heap plus array buffers: the packed segments live in typed arrays, outside the JS heap.
    const memory = (): number => {
      const usage = process.memoryUsage();
      return usage.heapUsed + usage.arrayBuffers;
    };
    gc();
    const heapBefore = memory();
    const held = new Symbolicator({ maxCacheBytes: 1e9, loadMap: async () => text });
    // Every stack: the sources the frames touch are split into lines for context, as in use.
    for (const stack of stacks) await held.symbolicate('p1', 'r1', stack);
    gc();
    const heapHeld = memory() - heapBefore;
    const estimated = held.stats.bytes;
    const segments = decodedMappings(new TraceMap(text)).reduce((n, line) => n + line.length, 0);

    // ------------------------------------------------------------------ warm lookups
    const traceMap = new TraceMap(text);
    const consumer = await new SourceMapConsumer(text);
    const warm = new Symbolicator({ maxCacheBytes: 1e9, loadMap: async () => text });
    const noContext = new Symbolicator({ maxCacheBytes: 1e9, loadMap: async () => text, contextLines: -1 });
    // Load the maps (one frame each), so the first timed pass starts with them parsed.
    await warm.symbolicate('p1', 'r1', stacks[0].slice(0, 1));
    await noContext.symbolicate('p1', 'r1', stacks[0].slice(0, 1));

    const contenders: Array<{ name: string; run: () => Promise<void> | void }> = [
      {
        name: '`@jridgewell/trace-mapping` raw `originalPositionFor`',
        run: () => {
          for (let i = 0; i < frameCount; i++) {
            const f = frames[i];
            const pos = originalPositionFor(traceMap, { line: f.lineno!, column: f.colno! - 1 });
            sink += pos.line ?? 0;
          }
        },
      },
      {
        name: '`source-map` 0.7 raw `originalPositionFor`',
        run: () => {
          for (let i = 0; i < frameCount; i++) {
            const f = frames[i];
            const pos = consumer.originalPositionFor({ line: f.lineno!, column: f.colno! - 1 });
            sink += pos.line ?? 0;
          }
        },
      },
      {
        name: '**`Symbolicator.symbolicate`** (full frames + 5 lines of context each side)',
        run: async () => {
          for (const stack of stacks) sink += (await warm.symbolicate('p1', 'r1', stack)).length;
        },
      },
      {
        name: '`Symbolicator.symbolicate` without context (`contextLines: -1`)',
        run: async () => {
          for (const stack of stacks) sink += (await noContext.symbolicate('p1', 'r1', stack)).length;
        },
      },
    ];
    // Warm-up pass, timed: JIT for all; for the Symbolicators, also the first sight of each
    // frame's source line (sources split into lines, contexts built and cached).
    const firstPass: number[] = [];
    for (const c of contenders) {
      const cpu = process.cpuUsage();
      await c.run();
      firstPass.push(cpuMs(cpu));
    }
    const times = contenders.map(() => [] as number[]);
    const cpuTimes = contenders.map(() => [] as number[]);
    for (let round = 0; round < ROUNDS; round++) {
      for (let k = 0; k < contenders.length; k++) {
        const index = (round + k) % contenders.length;
        const c = process.cpuUsage();
        const t = process.hrtime.bigint();
        await contenders[index].run();
        times[index].push(ms(t));
        cpuTimes[index].push(cpuMs(c));
      }
    }
    consumer.destroy();
    let mappedFrames = 0;
    for (const stack of stacks) {
      for (const out of await warm.symbolicate('p1', 'r1', stack)) if (out.minified) mappedFrames++;
    }

    const medians = times.map(median);
    const cpuMedians = cpuTimes.map(median);
    const rates = medians.map((m) => (frameCount / m) * 1000);
    // Ratios on CPU time: it does not count waiting for a core on a shared machine.
    const fastestRaw = Math.min(cpuMedians[0], cpuMedians[1]);
    const fastestRawName = cpuMedians[0] <= cpuMedians[1] ? '`@jridgewell/trace-mapping`' : '`source-map`';
    const ratio = cpuMedians[2] / fastestRaw;
    const ratioNoContext = cpuMedians[3] / fastestRaw;
    const wallRatio = medians[2] / Math.min(medians[0], medians[1]);
    const met = ratio <= TARGET_RATIO;
    const loadEnd = loadAverage();

    const warmRows = contenders.map((c, i) => [
      c.name,
      fmt(rates[i]),
      fmt((medians[i] * 1000) / frameCount, 2),
      fmt((cpuMedians[i] * 1000) / frameCount, 2),
      fmt((frameCount / cpuMedians[i]) * 1000),
      `${fmt(Math.min(...times[i]), 1)} / ${fmt(medians[i], 1)} / ${fmt(Math.max(...times[i]), 1)}`,
      fmt((firstPass[i] * 1000) / frameCount, 2),
    ]);
    const coldRows = [
      ['`@jridgewell/trace-mapping`: `new TraceMap(text)` + 1 lookup (decodes lazily, no validation)', cold.traceMapping],
      ['`source-map` 0.7: `await new SourceMapConsumer(text)` + 1 lookup (WASM)', cold.sourceMap],
      ['**`Symbolicator`**: `loadMap` → JSON.parse → strict validation + decode into packed arrays → 1 frame', cold.symbolicator],
    ].map(([name, values]) => [
      name as string,
      fmt(median(values as number[]), 1),
      `${fmt(Math.min(...(values as number[])), 1)} / ${fmt(Math.max(...(values as number[])), 1)}`,
    ]);

    const busy = Math.max(loadStart, loadEnd) > machine.nproc;
    const markdown = [
      '## Symbolication (`core/bench/symbolicate.bench.ts`)',
      '',
      `- **Date**: ${new Date().toISOString()}`,
      `- **Machine**: ${machineLine(machine)}; 1-minute load average ${loadStart} at the start, ${loadEnd} at the end${busy ? ' (**other work was competing for the cores: absolute figures are depressed**)' : ''}`,
      '- **Command**: `npm run bench -w @tracker/core`, i.e. (in `core/`) `TSX_TSCONFIG_PATH=../tsconfig.json node --conditions=@tracker/source --import tsx bench/symbolicate.bench.ts`',
      `- **Map** (made at bench time, not committed): esbuild \`bundle + minify + sourcemap\` of ${generated.packages.map((p) => `\`${p}\``).join(', ')} from node_modules for the browser: ${fmt(mapBytes / 1e6, 2)} MB map (\`mappings\` ${fmt(parsed.mappings.length / 1e6, 2)} MB, ${fmt(segments)} segments, ${fmt(parsed.sources.length)} sources with \`sourcesContent\` ${fmt(parsed.sourcesContent.reduce((n, s) => n + (s?.length ?? 0), 0) / 1e6, 2)} MB, ${fmt(parsed.names.length)} names) for a ${fmt(generated.bundleBytes / 1e6, 2)} MB bundle.`,
      `- **Frames**: ${fmt(frameCount)} V8-style frames (${STACK_DEPTH} per stack, ${fmt(stacks.length)} stacks) at positions drawn with a seeded PRNG from the map's mapped segments; all ${fmt(mappedFrames)} map back. Every contender resolves the same frames; ${ROUNDS} rounds in rotating order after a warm-up pass, median shown.`,
      '',
      `### Warm: ${fmt(frameCount)} frames, map already parsed`,
      '',
      table(
        [
          '',
          'frames/s (wall)',
          'µs/frame (wall)',
          'CPU µs/frame',
          'CPU-bound frames/s',
          'wall ms per pass: min / median / max',
          'first pass: CPU µs/frame',
        ],
        warmRows,
      ),
      '',
      `**Ratio Symbolicator / fastest raw lookup (${fastestRawName}), CPU time per frame: ${fmt(ratio, 2)}×** (${fmt(ratioNoContext, 2)}× without context; ${fmt(wallRatio, 2)}× on wall-clock medians). Target ≤ ${TARGET_RATIO}×: **${met ? 'met' : 'missed'}**. CPU time is the process's user + system time over the pass (GC threads included); it does not count waiting for a core, so it is the steadier figure on this shared machine.`,
      '',
      `The Symbolicator does more than the raw lookups: per stack, the basename match and the cache lookup; per frame, a binary search on the map's segments packed into typed arrays (core/src/symbolication/segment-index.ts; same answer as \`originalPositionFor\`, a test checks every column of the fixture bundle), a new frame object with \`minified\` and the caller-derived function name, and the context. Context is built once per (source, line) and then shared (frozen) by every frame on that line; the timed passes revisit the same frames, so they read it from that cache, as a worker does for the repeats of an issue. The *first pass* column is the warm-up pass (JIT included): for the Symbolicators it also splits the sources and builds each line's context on first sight (their maps were already parsed and decoded); for the raw contenders it includes trace-mapping's lazy decode and \`source-map\`'s lazy WASM parse. The random positions over a 5 MB map make every contender wait on memory, so what counts is the memory touched per frame. trace-mapping's search reads one small JS array per probe, scattered over the heap; the Symbolicator's search probes one contiguous \`Int32Array\` of columns (4 bytes a segment: ${fmt((segments * 4) / 1e6, 2)} MB for this map, which mostly stays in the CPU caches) and then reads one segment's fields, which pays for most of its extra work. What is left of the gap is that work: the two objects per frame (each made by one object literal with every field it will have, so no frame changes shape after creation) and the read of the line's shared context (the *without context* row shows its share). The bench runs the sources through tsx, whose CommonJS output turns every read of an imported name into a getter call; the symbolicator copies the two it reads per frame (\`FIELDS\`, \`findSegment\`) into module constants (docs/decisions/031).`,
      '',
      `### Cold: map text → first answer (${COLD_RUNS} runs)`,
      '',
      table(['', 'median ms', 'min / max ms'], coldRows),
      '',
      `### Memory of one cached map`,
      '',
      `Memory (JS heap plus array buffers) held by a Symbolicator with this map cached, after symbolicating all ${fmt(frameCount)} frames (so the sources they touch are split into lines for context), after GC: **${fmt(heapHeld / 1e6, 1)} MB**. Its estimate, what \`maxCacheBytes\` counts (text length ${fmt(text.length / 1e6, 2)} M + ${fmt(segments)} segments × ${SEGMENT_BYTES} B + split lines × ${LINE_BYTES} B): **${fmt(estimated / 1e6, 1)} MB**, measured / estimate = ${fmt(heapHeld / estimated, 2)}. The map text is ${fmt(mapBytes / 1e6, 1)} MB.`,
    ].join('\n');

    console.log(`\n${markdown}\n`);
    if (!NO_DOC) writeDocSection('symbolicate', markdown);
    if (sink === 42) console.log(''); // keep the lookups observable
    if (STRICT && !met) process.exitCode = 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
