import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setOrganizationPlan } from '@tracker/core';
import type { Tracker } from '../src';
import { createTestEnv, gql, gqlOk, signUpWithProject, startTracker, type TestEnv } from './helpers';

/** A small valid source map for `app.js` (one mapping: line 1 col 0 → src/app.ts 1:0). */
function tinyMap(file = 'app.js'): string {
  return JSON.stringify({ version: 3, file, sources: ['src/app.ts'], names: [], mappings: 'AAAA' });
}

async function post(url: string, path: string, body: unknown, authorization?: string) {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

const CREATE_TOKEN = `mutation($p: ID!, $n: String!) { createUploadToken(projectId: $p, name: $n) { token uploadToken { id name prefix revokedAt } } }`;

describe('upload tokens, POST /ingest/release and POST /ingest/sourcemaps', () => {
  let env: TestEnv;
  let tracker: Tracker;
  let url: string;
  let account: Awaited<ReturnType<typeof signUpWithProject>>;
  let token: string;

  before(async () => {
    env = await createTestEnv('postgres+redis');
    tracker = await startTracker(env, { roles: ['ingest', 'api'] });
    url = tracker.url;
    account = await signUpWithProject(url);
    const created = await gqlOk(url, CREATE_TOKEN, { p: account.project.id, n: 'CI' }, account.token);
    token = created.createUploadToken.token;
  });
  after(async () => {
    await tracker.close();
    await env.cleanup();
  });

  async function storedMaps(
    projectId = account.project.id,
  ): Promise<Array<{ release: string; filename: string; map: string }>> {
    return tracker.db.ds.query(
      'SELECT release, filename, map FROM source_maps WHERE project_id = $1 ORDER BY release, filename',
      [projectId],
    );
  }

  test('a token is shown once, listed by name and prefix only, and stored hashed', async () => {
    assert.match(token, /^etu_[A-Za-z0-9_-]{43}$/);
    const list = await gqlOk(
      url,
      `query($p: ID!) { uploadTokens(projectId: $p) { name prefix revokedAt } }`,
      { p: account.project.id },
      account.token,
    );
    assert.deepEqual(list.uploadTokens, [{ name: 'CI', prefix: token.slice(0, 8), revokedAt: null }]);
    const rows = await tracker.db.ds.query('SELECT token_hash FROM upload_tokens WHERE project_id = $1', [
      account.project.id,
    ]);
    assert.equal(rows.length, 1);
    assert.notEqual(rows[0].token_hash, token);
    assert.ok(!JSON.stringify(rows).includes(token.slice(4)), 'the secret is not stored');
  });

  test('another tenant cannot create or list tokens for the project', async () => {
    const other = await signUpWithProject(url);
    const r = await gql(url, CREATE_TOKEN, { p: account.project.id, n: 'x' }, other.token);
    assert.equal(r.errors?.[0].extensions?.code, 'NOT_FOUND');
    const l = await gql(
      url,
      `query($p: ID!) { uploadTokens(projectId: $p) { id } }`,
      { p: account.project.id },
      other.token,
    );
    assert.equal(l.errors?.[0].extensions?.code, 'NOT_FOUND');
  });

  test('sourcemaps: stored per project and release; a file of the same name is replaced', async () => {
    const r = await post(
      url,
      '/ingest/sourcemaps',
      {
        release: '1.0.0',
        files: [
          { filename: 'app.js.map', map: tinyMap() },
          { filename: 'vendor.js.map', map: JSON.parse(tinyMap('vendor.js')) },
        ],
      },
      `Bearer ${token}`,
    );
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body, { release: '1.0.0', stored: 2 });
    const replacement = JSON.stringify({ ...JSON.parse(tinyMap()), sources: ['src/replaced.ts'] });
    const again = await post(
      url,
      '/ingest/sourcemaps',
      { release: '1.0.0', files: [{ filename: 'app.js.map', map: replacement }] },
      `Bearer ${token}`,
    );
    assert.equal(again.status, 200);
    const maps = await storedMaps();
    assert.deepEqual(
      maps.map((m) => m.filename),
      ['app.js.map', 'vendor.js.map'],
    );
    assert.match(maps[0].map, /replaced\.ts/);
  });

  describe('limits and bad input: the right status and message, nothing stored', () => {
    let before: number;
    const auth = () => `Bearer ${token}`;
    const expectRefused = async (r: { status: number; body: any }, status: number, code: string, message: RegExp) => {
      assert.equal(r.status, status, JSON.stringify(r.body));
      assert.equal(r.body.error.code, code);
      assert.match(r.body.error.message, message);
      assert.equal((await storedMaps()).length, before, 'nothing stored');
    };

    test('51 files is 413', async () => {
      before = (await storedMaps()).length;
      const files = Array.from({ length: 51 }, (_, i) => ({ filename: `c${i}.js.map`, map: tinyMap(`c${i}.js`) }));
      await expectRefused(
        await post(url, '/ingest/sourcemaps', { release: '2.0.0', files }, auth()),
        413,
        'PAYLOAD_TOO_LARGE',
        /at most 50/,
      );
    });

    test('an 11 MB batch is 413', async () => {
      before = (await storedMaps()).length;
      const big = JSON.stringify({
        version: 3,
        sources: ['a.ts'],
        names: [],
        mappings: 'AAAA',
        sourcesContent: ['x'.repeat(11 * 1024 * 1024)],
      });
      await expectRefused(
        await post(
          url,
          '/ingest/sourcemaps',
          { release: '2.0.0', files: [{ filename: 'big.js.map', map: big }] },
          auth(),
        ),
        413,
        'PAYLOAD_TOO_LARGE',
        /10 MB/,
      );
    });

    test('a map that is not JSON is 400 naming the file; the valid files of the batch are not stored either', async () => {
      before = (await storedMaps()).length;
      const files = [
        { filename: 'ok.js.map', map: tinyMap('ok.js') },
        { filename: 'broken.js.map', map: '{"version": 3, "mappings": ' },
      ];
      await expectRefused(
        await post(url, '/ingest/sourcemaps', { release: '2.0.0', files }, auth()),
        400,
        'BAD_USER_INPUT',
        /broken\.js\.map/,
      );
    });

    test('JSON that is not a source map is 400 naming the file', async () => {
      before = (await storedMaps()).length;
      const files = [{ filename: 'notamap.js.map', map: JSON.stringify({ hello: 'world' }) }];
      await expectRefused(
        await post(url, '/ingest/sourcemaps', { release: '2.0.0', files }, auth()),
        400,
        'BAD_USER_INPUT',
        /notamap\.js\.map/,
      );
    });

    test('a filename with a path is 400', async () => {
      before = (await storedMaps()).length;
      for (const filename of ['static/js/app.js.map', '../app.js.map', 'C:\\build\\app.js.map']) {
        const r = await post(
          url,
          '/ingest/sourcemaps',
          { release: '2.0.0', files: [{ filename, map: tinyMap() }] },
          auth(),
        );
        await expectRefused(r, 400, 'BAD_USER_INPUT', /filename: must be a file name without a path/);
      }
    });

    test('a DSN key instead of a token is 401 for both endpoints', async () => {
      before = (await storedMaps()).length;
      const files = [{ filename: 'app.js.map', map: tinyMap() }];
      await expectRefused(
        await post(url, '/ingest/sourcemaps', { release: '2.0.0', files }, `DSN ${account.key}`),
        401,
        'UNAUTHENTICATED',
        /DSN key cannot/,
      );
      await expectRefused(
        await post(url, '/ingest/sourcemaps', { release: '2.0.0', files }, `Bearer ${account.key}`),
        401,
        'UNAUTHENTICATED',
        /DSN key cannot/,
      );
      await expectRefused(
        await post(url, '/ingest/release', { version: '2.0.0' }, `Bearer ${account.key}`),
        401,
        'UNAUTHENTICATED',
        /DSN key cannot/,
      );
      await expectRefused(
        await post(url, '/ingest/sourcemaps', { release: '2.0.0', files }),
        401,
        'UNAUTHENTICATED',
        /missing Authorization/,
      );
    });

    test('a revoked token is 401; other tokens keep working', async () => {
      const second = (await gqlOk(url, CREATE_TOKEN, { p: account.project.id, n: 'old laptop' }, account.token))
        .createUploadToken;
      await gqlOk(
        url,
        `mutation($p: ID!, $id: ID!) { revokeUploadToken(projectId: $p, id: $id) { revokedAt } }`,
        { p: account.project.id, id: second.uploadToken.id },
        account.token,
      );
      before = (await storedMaps()).length;
      const files = [{ filename: 'app.js.map', map: tinyMap() }];
      await expectRefused(
        await post(url, '/ingest/sourcemaps', { release: '2.0.0', files }, `Bearer ${second.token}`),
        401,
        'UNAUTHENTICATED',
        /revoked/,
      );
      assert.equal((await post(url, '/ingest/sourcemaps', { release: '3.0.0', files }, auth())).status, 200);
    });
  });

  describe('releases', () => {
    test('free plan: 402 with a clear message, on both paths', async () => {
      const r = await post(url, '/ingest/release', { version: '1.0.0' }, `Bearer ${token}`);
      assert.equal(r.status, 402, JSON.stringify(r.body));
      assert.equal(r.body.error.code, 'PLAN_REQUIRED');
      assert.match(r.body.error.message, /upgrade to Pro/);
      const m = await gql(
        url,
        `mutation($p: ID!) { markRelease(projectId: $p, version: "1.0.0") { version } }`,
        { p: account.project.id },
        account.token,
      );
      assert.equal(m.errors?.[0].extensions?.code, 'PLAN_REQUIRED');
      assert.equal(
        (
          await gqlOk(
            url,
            `query($p: ID!) { releases(projectId: $p) { version } }`,
            { p: account.project.id },
            account.token,
          )
        ).releases.length,
        0,
      );
    });

    test('pro plan: register (environment defaults to production), re-register bumps, releases newest first', async () => {
      await setOrganizationPlan(tracker.db.ds, account.organization.slug, 'pro');
      const a = await post(url, '/ingest/release', { version: '1.0.0' }, `Bearer ${token}`);
      assert.equal(a.status, 200, JSON.stringify(a.body));
      assert.equal(a.body.environment, 'production');
      assert.equal(a.body.version, '1.0.0');
      const b = await post(url, '/ingest/release', { version: '1.1.0', environment: 'staging' }, `Bearer ${token}`);
      assert.equal(b.body.environment, 'staging');
      await new Promise((r) => setTimeout(r, 20));
      const bumped = await post(url, '/ingest/release', { version: '1.0.0' }, `Bearer ${token}`);
      assert.ok(
        Date.parse(bumped.body.deployedAt) > Date.parse(a.body.deployedAt),
        're-registration bumps the deploy time',
      );
      const q = `query($p: ID!, $e: String) { releases(projectId: $p, environment: $e) { version environment } }`;
      const all = await gqlOk(url, q, { p: account.project.id }, account.token);
      assert.deepEqual(all.releases, [
        { version: '1.0.0', environment: 'production' },
        { version: '1.1.0', environment: 'staging' },
      ]);
      const staging = await gqlOk(url, q, { p: account.project.id, e: 'staging' }, account.token);
      assert.deepEqual(staging.releases, [{ version: '1.1.0', environment: 'staging' }]);
      const marked = await gqlOk(
        url,
        `mutation($p: ID!) { markRelease(projectId: $p, version: "1.2.0", environment: "staging") { version environment } }`,
        { p: account.project.id },
        account.token,
      );
      assert.deepEqual(marked.markRelease, { version: '1.2.0', environment: 'staging' });
    });

    test('bad release bodies are 400 naming the field', async () => {
      const r = await post(url, '/ingest/release', { environment: 'production' }, `Bearer ${token}`);
      assert.equal(r.status, 400);
      assert.match(r.body.error.message, /^version:/);
      const e = await post(url, '/ingest/release', { version: '1', environment: 7 }, `Bearer ${token}`);
      assert.equal(e.status, 400);
      assert.match(e.body.error.message, /^environment:/);
    });
  });
});
