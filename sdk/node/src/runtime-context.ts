import { release } from 'node:os';

// Sentry's names for `process.platform`, so `os.name` tags read the same as theirs.
const OS_NAMES: Record<string, string> = {
  linux: 'Linux',
  darwin: 'macOS',
  win32: 'Windows',
  freebsd: 'FreeBSD',
  openbsd: 'OpenBSD',
  sunos: 'SunOS',
  aix: 'AIX',
  android: 'Android',
};

let cached: Record<string, unknown> | undefined;

/**
 * `context.runtime` and `context.os` of every event (docs/ingest.md): the worker turns them into
 * the tags `runtime` ("node 20.20.2"), `runtime.name` and `os.name`. Computed once; they do not
 * change while the process lives.
 */
export function runtimeContext(): Record<string, unknown> {
  if (!cached) {
    cached = {
      runtime: { name: 'node', version: process.versions.node },
      os: { name: OS_NAMES[process.platform] || process.platform, version: release() },
    };
  }
  return cached;
}
