import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Tracker } from '../src';
import { createTestEnv, MODES, startTracker, type TestEnv } from './helpers';
import { accountWithUploadToken, sentryApi } from './sentry-api-helpers';

for (const mode of MODES) {
  describe(`Sentry's API under /api/0/: tokens, paths and errors (${mode})`, () => {
    let env: TestEnv;
    let tracker: Tracker;
    let a: Awaited<ReturnType<typeof accountWithUploadToken>>;
    let b: Awaited<ReturnType<typeof accountWithUploadToken>>;

    before(async () => {
      env = await createTestEnv(mode);
      tracker = await startTracker(env, { roles: ['ingest', 'api', 'web'] });
      a = await accountWithUploadToken(tracker);
      b = await accountWithUploadToken(tracker, 'Other');
    });
    after(async () => {
      await tracker?.close();
      await env?.cleanup();
    });

    test('GET /api/0/ answers the auth info sentry-cli info prints: scopes, no user', async () => {
      const r = await sentryApi(tracker.url, 'GET', '/api/0/', a.uploadToken);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.user, null);
      assert.ok(r.body.auth.scopes.includes('project:releases'));
      assert.equal(r.body.auth.organization.slug, a.organization.slug);
      assert.equal(r.body.auth.project.slug, 'web-app');
    });

    test('a missing, malformed, unknown or DSN credential is a JSON 401 with a detail', async () => {
      const cases: Array<[string | undefined, Record<string, string>]> = [
        [undefined, {}],
        ['etu_nope', {}],
        [`etu_${'x'.repeat(43)}`, {}],
        [a.key, {}],
        [undefined, { authorization: 'Basic dXNlcjpwYXNz' }],
      ];
      // Before the body is read: a malformed body without a token is still a 401.
      const malformed = await sentryApi(
        tracker.url,
        'POST',
        `/api/0/organizations/${a.organization.slug}/releases/`,
        undefined,
        '{',
      );
      assert.equal(malformed.status, 401, malformed.text);
      for (const [token, headers] of cases) {
        for (const path of ['/api/0/', `/api/0/organizations/${a.organization.slug}/releases/1.0/`]) {
          const r = await sentryApi(tracker.url, 'GET', path, token, undefined, headers);
          assert.equal(r.status, 401, `${path} ${token}: ${r.text}`);
          assert.match(r.type, /^application\/json/);
          assert.equal(typeof r.body.detail, 'string');
        }
      }
    });

    test("a token used on another organization's or project's path is a 403, whatever exists there", async () => {
      const paths = [
        `/api/0/organizations/${b.organization.slug}/releases/1.0/`,
        `/api/0/organizations/no-such-org/releases/1.0/`,
        `/api/0/projects/${a.organization.slug}/other/releases/`,
        `/api/0/projects/${a.organization.slug}/${b.projectNumber}/releases/`,
        `/api/0/projects/${b.organization.slug}/other/releases/`,
      ];
      for (const path of paths) {
        const r = await sentryApi(tracker.url, 'GET', path, a.uploadToken);
        assert.equal(r.status, 403, `${path}: ${r.text}`);
        assert.match(r.body.detail, /this token belongs to/);
        assert.ok(!r.text.includes(b.project.id));
      }
    });

    test('anything else under /api/0/ is a JSON 404, never the dashboard page', async () => {
      for (const [method, path] of [
        ['GET', '/api/0/no/such/thing/'],
        ['POST', '/api/0/organizations/x/monitors/'],
        ['DELETE', '/api/0/'],
        ['PUT', '/api/0/projects/'],
        ['GET', '/api/0/organizations/'],
      ] as const) {
        const r = await sentryApi(tracker.url, method, path, a.uploadToken);
        assert.equal(r.status, 404, `${method} ${path}: ${r.text}`);
        assert.match(r.type, /^application\/json/, `${method} ${path}`);
        assert.match(r.body.detail, /not part of Tracker's Sentry API subset/);
      }
    });

    test('a body naming another project is a 403, and nothing is created', async () => {
      const org = `/api/0/organizations/${a.organization.slug}`;
      for (const projects of [['other'], [b.projectNumber], ['web-app', 'other']]) {
        const r = await sentryApi(tracker.url, 'POST', `${org}/releases/`, a.uploadToken, { version: 'x@1', projects });
        assert.equal(r.status, 403, r.text);
      }
      const deploy = await sentryApi(tracker.url, 'POST', `${org}/releases/x@1/deploys/`, a.uploadToken, {
        environment: 'production',
        projects: [String(b.projectNumber)],
      });
      assert.equal(deploy.status, 403, deploy.text);
      const rows = await tracker.db.ds.query("SELECT 1 FROM releases WHERE version = 'x@1'");
      assert.equal(rows.length, 0);
    });

    test('malformed bodies are a 400 with a JSON detail naming the field, never a 500', async () => {
      const org = `/api/0/organizations/${a.organization.slug}`;
      await sentryApi(tracker.url, 'POST', `${org}/releases/`, a.uploadToken, {
        version: 'm@1',
        projects: ['web-app'],
      });
      const cases: Array<[string, string, unknown, RegExp]> = [
        ['POST', `${org}/releases/`, '{', /malformed/],
        ['POST', `${org}/releases/`, '[1]', /body/],
        ['POST', `${org}/releases/`, { projects: ['web-app'] }, /version/],
        ['POST', `${org}/releases/`, { version: 'a\u0001b', projects: ['web-app'] }, /version/],
        ['POST', `${org}/releases/`, { version: 'v@1' }, /projects/],
        ['POST', `${org}/releases/`, { version: 'v@1', projects: 'web-app' }, /projects/],
        ['PUT', `${org}/releases/m@1/`, { dateReleased: 'yesterday' }, /dateReleased/],
        ['PUT', `${org}/releases/m@1/`, { commits: 'abc' }, /commits/],
        ['PUT', `${org}/releases/m@1/`, { commits: [{ repository: 'r' }] }, /commits/],
        ['PUT', `${org}/releases/m@1/`, { commits: [{ id: 'a', patch_set: [{ path: '' }] }] }, /patch_set/],
        ['PUT', `${org}/releases/m@1/`, { commits: [{ id: 'a', timestamp: '2026-13-45T99:00:00Z' }] }, /timestamp/],
        ['PUT', `${org}/releases/m@1/`, { refs: [{ repository: 'r' }] }, /refs/],
        [
          'PUT',
          `${org}/releases/m@1/`,
          { commits: Array.from({ length: 1001 }, (_, i) => ({ id: `c${i}` })) },
          /at most 1000/,
        ],
        ['POST', `${org}/releases/m@1/deploys/`, {}, /environment/],
        ['POST', `${org}/releases/m@1/deploys/`, { environment: '   ' }, /environment/],
      ];
      for (const [method, path, body, detail] of cases) {
        const r = await sentryApi(tracker.url, method, path, a.uploadToken, body);
        assert.equal(r.status, 400, `${method} ${path} ${JSON.stringify(body).slice(0, 80)}: ${r.text}`);
        assert.match(r.body.detail, detail, r.text);
      }
      const plain = await sentryApi(tracker.url, 'PUT', `${org}/releases/m@1/`, a.uploadToken, undefined, {
        'content-type': 'text/plain',
      });
      assert.ok(plain.status === 400 || plain.status === 415, plain.text);
      assert.equal(typeof plain.body.detail, 'string');
      const huge = await sentryApi(tracker.url, 'PUT', `${org}/releases/m@1/`, a.uploadToken, {
        url: 'x'.repeat(11 * 1024 * 1024),
      });
      assert.equal(huge.status, 413, huge.text.slice(0, 200));
      assert.equal(typeof huge.body.detail, 'string');
    });

    test("a release that does not exist is a JSON 404; another tenant's release is not visible", async () => {
      const org = `/api/0/organizations/${a.organization.slug}`;
      for (const [method, body] of [
        ['GET', undefined],
        ['PUT', { dateReleased: new Date().toISOString() }],
      ] as const) {
        const r = await sentryApi(tracker.url, method, `${org}/releases/never@1/`, a.uploadToken, body);
        assert.equal(r.status, 404, r.text);
        assert.match(r.body.detail, /not found/);
      }
      const secret = await sentryApi(
        tracker.url,
        'POST',
        `/api/0/projects/${b.organization.slug}/other/releases/`,
        b.uploadToken,
        {
          version: 'secret@1',
        },
      );
      assert.equal(secret.status, 201, secret.text);
      const r = await sentryApi(tracker.url, 'GET', `${org}/releases/secret@1/`, a.uploadToken);
      assert.equal(r.status, 404, r.text);
    });

    test('on Free, creating a release is a 402 with the plan named, as on /ingest/release', async () => {
      const free = await accountWithUploadToken(tracker, 'Free one', 'free');
      const r = await sentryApi(
        tracker.url,
        'POST',
        `/api/0/organizations/${free.organization.slug}/releases/`,
        free.uploadToken,
        {
          version: 'f@1',
          projects: ['free-one'],
        },
      );
      assert.equal(r.status, 402, r.text);
      assert.match(r.body.detail, /release health is not included in the Free plan/);
    });

    test('set-commits answers: explicit commits replace the list, refs store their heads, commits and previous-with-commits read back', async () => {
      const org = `/api/0/organizations/${a.organization.slug}`;
      const first = await sentryApi(
        tracker.url,
        'POST',
        `/api/0/projects/${a.organization.slug}/${a.projectNumber}/releases/`,
        a.uploadToken,
        {
          version: 'c@1',
        },
      );
      assert.equal(first.status, 201, first.text);
      assert.equal(first.body.version, 'c@1');
      assert.equal(first.body.dateReleased, null);
      assert.deepEqual(first.body.projects, [{ id: String(a.projectNumber), slug: 'web-app', name: 'Web App' }]);
      const again = await sentryApi(tracker.url, 'POST', `${org}/releases/`, a.uploadToken, {
        version: 'c@1',
        projects: [a.projectNumber],
      });
      assert.equal(again.status, 208, again.text);

      const commit = (id: string, at: string, files: string[]) => ({
        id,
        repository: 'acme/shop',
        author_name: 'Ada',
        author_email: 'ada@example.com',
        message: `change ${id}`,
        timestamp: at,
        patch_set: files.map((path) => ({ path, type: 'M' })),
      });
      const set = await sentryApi(tracker.url, 'PUT', `${org}/releases/c@1/`, a.uploadToken, {
        commits: [
          commit('bbb', '2026-11-02T00:00:00+02:00', ['src/a.ts']),
          commit('aaa', '2026-11-01T00:00:00Z', ['src/b.ts']),
        ],
      });
      assert.equal(set.status, 200, set.text);
      assert.equal(set.body.commitCount, 2);
      assert.deepEqual(set.body.lastCommit, { id: 'bbb', repository: 'acme/shop' });
      const listed = await sentryApi(tracker.url, 'GET', `${org}/releases/c@1/commits/`, a.uploadToken);
      assert.deepEqual(
        listed.body.map((c: { id: string; dateCreated: string }) => [c.id, c.dateCreated]),
        [
          ['bbb', '2026-11-01T22:00:00.000Z'],
          ['aaa', '2026-11-01T00:00:00.000Z'],
        ],
      );

      await sentryApi(tracker.url, 'POST', `${org}/releases/`, a.uploadToken, {
        version: 'c@2',
        projects: ['web-app'],
      });
      const previous = await sentryApi(tracker.url, 'GET', `${org}/releases/c@2/previous-with-commits/`, a.uploadToken);
      assert.equal(previous.body.version, 'c@1');
      assert.deepEqual(previous.body.lastCommit, { id: 'bbb', repository: 'acme/shop' });
      const none = await sentryApi(tracker.url, 'GET', `${org}/releases/c@1/previous-with-commits/`, a.uploadToken);
      assert.deepEqual(none.body, {});

      const refs = await sentryApi(tracker.url, 'PUT', `${org}/releases/c@1/`, a.uploadToken, {
        refs: [{ repository: 'acme/shop', commit: 'ccc', previousCommit: 'bbb' }],
      });
      assert.equal(refs.status, 200, refs.text);
      assert.equal(refs.body.commitCount, 1);
      const cleared = await sentryApi(tracker.url, 'PUT', `${org}/releases/c@1/`, a.uploadToken, { refs: [] });
      assert.equal(cleared.body.commitCount, 0);
      const repos = await sentryApi(tracker.url, 'GET', `${org}/repos/`, a.uploadToken);
      assert.deepEqual(repos.body, []);
    });
  });
}

describe("Sentry's API under the public URL's path prefix (embedded)", () => {
  let env: TestEnv;
  let tracker: Tracker;

  before(async () => {
    env = await createTestEnv('embedded');
    tracker = await startTracker(env, {
      roles: ['ingest', 'api', 'web'],
      publicUrl: 'https://errors.example.com/tracker',
    });
  });
  after(async () => {
    await tracker?.close();
    await env?.cleanup();
  });

  test('answers under /tracker/api/0/ as under /api/0/, JSON 404 included', async () => {
    const a = await accountWithUploadToken(tracker);
    for (const prefix of ['', '/tracker']) {
      const info = await sentryApi(tracker.url, 'GET', `${prefix}/api/0/`, a.uploadToken);
      assert.equal(info.status, 200, `${prefix}: ${info.text}`);
      const created = await sentryApi(
        tracker.url,
        'POST',
        `${prefix}/api/0/organizations/${a.organization.slug}/releases/`,
        a.uploadToken,
        { version: `p${prefix.length}@1`, projects: ['web-app'] },
      );
      assert.equal(created.status, 201, created.text);
      const missing = await sentryApi(tracker.url, 'GET', `${prefix}/api/0/nothing/here/`, a.uploadToken);
      assert.equal(missing.status, 404);
      assert.match(missing.type, /^application\/json/);
    }
  });
});
