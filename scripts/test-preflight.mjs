#!/usr/bin/env node
// `npm test` needs PostgreSQL (127.0.0.1:5432), Redis (127.0.0.1:6379) and Debian's Chromium
// (/usr/bin/chromium, or CHROMIUM_PATH). This starts what is installed but down, installs
// Chromium with apt-get when it can (root on Debian), and otherwise says in seconds what to
// install instead of letting a suite hang or fail a hundred times over.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { connect } from 'node:net';

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

if (!(await reachable(5432))) {
  if (has('pg_ctlcluster') && existsSync('/etc/postgresql')) {
    const version = readdirSync('/etc/postgresql')[0];
    console.log(`test preflight: starting PostgreSQL ${version}`);
    spawnSync('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'start'], { stdio: 'inherit' });
  }
  if (!(await waitFor(5432))) problems.push('PostgreSQL on 127.0.0.1:5432 (trust auth, user postgres): apt-get install postgresql');
}

if (!(await reachable(6379))) {
  if (has('redis-server')) {
    console.log('test preflight: starting Redis');
    spawnSync('redis-server', ['--daemonize', 'yes', '--bind', '127.0.0.1', '--port', '6379', '--save', '', '--appendonly', 'no'], {
      stdio: 'inherit',
    });
  }
  if (!(await waitFor(6379))) problems.push('Redis on 127.0.0.1:6379: apt-get install redis-server');
}

if (!existsSync(chromium)) {
  if (isRoot && has('apt-get') && !process.env.CHROMIUM_PATH) {
    console.log('test preflight: installing Debian chromium for the browser tests (apt-get, about a minute)');
    try {
      execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], {
        stdio: 'inherit',
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      });
    } catch {
      spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
      spawnSync('apt-get', ['install', '-y', '-qq', 'chromium'], {
        stdio: 'inherit',
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      });
    }
  }
  if (!existsSync(chromium)) problems.push(`Chromium at ${chromium}: apt-get install chromium (or set CHROMIUM_PATH)`);
}

if (problems.length > 0) {
  console.error(`npm test needs:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  process.exit(1);
}
