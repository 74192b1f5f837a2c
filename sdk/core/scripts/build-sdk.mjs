// Builds one SDK package: ESM + CJS (+ an IIFE for browsers) with esbuild, and one bundled
// declaration file with dts-bundle-generator. Both inline @tracker/sdk-core, which is private
// and never published: the packages must not depend on it at run time or in their types.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { build } from 'esbuild';

/**
 * @param {{ dir: string, platform: 'browser' | 'node', globalName?: string }} options
 */
export async function buildSdk({ dir, platform, globalName }) {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const dist = join(dir, 'dist');
  rmSync(dist, { recursive: true, force: true });
  mkdirSync(dist, { recursive: true });

  const common = {
    absWorkingDir: dir,
    entryPoints: ['src/index.ts'],
    bundle: true,
    platform,
    target: platform == 'node' ? 'node20' : 'es2020',
    define: { __SDK_VERSION__: JSON.stringify(pkg.version) },
    // Real dependencies (web-vitals) stay imports so apps dedupe them; sdk-core is inlined.
    external: Object.keys(pkg.dependencies || {}),
    sourcemap: true,
    logLevel: 'warning',
  };
  const builds = [
    build({ ...common, format: 'esm', outfile: 'dist/index.mjs' }),
    build({ ...common, format: 'cjs', outfile: 'dist/index.cjs' }),
  ];
  if (globalName) {
    // A <script> build for pages without a bundler: everything inlined, minified.
    builds.push(
      build({ ...common, external: [], format: 'iife', globalName, minify: true, outfile: 'dist/tracker.min.js' }),
      // The same for `<script type="module">` and `import()` from a URL: one self-contained ES
      // module (dist/index.mjs imports `web-vitals` by bare name, which a browser cannot resolve).
      build({ ...common, external: [], format: 'esm', minify: true, outfile: 'dist/tracker.mjs' }),
    );
  }
  await Promise.all(builds);

  const require = createRequire(import.meta.url);
  const generator = require.resolve('dts-bundle-generator/dist/bin/dts-bundle-generator.js', { paths: [dir] });
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
      'dist/index.d.ts',
      'src/index.ts',
    ],
    { cwd: dir, stdio: 'inherit' },
  );
  // One declaration file per module format, so TypeScript's node16/nodenext resolution sees
  // ESM types for `import` and CJS types for `require` (the "masquerading" trap).
  const types = readFileSync(join(dist, 'index.d.ts'), 'utf8');
  if (types.includes('@tracker/sdk-core')) throw new Error('declarations still import @tracker/sdk-core');
  copyFileSync(join(dist, 'index.d.ts'), join(dist, 'index.d.mts'));
  copyFileSync(join(dist, 'index.d.ts'), join(dist, 'index.d.cts'));
}
