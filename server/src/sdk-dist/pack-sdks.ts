import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The SDK packages an instance serves, by the name of their tarball under `/sdk/`. */
export const SDK_PACKAGES = {
  'tracker-browser.tgz': '@tracker/browser',
  'tracker-node.tgz': '@tracker/node',
  'tracker-next.tgz': '@tracker/next',
} as const;

export type SdkTarballName = keyof typeof SDK_PACKAGES;

/** Where the server build leaves the tarballs, and where the server looks for them. */
export const DEFAULT_SDK_DIR = join(__dirname, '..', '..', 'dist', 'sdk');

/**
 * `npm pack` of each SDK (already built) into `outDir`, under the fixed names of
 * SDK_PACKAGES. Run by the server's build (scripts/pack-sdks.mjs) so an instance serves exactly
 * what npm would publish; the tests run it too. Returns each tarball's path.
 */
export function packSdks(outDir: string): Record<SdkTarballName, string> {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const paths = {} as Record<SdkTarballName, string>;
  for (const [file, name] of Object.entries(SDK_PACKAGES) as Array<[SdkTarballName, string]>) {
    const dir = dirname(require.resolve(`${name}/package.json`));
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string };
    // Built first: a tarball without dist/ would install and then fail at import.
    try {
      readFileSync(join(dir, 'dist', 'index.mjs'));
    } catch {
      throw new Error(`${name} is not built (no dist/index.mjs): run \`npm run build\` first`);
    }
    // `--ignore-scripts`: nothing of ours has pack scripts, and a build must not run any.
    const out = execFileSync(
      'npm',
      ['pack', '--json', '--ignore-scripts', '--pack-destination', outDir, '--loglevel=error'],
      { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 },
    );
    const [result] = JSON.parse(out) as Array<{ filename: string; version: string }>;
    if (result.version !== pkg.version)
      throw new Error(`npm pack of ${name} wrote ${result.version}, not ${pkg.version}`);
    const target = join(outDir, file);
    renameSync(join(outDir, result.filename), target);
    paths[file] = target;
  }
  return paths;
}
