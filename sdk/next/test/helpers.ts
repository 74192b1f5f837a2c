import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8'));
/** The command as package.json declares it (the file npm links into node_modules/.bin). */
export const BIN = join(PACKAGE_DIR, pkg.bin['tracker-upload-sourcemaps']);

/** Variables the uploader reads; removed from the child's environment unless a test sets them. */
const OWN_VARIABLES = [
  'TRACKER_RELEASE',
  'NEXT_PUBLIC_TRACKER_RELEASE',
  'VERCEL_GIT_COMMIT_SHA',
  'TRACKER_DSN',
  'TRACKER_AUTH_TOKEN',
];

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

export function runCli(args: string[], options: { cwd: string; env: Record<string, string> }): Promise<CliResult> {
  const env: Record<string, string | undefined> = { ...process.env, NODE_OPTIONS: '' };
  for (const name of OWN_VARIABLES) delete env[name];
  const started = Date.now();
  const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd, env: { ...env, ...options.env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, ms: Date.now() - started }));
  });
}

/** A valid source map of about `size` bytes (the padding is source text that needs no JSON escaping). */
export function sourceMap(name: string, size = 0): string {
  const map = {
    version: 3,
    file: name.replace(/\.map$/, ''),
    sources: [`src/${name}.ts`],
    names: [],
    mappings: 'AAAA,SAAS',
    sourcesContent: [''],
  };
  const base = JSON.stringify(map).length;
  map.sourcesContent = ['x'.repeat(Math.max(0, size - base))];
  return JSON.stringify(map);
}

/** A temporary folder holding `files` (path → contents); removed by `cleanup()`. */
export function makeTree(files: Record<string, string>): {
  root: string;
  path(p: string): string;
  exists(p: string): boolean;
  read(p: string): string;
  cleanup(): void;
} {
  const root = mkdtempSync(join(tmpdir(), 'tracker-next-test-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return {
    root,
    path: (p) => join(root, p),
    exists: (p) => existsSync(join(root, p)),
    read: (p) => readFileSync(join(root, p), 'utf8'),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** A chunk and its map, linked by the comment bundlers write. */
export function chunk(folder: string, name: string, mapSize = 0): Record<string, string> {
  return {
    [`${folder}/${name}.js`]: `console.log(${JSON.stringify(name)});\n//# sourceMappingURL=${name}.js.map\n`,
    [`${folder}/${name}.js.map`]: sourceMap(`${name}.js`, mapSize),
  };
}
