import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startChildServer, type ChildServer } from './child-server';
import { gqlOk, sendError, signUpWithProject, waitFor } from './helpers';

/**
 * Issue 21: the embedded server's first start (empty data folder: the build's migrated folder is
 * copied, docs/decisions/028) and a restart on that folder both come up and store events, and
 * the folder's lock still turns a second server away. Real processes of `server/src/main.ts`.
 */
describe('embedded server: first start, restart, and one process per data folder', () => {
  let dataDir: string;
  let server: ChildServer | undefined;
  let account: Awaited<ReturnType<typeof signUpWithProject>>;

  before(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'tracker-embedded-start-'));
  });

  after(async () => {
    await server?.kill();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const eventCount = async (url: string) => {
    const data = await gqlOk(
      url,
      'query($p: ID!) { issues(projectId: $p) { nodes { eventCount } } }',
      { p: account.project.id },
      account.token,
    );
    return (data.issues.nodes as Array<{ eventCount: number }>).reduce((n, i) => n + i.eventCount, 0);
  };

  const stop = async (s: ChildServer) => {
    const exited = new Promise<number | null>((r) => s.proc.once('exit', (code) => r(code)));
    s.proc.kill('SIGTERM');
    assert.equal(await exited, 0, s.output());
  };

  test('the first start on an empty folder comes up and stores an event', async () => {
    server = await startChildServer({ TRACKER_DATA_DIR: dataDir }, 'ingest,worker,api', { startTimeoutMs: 120_000 });
    assert.deepEqual(
      readdirSync(dataDir).filter((f) => f.startsWith('pgdata')),
      ['pgdata'],
      'the copied folder, no scratch left',
    );
    account = await signUpWithProject(server.url);
    const sent = await sendError(server.url, account.key, {
      type: 'FirstStart',
      message: 'one',
      environment: 'production',
    });
    assert.equal(sent.status, 202);
    await waitFor('the event stored', async () => (await eventCount(server!.url)) === 1, 60_000);
  });

  test('a second server on the same folder is refused while the first runs', async () => {
    const second = spawn(
      process.execPath,
      [
        '--conditions=@tracker/source',
        '--import',
        'tsx',
        join(__dirname, '..', 'src', 'main.ts'),
        '--roles',
        'ingest,worker,api',
      ],
      {
        cwd: join(__dirname, '..', '..'),
        env: {
          ...process.env,
          TSX_TSCONFIG_PATH: join(__dirname, '..', '..', 'tsconfig.json'),
          TRACKER_DATA_DIR: dataDir,
          PORT: '0',
          HOST: '127.0.0.1',
          NODE_ENV: 'test',
          TRACKER_LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    second.stdout!.on('data', (d) => (out += d));
    second.stderr!.on('data', (d) => (out += d));
    const code = await new Promise<number | null>((r) => second.once('exit', (c) => r(c)));
    assert.equal(code, 1, out.slice(0, 2_000));
    assert.match(out, new RegExp(`in use by another Tracker process \\(pid ${server!.proc.pid}\\)`));
    // The first one is untouched.
    assert.equal((await fetch(`${server!.url}/readyz`)).status, 200);
  });

  test('a restart on that folder comes up, keeps the event and stores another', async () => {
    await stop(server!);
    assert.ok(!existsSync(join(dataDir, 'tracker.lock')), 'the lock is released on a clean stop');
    server = await startChildServer({ TRACKER_DATA_DIR: dataDir }, 'ingest,worker,api', { startTimeoutMs: 120_000 });
    assert.equal(await eventCount(server.url), 1);
    const sent = await sendError(server.url, account.key, {
      type: 'FirstStart',
      message: 'one',
      environment: 'production',
    });
    assert.equal(sent.status, 202);
    await waitFor('the second event stored', async () => (await eventCount(server!.url)) === 2, 60_000);
  });
});
