// Issue 31: `npm install` on a Node the README accepts printed 18 EBADENGINE warnings (packages
// wanting Node >= 22 while package.json said >= 20.18). npm warns when the running Node is outside
// a package's `engines.node`; this walks what package-lock.json installs and checks that every
// Node version the root `engines.node` accepts is inside every such range, so no supported Node
// can get that warning again. Fix a failure by pinning a version that supports the range (root
// `overrides`, with `npm view <pkg>@<version> engines`), not by widening this test.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import semver from 'semver';

const REPO = join(__dirname, '..', '..');
const readJson = <T>(path: string): T => JSON.parse(readFileSync(join(REPO, path), 'utf8')) as T;

interface LockedPackage {
  version?: string;
  engines?: { node?: string } | string[];
  os?: string[];
  cpu?: string[];
}

/** Whether npm installs a package on this machine: one for another OS or CPU is skipped, unchecked. */
function installsHere(p: LockedPackage): boolean {
  // npm's rule: a list of allowed values, or of `!value` exclusions.
  const allows = (list: string[] | undefined, value: string) =>
    !list || list.includes(value) || (list.every((v) => v.startsWith('!')) && !list.includes(`!${value}`));
  return allows(p.os, process.platform) && allows(p.cpu, process.arch);
}

/** `path@version wants <range>` for each locked package some accepted Node version does not satisfy. */
export function engineConflicts(rootRange: string, packages: Record<string, LockedPackage>): string[] {
  const conflicts: string[] = [];
  for (const [path, p] of Object.entries(packages)) {
    const wanted = p.engines && !Array.isArray(p.engines) ? p.engines.node : undefined;
    if (!path || !wanted || !installsHere(p)) continue;
    if (!semver.subset(rootRange, wanted, { includePrerelease: false }))
      conflicts.push(`${path.replace(/^.*node_modules\//, '')}@${p.version} wants ${wanted}`);
  }
  return conflicts;
}

const root = readJson<{ engines: { node: string } }>('package.json');
const lock = readJson<{ packages: Record<string, LockedPackage> }>('package-lock.json');

test('every package npm installs accepts every Node version package.json accepts (no EBADENGINE)', () => {
  assert.ok(semver.validRange(root.engines.node), `engines.node: ${root.engines.node}`);
  assert.deepEqual(engineConflicts(root.engines.node, lock.packages), []);
});

test('the check finds a package that wants a newer Node than the declared range', () => {
  const packages = {
    'node_modules/listr2': { version: '10.2.2', engines: { node: '>=22.13.0' } },
    'node_modules/cookie': { version: '1.1.1', engines: { node: '>=18' } },
    'node_modules/@img/sharp-win32-ia32': { version: '0.35.5', engines: { node: '^20.9.0' }, os: ['win32'] },
  };
  assert.deepEqual(engineConflicts('>=20.19', packages), ['listr2@10.2.2 wants >=22.13.0']);
});

test('the Node running the tests is one package.json accepts', () => {
  assert.ok(semver.satisfies(process.version, root.engines.node), `${process.version} vs ${root.engines.node}`);
});
