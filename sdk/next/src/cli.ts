import { UploadSourceMapsError } from './sourcemaps/errors';
import { uploadSourceMaps } from './sourcemaps/upload-sourcemaps';
import { SDK_VERSION } from './version';

const USAGE = `Usage: tracker-upload-sourcemaps [dir]

Uploads every *.js.map under dir (recursively; node_modules skipped) to Tracker for one
release, then deletes the maps from dir so they are not served. The .js files are not changed.

  dir            the build output folder; default .next (no dir and no .next: exit 2)
  -h, --help     this text
  -v, --version  the version

Environment:
  TRACKER_AUTH_TOKEN   upload token (etu_...), sent as Authorization: Bearer
  TRACKER_DSN          the project's DSN (https://et_<key>@host/<projectId>); the maps go to
                       <its origin>/ingest/sourcemaps
  TRACKER_RELEASE      the release; else NEXT_PUBLIC_TRACKER_RELEASE, else VERCEL_GIT_COMMIT_SHA

Without a token, DSN or release it says which is missing, skips the upload, still deletes the
maps, and exits 0. Requests carry at most 50 maps and 10 MB; a map larger than that alone is
reported, not uploaded, and deleted. Two different maps with one file name fail before any upload.

Exit status: 0 uploaded, skipped or nothing found; 1 upload failed (nothing deleted, so a rerun
uploads again); 2 usage error.`;

async function main(argv: string[]): Promise<number> {
  const positional: string[] = [];
  for (const arg of argv) {
    if (arg == '-h' || arg == '--help') {
      console.log(USAGE);
      return 0;
    }
    if (arg == '-v' || arg == '--version') {
      console.log(SDK_VERSION);
      return 0;
    }
    if (arg.startsWith('-')) {
      console.error(`tracker-upload-sourcemaps: unknown option ${arg}\n\n${USAGE}`);
      return 2;
    }
    positional.push(arg);
  }
  if (positional.length > 1) {
    console.error(`tracker-upload-sourcemaps: expected at most one folder, got ${positional.length}\n\n${USAGE}`);
    return 2;
  }
  try {
    await uploadSourceMaps({ dir: positional[0] });
    return 0;
  } catch (error) {
    if (error instanceof UploadSourceMapsError) {
      console.error(`tracker-upload-sourcemaps: error: ${error.message}`);
      return error.code == 'NO_DIR' && positional.length == 0 ? 2 : 1;
    }
    console.error('tracker-upload-sourcemaps: unexpected error:', error);
    return 1;
  }
}

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
