import { DEFAULT_DATA_DIR, prewarmPglite } from '@tracker/core/pglite-prewarm';

// Imported first by the entry point, before the modules that take a second to load: without
// DATABASE_URL the database is PGlite; its WebAssembly compiles meanwhile, and on a first start
// the data folder's image is copied meanwhile (decision 032).
if (!process.env.DATABASE_URL) prewarmPglite({ dataDir: process.env.TRACKER_DATA_DIR || DEFAULT_DATA_DIR });
