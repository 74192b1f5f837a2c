// Size budget of @tracker/browser: the whole SDK (errors, logs, feedback, vitals) against
// @sentry/browser's init + captureException, bundled the same way in the same run.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { machineLine, writeBenchmarkSection } from '../../core/test/benchmarks-file';

/** At most this many bytes gzip for the whole SDK (issue 16); the run fails above it. */
const BUDGET_BYTES = 5_120;
const MAX_SHARE_OF_SENTRY = 1 / 4;
const dir = fileURLToPath(new URL('..', import.meta.url));

const ENTRIES = {
  '@tracker/browser (whole: errors, logs, feedback, vitals)': `
    import * as Tracker from '@tracker/browser';
    Tracker.init({ dsn: 'https://et_key@ingest.example.com/1', vitalsSampleRate: 1 });
    Tracker.captureException(new Error('x'));
    Tracker.captureMessage('m');
    Tracker.logger.info('l');
    Tracker.captureFeedback({ message: 'f' });
    window.Tracker = Tracker;`,
  '@sentry/browser (init + captureException)': `
    import { init, captureException } from '@sentry/browser';
    init({ dsn: 'https://key@o0.ingest.sentry.io/0' });
    captureException(new Error('x'));`,
};

async function measure(contents: string) {
  const result = await build({
    stdin: { contents, resolveDir: dir, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    write: false,
    logLevel: 'error',
  });
  const code = result.outputFiles[0].contents;
  return { min: code.length, gzip: gzipSync(code, { level: 9 }).length, brotli: brotliCompressSync(code).length };
}

/** The installed version, found the way Node finds packages: up the node_modules chain. */
function version(name: string): string {
  for (let d = dir; ; d = dirname(d)) {
    const file = join(d, 'node_modules', name, 'package.json');
    if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')).version;
    if (dirname(d) == d) return '?';
  }
}

const [tracker, sentry] = await Promise.all(Object.values(ENTRIES).map(measure));
const iife = readFileSync(new URL('../dist/tracker.min.js', import.meta.url));
const share = tracker.gzip / sentry.gzip;
const withinBudget = tracker.gzip <= BUDGET_BYTES && share <= MAX_SHARE_OF_SENTRY;

const rows = [
  `| @tracker/browser ${version('@tracker/browser')}, whole (no runtime dependencies) | ${tracker.min} | ${tracker.gzip} | ${tracker.brotli} |`,
  `| @sentry/browser ${version('@sentry/browser')}, init + captureException | ${sentry.min} | ${sentry.gzip} | ${sentry.brotli} |`,
  `| dist/tracker.min.js (the \`<script>\` build) | ${iife.length} | ${gzipSync(iife, { level: 9 }).length} | ${brotliCompressSync(iife).length} |`,
];
/** Where the bytes go: the SDK built from source, minified, by input file (esbuild metafile). */
async function breakdownBySource(): Promise<string> {
  const result = await build({
    entryPoints: [join(dir, 'src/index.ts')],
    bundle: true,
    minify: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    write: false,
    metafile: true,
    logLevel: 'error',
  });
  const inputs = Object.entries(Object.values(result.metafile.outputs)[0].inputs);
  return inputs
    .sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput)
    .map(
      ([file, { bytesInOutput }]) =>
        `\`${file.replace(/^(\.\.\/)+/, '').replace(/^src\//, 'browser/src/')}\` ${bytesInOutput}`,
    )
    .join(', ');
}
const breakdown = await breakdownBySource();

const markdown = `## Browser bundle size

esbuild ${version('esbuild')}, minified IIFE, target es2020; gzip level 9. ${machineLine()}.

Command: \`npm run bench -w @tracker/browser\` (after \`npm run build -w @tracker/browser\`).

| bundle | minified B | gzip B | brotli B |
|---|---:|---:|---:|
${rows.join('\n')}

Minified bytes by source file (esbuild metafile of \`src/index.ts\`): ${breakdown}.

@tracker/browser is **${(share * 100).toFixed(1)} %** of Sentry's gzip size (target ≤ 25 %) and
${tracker.gzip} B against the ${BUDGET_BYTES} B budget: **${withinBudget ? 'within budget' : 'OVER BUDGET'}**.
`;

console.log(markdown);
writeBenchmarkSection('size', markdown);
writeBenchmarkSection('size', markdown, fileURLToPath(new URL('../../../docs/benchmarks.md', import.meta.url)));
if (!withinBudget) process.exitCode = 1;
