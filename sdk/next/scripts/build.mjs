import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildSdk } from '../../core/scripts/build-sdk.mjs';

const dir = fileURLToPath(new URL('..', import.meta.url));
// The library (dist/index.{mjs,cjs} and bundled declarations), exactly as @tracker/node.
await buildSdk({ dir, platform: 'node' });

// The command: one self-contained ESM file, loaded by bin/tracker-upload-sourcemaps.mjs (the
// file npm links; it is committed, so the link exists before the first build).
const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
await build({
  absWorkingDir: dir,
  entryPoints: ['src/cli.ts'],
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  outfile: 'dist/cli.mjs',
  define: { __SDK_VERSION__: JSON.stringify(pkg.version) },
  sourcemap: true,
  logLevel: 'warning',
});
