import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setOrganizationPlan } from '@tracker/core';
import type { Tracker } from '../src';
import { gqlOk, signUpWithProject } from './helpers';

const CREATE_TOKEN = `mutation($p: ID!, $n: String!) { createUploadToken(projectId: $p, name: $n) { token } }`;

/** A request to Sentry's API as sentry-cli makes it; the body parsed when it is JSON. */
export async function sentryApi(
  url: string,
  method: string,
  path: string,
  token: string | undefined,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; type: string; body: any; text: string }> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  const type = res.headers.get('content-type') ?? '';
  let parsed: unknown = null;
  if (type.startsWith('application/json') && text) parsed = JSON.parse(text);
  return { status: res.status, type, body: parsed, text };
}

/** A signed-up account (on Pro unless said) with an upload token for its project. */
export async function accountWithUploadToken(tracker: Tracker, name = 'Web App', plan: 'free' | 'pro' = 'pro') {
  const account = await signUpWithProject(tracker.url, name);
  if (plan !== 'free') await setOrganizationPlan(tracker.db.ds, account.organization.slug, plan);
  const created = await gqlOk(tracker.url, CREATE_TOKEN, { p: account.project.id, n: 'CI' }, account.token);
  const [{ number }] = await tracker.db.ds.query('SELECT number FROM projects WHERE id = $1', [account.project.id]);
  return { ...account, uploadToken: created.createUploadToken.token as string, projectNumber: Number(number) };
}

/** The real sentry-cli binary that `@sentry/cli` installs (its platform package). */
export function sentryCliPath(): string {
  const { SentryCli } = require('@sentry/cli') as { SentryCli: { getPath(): string } };
  return SentryCli.getPath();
}

/**
 * Runs sentry-cli against `url` with the token, org and project in its environment. HOME is a
 * throwaway folder (no `~/.sentryclirc` is read), no `.env` is loaded, the update check is off
 * and every other destination goes to a proxy on a closed loopback port: it can talk to the test
 * server only (sentry-cli 3 has no telemetry; its update check is the one call it would make).
 */
export function runSentryCli(
  args: string[],
  opts: { url: string; token: string; org: string; project: string; cwd: string; home: string },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: opts.home,
    SENTRY_URL: opts.url,
    SENTRY_AUTH_TOKEN: opts.token,
    SENTRY_ORG: opts.org,
    SENTRY_PROJECT: opts.project,
    SENTRY_DISABLE_UPDATE_CHECK: '1',
    SENTRY_LOAD_DOTENV: '0',
    SENTRY_NO_PROGRESS_BAR: '1',
    SENTRY_LOG_LEVEL: 'warn',
    HTTP_PROXY: 'http://127.0.0.1:9',
    HTTPS_PROXY: 'http://127.0.0.1:9',
    ALL_PROXY: 'http://127.0.0.1:9',
    NO_PROXY: '127.0.0.1,localhost',
    GIT_CONFIG_NOSYSTEM: '1',
  };
  return new Promise((resolve, reject) => {
    const child = spawn(sentryCliPath(), args, {
      cwd: opts.cwd,
      env: env as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A real git repository in `dir` with the commits given, oldest first; returns their SHAs. */
export function makeGitRepo(
  dir: string,
  commits: Array<{ files: Record<string, string>; message: string; author: string; email: string; date: string }>,
): string[] {
  const git = (args: string[], env: Record<string, string> = {}) =>
    execFileSync('git', args, {
      cwd: dir,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: dir,
        GIT_CONFIG_NOSYSTEM: '1',
        NODE_ENV: 'test',
        ...env,
      },
      encoding: 'utf8',
    }).trim();
  git(['init', '-q', '-b', 'main']);
  const shas: string[] = [];
  for (const c of commits) {
    for (const [path, content] of Object.entries(c.files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), content);
    }
    git(['add', '-A']);
    const who = { GIT_AUTHOR_NAME: c.author, GIT_AUTHOR_EMAIL: c.email, GIT_AUTHOR_DATE: c.date };
    git(['-c', 'user.name=CI', '-c', 'user.email=ci@example.com', 'commit', '-q', '-m', c.message], {
      ...who,
      GIT_COMMITTER_NAME: 'CI',
      GIT_COMMITTER_EMAIL: 'ci@example.com',
      GIT_COMMITTER_DATE: c.date,
    });
    shas.push(git(['rev-parse', 'HEAD']));
  }
  return shas;
}
