import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Tracker } from '../src';
import { isForeignOrigin } from '../src/web-mount';
import { createTestEnv, signUpWithProject, startTracker, type TestEnv } from './helpers';

// A dashboard form posted from another site (an Origin header naming another host) is refused
// with a 403 that says why, before Remix runs the action; same-origin posts, posts without an
// Origin and posts through a proxy that sets X-Forwarded-Host still work. Real HTTP against a
// real Tracker with the web role. One runtime only: the check runs before anything touches
// storage, so PostgreSQL + Redis would test nothing more.

const PASSWORD = 'correct horse battery'; // signUpWithProject's
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('cross-origin dashboard posts (embedded)', () => {
  let env: TestEnv | undefined;
  let tracker: Tracker | undefined;
  let url: string;
  let account: Awaited<ReturnType<typeof signUpWithProject>>;

  before(async () => {
    env = await createTestEnv('embedded');
    tracker = await startTracker(env, { roles: ['ingest', 'worker', 'api', 'web'] });
    url = tracker.url;
    account = await signUpWithProject(url);
  });
  after(async () => {
    await tracker?.close().catch(() => {});
    await env?.cleanup().catch(() => {});
  });

  function post(path: string, headers: Record<string, string>, body: Record<string, string>) {
    return fetch(`${url}${path}`, {
      method: 'POST',
      headers: { ...FORM, ...headers },
      body: new URLSearchParams(body),
      redirect: 'manual',
    });
  }

  const credentials = () => ({ email: account.email, password: PASSWORD, redirectTo: '/' });

  test('POST /login from another site: 403 with a readable reason, no session cookie', async () => {
    for (const origin of ['https://evil.example', 'null', 'not a url', `${url.replace('127.0.0.1', 'localhost')}`]) {
      const res = await post('/login', { origin }, credentials());
      const body = await res.text();
      assert.equal(res.status, 403, `Origin: ${origin}`);
      assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
      assert.match(body, /^Forbidden: this form was sent from another site\./);
      assert.ok(body.length < 200, 'short');
      assert.equal(res.headers.get('set-cookie'), null, 'no session for a forged sign-in');
    }
  });

  test('every dashboard action is covered, single-fetch data requests included', async () => {
    const paths = ['/signup', '/logout', '/login.data', `/projects/${account.project.id}/alerts`, '/projects/new'];
    for (const path of paths) {
      for (const method of ['POST', 'PUT', 'DELETE']) {
        const res = await fetch(`${url}${path}`, { method, headers: { ...FORM, origin: 'https://evil.example' } });
        await res.arrayBuffer();
        assert.equal(res.status, 403, `${method} ${path}`);
      }
    }
  });

  test('same-origin and Origin-less posts still sign in', async () => {
    for (const headers of [{ origin: url }, {} as Record<string, string>]) {
      const res = await post('/login', headers, credentials());
      await res.arrayBuffer();
      assert.equal(res.status, 302, JSON.stringify(headers));
      assert.equal(res.headers.get('location'), '/');
      assert.match(res.headers.get('set-cookie') ?? '', /HttpOnly/i);
    }
    const wrong = await post('/login', { origin: url }, { ...credentials(), password: 'wrong password!' });
    assert.equal(wrong.status, 400);
    assert.match(await wrong.text(), /Sign in to Tracker/);
  });

  test('behind a proxy: the Origin is compared with X-Forwarded-Host', async () => {
    const proxied = await post(
      '/login',
      { origin: 'https://tracker.example.com', 'x-forwarded-host': 'tracker.example.com' },
      credentials(),
    );
    await proxied.arrayBuffer();
    assert.equal(proxied.status, 302);
    const other = await post(
      '/login',
      { origin: 'https://evil.example', 'x-forwarded-host': 'tracker.example.com' },
      credentials(),
    );
    await other.arrayBuffer();
    assert.equal(other.status, 403);
  });

  test('reading pages from another origin is not an action: GET answers as usual', async () => {
    const res = await fetch(`${url}/login`, { headers: { origin: 'https://evil.example' } });
    assert.equal(res.status, 200);
    assert.match(await res.text(), /Sign in to Tracker/);
  });

  test('the rule matches Remix: only actions, Origin against X-Forwarded-Host, else Host', () => {
    const host = 'tracker.example.com';
    assert.equal(isForeignOrigin('GET', { host, origin: 'https://evil.example' }), false);
    assert.equal(isForeignOrigin('POST', { host }), false);
    assert.equal(isForeignOrigin('POST', { host, origin: '' }), false);
    assert.equal(isForeignOrigin('POST', { host, origin: `https://${host}` }), false);
    assert.equal(isForeignOrigin('PATCH', { host, origin: `https://${host}:8443` }), true);
    assert.equal(isForeignOrigin('POST', { origin: `https://${host}` }), true, 'no host to compare with');
    assert.equal(
      isForeignOrigin('POST', {
        host: '10.0.0.5:3000',
        'x-forwarded-host': `${host}, proxy.internal`,
        origin: `https://${host}`,
      }),
      false,
    );
  });
});
