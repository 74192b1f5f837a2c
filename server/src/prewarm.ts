import { prewarmPglite } from '@tracker/core/pglite-prewarm';

// Imported first by the entry point, before the modules that take a second to load: without
// DATABASE_URL the database is PGlite, and its WebAssembly compiles meanwhile (decision 032).
if (!process.env.DATABASE_URL) prewarmPglite();
