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
      for (const [token, headers] of cases) {
        for (const path of ['/api/0/']) {
          const r = await sentryApi(tracker.url, 'GET', path, token, undefined, headers);
          assert.equal(r.status, 401, `${path} ${token}: ${r.text}`);
          assert.match(r.type, /^application\/json/);
          assert.equal(typeof r.body.detail, 'string');
        }
      }
    });

    test.skip("a token used on another organization's or project's path is a 403, whatever exists there", async () => {
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
  });
}
