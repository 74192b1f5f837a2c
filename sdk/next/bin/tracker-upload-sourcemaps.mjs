#!/usr/bin/env node
// The file npm links as the `tracker-upload-sourcemaps` command. It is not built, so the link
// exists from the first `npm install` of a fresh checkout; the command itself is dist/cli.mjs.
import('../dist/cli.mjs').catch((error) => {
  if (error && error.code == 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('cli.mjs')) {
    console.error(
      'tracker-upload-sourcemaps: @tracker/next is not built (dist/cli.mjs is missing): run `npm run build -w @tracker/next`',
    );
    process.exit(1);
  }
  throw error;
});
