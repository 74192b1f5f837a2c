#!/usr/bin/env node
// `npm test` needs PostgreSQL (127.0.0.1:5432), Redis (127.0.0.1:6379), Debian's Chromium
// (/usr/bin/chromium, or CHROMIUM_PATH) and Debian's Caddy. This starts what is installed but down, installs what is
// missing with apt-get when it can (root on Debian), and otherwise says in seconds what to
// install instead of letting a suite hang or fail a hundred times over. `.ci/run` uses it too.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { aptGetInstall } from './apt-install.mjs';

const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const isRoot = process.getuid?.() === 0;
const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
const problems = [];

function reachable(port) {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, timeout: 1_000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(false));
  });
}

async function waitFor(port) {
  for (let i = 0; i < 30; i++) {
    if (await reachable(port)) return true;
    await new Promise((r) => setTimeout(r, 500));
  }
  return false;
}

/** apt-get install, bounded (scripts/apt-install.mjs); root on Debian only. */
function aptInstall(...packages) {
  if (!isRoot || !has('apt-get')) return false;
  console.log(`test preflight: apt-get install ${packages.join(' ')} (about a minute)`);
  return aptGetInstall(packages);
}

function postgresVersions() {
  return existsSync('/etc/postgresql') ? readdirSync('/etc/postgresql').sort((a, b) => Number(b) - Number(a)) : [];
}

/**
 * A cluster this script installed gets the tests' access rule: trust for loopback TCP (as on the
 * CI machines). Only then: an operator's own cluster is never reconfigured.
 */
function trustLoopback(version) {
  const hba = `/etc/postgresql/${version}/main/pg_hba.conf`;
  if (!existsSync(hba)) return;
  const rules = readFileSync(hba, 'utf8').replace(
    /^(host\s+all\s+all\s+(127\.0\.0\.1\/32|::1\/128)\s+)\S+/gm,
    '$1trust',
  );
  writeFileSync(hba, rules);
}

if (!(await reachable(5432))) {
  let installed = false;
  if (postgresVersions().length === 0) installed = aptInstall('postgresql');
  const [version] = postgresVersions();
  if (version && has('pg_ctlcluster')) {
    if (installed) trustLoopback(version);
    console.log(`test preflight: starting PostgreSQL ${version}`);
    // restart: a cluster the package's install started is still on its default access rule.
    const action = installed ? 'restart' : 'start';
    spawnSync('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', action], {
      stdio: 'inherit',
      timeout: 60_000,
    });
  }
  if (!(await waitFor(5432)))
    problems.push('PostgreSQL on 127.0.0.1:5432 (trust auth, user postgres): apt-get install postgresql');
}

if (!(await reachable(6379))) {
  if (!has('redis-server')) aptInstall('redis-server');
  if (has('redis-server')) {
    console.log('test preflight: starting Redis');
    spawnSync(
      'redis-server',
      ['--daemonize', 'yes', '--bind', '127.0.0.1', '--port', '6379', '--save', '', '--appendonly', 'no'],
      {
        stdio: 'inherit',
        timeout: 30_000,
      },
    );
  }
  if (!(await waitFor(6379))) problems.push('Redis on 127.0.0.1:6379: apt-get install redis-server');
}

// server/test/redis-cluster.test.ts starts its own Redis Cluster with redis-server and redis-cli
// (Debian's redis-tools, which redis-server depends on).
if (!has('redis-cli')) aptInstall('redis-tools');
if (!has('redis-cli')) problems.push('redis-cli (for the Redis Cluster test): apt-get install redis-tools');

if (!existsSync(chromium)) {
  // Debian's chromium, never a tool's own browser download (playwright-core drives this one).
  if (!process.env.CHROMIUM_PATH) aptInstall('chromium');
  if (!existsSync(chromium)) problems.push(`Chromium at ${chromium}: apt-get install chromium (or set CHROMIUM_PATH)`);
}

// The real clients of other languages, from Debian (and Caddy for the shipped Caddyfile), each
// checked by what its test needs; whatever is missing is installed in one apt-get run (one
// download and one round of dpkg triggers, not one per package).
const debianTools = [
  {
    // server/test/raven-clients.test.ts
    what: "Debian's raven-ruby",
    packages: ['ruby-sentry-raven'],
    present: () =>
      has('ruby') && spawnSync('ruby', ['-e', 'require "raven"'], { stdio: 'ignore', timeout: 30_000 }).status === 0,
  },
  {
    what: "Debian's raven-go",
    packages: ['golang-go', 'golang-github-getsentry-raven-go-dev'],
    present: () => has('go') && existsSync('/usr/share/gocode/src/github.com/getsentry/raven-go'),
  },
  {
    // server/test/behind-caddy.test.ts runs the shipped infra/Caddyfile with TLS.
    what: 'Caddy (for the shipped Caddyfile test)',
    packages: ['caddy'],
    present: () => has('caddy'),
  },
  {
    // ingest/test/uptime-tls.test.ts makes a short-lived certificate for its HTTPS site.
    what: 'OpenSSL (a test certificate for the uptime TLS test)',
    packages: ['openssl'],
    present: () => has('openssl'),
  },
  {
    // server/test/sentry-python.test.ts drives the real SDK with /usr/bin/python3.
    what: "Debian's sentry-python",
    packages: ['python3-sentry-sdk'],
    present: () =>
      existsSync('/usr/bin/python3') &&
      spawnSync('/usr/bin/python3', ['-c', 'import sentry_sdk'], { stdio: 'ignore', timeout: 20_000 }).status === 0,
  },
  {
    // server/test/sentry-ruby-go.test.ts (Go builds the sender from Debian's sources).
    what: "Debian's sentry-ruby",
    packages: ['ruby-sentry-ruby'],
    present: () =>
      has('ruby') &&
      spawnSync('ruby', ['-e', 'require "sentry-ruby"'], { stdio: 'ignore', timeout: 30_000 }).status === 0,
  },
  {
    what: "Debian's sentry-go",
    packages: ['golang-go', 'golang-github-getsentry-sentry-go-dev'],
    present: () => has('go') && existsSync('/usr/share/gocode/src/github.com/getsentry/sentry-go'),
  },
];
const missingTools = debianTools.filter((t) => !t.present());
if (missingTools.length > 0) aptInstall(...new Set(missingTools.flatMap((t) => t.packages)));
for (const t of missingTools) {
  if (!t.present()) problems.push(`${t.what}: apt-get install ${t.packages.join(' ')}`);
}

if (problems.length > 0) {
  console.error(`npm test needs:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  process.exit(1);
}
