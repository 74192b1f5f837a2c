// Part of core's build: a migrated PGlite data folder shipped as dist/pglite-image/, which a
// first embedded start copies instead of running initdb (docs/decisions/028).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { buildPgliteImage, PGLITE_IMAGE_DIR } = require('../dist/db/pglite-image.js');
const started = Date.now();
const meta = await buildPgliteImage();
console.log(
  `${PGLITE_IMAGE_DIR}: PGlite ${meta.pgliteVersion}, ${meta.migrations.length} migrations, ${Date.now() - started} ms`,
);
