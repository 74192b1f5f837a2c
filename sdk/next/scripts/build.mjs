import { execFileSync } from 'node:child_process';
import { copyFileSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildSdk } from '../../core/scripts/build-sdk.mjs';

const dir = fileURLToPath(new URL('..', import.meta.url));
// The library (dist/index.{mjs,cjs} and bundled declarations), exactly as @tracker/node.
await buildSdk({ dir, platform: 'node' });

const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
const define = { __SDK_VERSION__: JSON.stringify(pkg.version) };

// The framework entries, `@tracker/next/server` and `@tracker/next/client`. They import
// @tracker/node and @tracker/browser as real dependencies (never inlined): the app then has one
// copy of each SDK, and its bundler sees the same modules whether it imports this package or
// the SDK directly. `process.env.*` stays literal for Next's bundler to replace.
const entries = [
  { name: 'server', platform: 'node', target: 'node20' },
  // What the `edge-light` condition picks for `./server`: the same exports, doing nothing.
  { name: 'server.edge', source: 'server/edge', platform: 'neutral', target: 'es2020', types: false },
  // 'use client' on the whole module: `TrackerInit` is rendered from the (server) root layout,
  // and a directive only counts at the top of the file Next loads. esbuild drops directives of
  // bundled modules, so it is written as a banner.
  { name: 'client', platform: 'browser', target: 'es2020', banner: { js: "'use client';" } },
];
const external = Object.keys(pkg.dependencies || {});
await Promise.all(
  entries.flatMap(({ name, source, platform, target, banner }) =>
    ['esm', 'cjs'].map((format) =>
      build({
        absWorkingDir: dir,
        entryPoints: [`src/${source ?? name + '/index'}.ts`],
        bundle: true,
        platform,
        target,
        format,
        outfile: `dist/${name}.${format == 'esm' ? 'mjs' : 'cjs'}`,
        external,
        define,
        banner,
        sourcemap: true,
        logLevel: 'warning',
      }),
    ),
  ),
);

// One self-contained declaration file per entry (the SDKs' types are inlined, as sdk-core's are).
const require = createRequire(import.meta.url);
const generator = require.resolve('dts-bundle-generator/dist/bin/dts-bundle-generator.js', { paths: [dir] });
for (const { name, types: declarations } of entries) {
  if (declarations === false) continue; // server.edge shares server's declarations
  execFileSync(
    process.execPath,
    [
      generator,
      '--silent',
      '--no-banner',
      '--no-check',
      '--project',
      'tsconfig.build.json',
      '-o',
      `dist/${name}.d.ts`,
      `src/${name}/index.ts`,
    ],
    { cwd: dir, stdio: 'inherit' },
  );
  const types = readFileSync(join(dir, `dist/${name}.d.ts`), 'utf8');
  if (types.includes('@tracker/sdk-core')) throw new Error(`${name} declarations import @tracker/sdk-core`);
  copyFileSync(join(dir, `dist/${name}.d.ts`), join(dir, `dist/${name}.d.mts`));
  copyFileSync(join(dir, `dist/${name}.d.ts`), join(dir, `dist/${name}.d.cts`));
}

// The command: one self-contained ESM file, loaded by bin/tracker-upload-sourcemaps.mjs (the
// file npm links; it is committed, so the link exists before the first build).
await build({
  absWorkingDir: dir,
  entryPoints: ['src/cli.ts'],
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  outfile: 'dist/cli.mjs',
  define,
  sourcemap: true,
  logLevel: 'warning',
});
