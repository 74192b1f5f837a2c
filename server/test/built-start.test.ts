import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startChildServer, type ChildServer } from './child-server';
import { gqlOk, sendError, signUpWithProject, waitFor } from './helpers';

/**
 * `npm start` runs the compiled `server/dist/main.js`, not the sources every other test loads
 * through tsx. A module-order error in a built package (a class used by a decorator before its
 * definition) once crashed `npm start` at load while every test passed; this starts the build
 * the way the README does, on the embedded default, and walks each role once.
 */
describe('the built server, as npm start runs it (embedded)', () => {
  let dataDir: string;
  let server: ChildServer;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tracker-built-'));
    server = await startChildServer({ TRACKER_DATA_DIR: dataDir }, 'ingest,worker,api,web', {
      built: true,
      // a first start runs PGlite's initdb: seconds alone, up to a minute on a loaded 2-core machine
      startTimeoutMs: 120_000,
    });
  });

  after(async () => {
    await server?.kill();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('every role answers: readyz, GraphQL, the dashboard, ingest and the served SDK', async () => {
    const get = (path: string, init?: RequestInit) =>
      fetch(`${server.url}${path}`, { ...init, signal: AbortSignal.timeout(10_000) });
    assert.equal((await get('/readyz')).status, 200, server.output());

    const gql = await get('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    assert.deepEqual(await gql.json(), { data: { __typename: 'Query' } });

    const login = await get('/login');
    assert.equal(login.status, 200);
    assert.match(await login.text(), /<form/);

    const { key, token, project } = await signUpWithProject(server.url);
    const sent = await sendError(server.url, key, {
      type: 'BuiltError',
      message: 'from dist',
      environment: 'production',
    });
    assert.equal(sent.status, 202, JSON.stringify(sent.body));
    await waitFor('the event grouped by the built worker', async () => {
      const data = await gqlOk(
        server.url,
        'query($p: ID!) { issues(projectId: $p) { nodes { title } } }',
        { p: project.id },
        token,
      );
      return data.issues.nodes.length === 1;
    });

    const sdk = await get('/sdk/tracker.min.js');
    assert.equal(sdk.status, 200);
    assert.match(await sdk.text(), /Tracker/);
  });

  test('SIGTERM: a clean exit within 10 s', async () => {
    const exited = new Promise<number | null>((resolve) => server.proc.once('exit', (code) => resolve(code)));
    server.proc.kill('SIGTERM');
    const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('timeout'), 10_000))]);
    assert.equal(code, 0, server.output());
  });

  test('the api role alone also exits cleanly on SIGTERM (Apollo must not take the signal over)', async () => {
    // The all-roles server above has stopped; this one opens the same data folder. Apollo takes
    // SIGTERM over unless NODE_ENV is `test`, so the environment is production's.
    const api = await startChildServer({ TRACKER_DATA_DIR: dataDir, NODE_ENV: 'production' }, 'api', {
      built: true,
      startTimeoutMs: 120_000,
    });
    try {
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        api.proc.once('exit', (code, signal) => resolve({ code, signal })),
      );
      api.proc.kill('SIGTERM');
      const result = await Promise.race([exited, new Promise((r) => setTimeout(() => r('timeout'), 10_000))]);
      assert.deepEqual(result, { code: 0, signal: null }, api.output());
    } finally {
      await api.kill();
    }
  });
});
