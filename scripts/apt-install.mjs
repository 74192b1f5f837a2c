// apt-get for the test preflight (test-preflight.mjs), in a module of its own so that
// infra/test/test-preflight.test.ts can run it against a held dpkg lock.
import { spawnSync } from 'node:child_process';

/** How long apt-get waits for another apt run's dpkg lock, in seconds. */
export const APT_LOCK_TIMEOUT_S = 300;

/**
 * `apt-get install -y` of `packages`; true when it succeeded. When another apt run (unattended
 * upgrades, a second terminal) holds the dpkg lock, apt-get waits for it up to
 * `lockTimeoutS` instead of failing at once (`-o DPkg::Lock::Timeout`), and the preflight does
 * not report an installed-but-busy machine as missing Chromium. Bounded as a whole too: a stuck
 * mirror must not turn `npm test` into a hang.
 */
export function aptGetInstall(packages, { lockTimeoutS = APT_LOCK_TIMEOUT_S, stdio = 'inherit' } = {}) {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const lock = ['-o', `DPkg::Lock::Timeout=${lockTimeoutS}`];
  const timeout = (lockTimeoutS + 600) * 1000;
  const run = (args) => spawnSync('apt-get', [...lock, ...args], { stdio, env, timeout }).status === 0;
  // The package lists of a fresh image are often empty: update once and try again.
  return (
    run(['install', '-y', '-qq', ...packages]) || (run(['update', '-qq']) && run(['install', '-y', '-qq', ...packages]))
  );
}
