import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setOrganizationPlan } from '@tracker/core';
import type { Tracker } from '../src';
import { createTestEnv, gqlOk, MODES, signUpWithProject, startTracker, type TestEnv } from './helpers';

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

/** A signed-up account on Pro with an upload token for its project. */
export async function accountWithUploadToken(tracker: Tracker, name = 'Web App') {
  const account = await signUpWithProject(tracker.url, name);
  await setOrganizationPlan(tracker.db.ds, account.organization.slug, 'pro');
  const created = await gqlOk(tracker.url, CREATE_TOKEN, { p: account.project.id, n: 'CI' }, account.token);
  const [{ number }] = await tracker.db.ds.query('SELECT number FROM projects WHERE id = $1', [account.project.id]);
  return { ...account, uploadToken: created.createUploadToken.token as string, projectNumber: Number(number) };
}

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
