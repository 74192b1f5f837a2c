/**
 * Issue 17: "the key never appears in logs". Tracker runs as `npm start` runs it, in its own
 * process at log level `trace` (everything it would ever print), and gets Sentry requests that
 * carry the DSN key everywhere an SDK puts it: in the URL, in `X-Sentry-Auth`, in
 * `Authorization` and in the envelope header `dsn`, both accepted and refused (401, 403, 400,
 * 413, a body that is not an envelope). Nothing it printed may contain the key.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import zlib from 'node:zlib';
import { startChildServer, type ChildServer } from './child-server';
import { signUpWithProject } from './helpers';
import { buildEnvelope, errorEvent, item, sentryEventId } from './sentry-envelope';

let dir: string;
let server: ChildServer;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tracker-key-logs-'));
  server = await startChildServer({ TRACKER_DATA_DIR: dir, TRACKER_LOG_LEVEL: 'trace' }, 'ingest,worker,api,web', {
    startTimeoutMs: 120_000,
  });
});
after(async () => {
  await server?.kill();
  await rm(dir, { recursive: true, force: true });
});

test('no DSN key reaches the log, whether the request is taken or refused', async () => {
  const a = await signUpWithProject(server.url);
  const b = await signUpWithProject(server.url, 'Other');
  const number = (dsn: string) => new URL(dsn).pathname.split('/').pop()!;
  const na = number(a.dsn);
  const nb = number(b.dsn);
  const event = () => buildEnvelope({ event_id: sentryEventId() }, [item('event', errorEvent(sentryEventId()))]);
  const post = async (path: string, body: Buffer | string, headers: Record<string, string> = {}) =>
    (await fetch(`${server.url}${path}`, { method: 'POST', headers, body })).status;

  const statuses = [
    await post(`/api/${na}/envelope/?sentry_key=${a.key}&sentry_version=7`, event()),
    await post(`/api/${na}/envelope/`, event(), { 'x-sentry-auth': `Sentry sentry_key=${a.key}, sentry_version=7` }),
    await post(`/api/${na}/store/`, JSON.stringify(errorEvent(sentryEventId())), {
      authorization: `Sentry sentry_key=${a.key}`,
    }),
    await post(`/api/${na}/envelope/`, buildEnvelope({ dsn: a.dsn }, [item('event', errorEvent(sentryEventId()))])),
    // Refusals: keys that disagree, another project's number, a key of nobody, a broken body,
    // a header that is not JSON (its text holds the key), a gzip bomb.
    await post(`/api/${na}/envelope/?sentry_key=${a.key}`, buildEnvelope({ dsn: b.dsn }, [])),
    await post(`/api/${nb}/envelope/?sentry_key=${a.key}`, event()),
    await post(`/api/${na}/envelope/?sentry_key=${a.key.slice(0, -4)}beef`, event()),
    await post(`/api/${na}/envelope/?sentry_key=${a.key}`, '{"event_id": oops}\n{"type":"event","length":9}\n{}'),
    await post(`/api/${na}/envelope/`, `{"dsn":"${a.dsn}",\n`),
    await post(`/api/${na}/store/?sentry_key=${a.key}`, zlib.gzipSync(Buffer.alloc(64 * 1024 * 1024)), {
      'content-encoding': 'gzip',
    }),
  ];
  assert.deepEqual(statuses, [200, 200, 200, 200, 401, 403, 403, 400, 400, 413]);

  // Give the process a moment to flush what it logs about the last requests.
  await new Promise((r) => setTimeout(r, 300));
  const printed = server.output();
  // trace level prints (the start-up lines at least): an empty output would prove nothing.
  assert.ok(printed.length > 0, 'the server printed nothing at trace level');
  const secret = a.key.replace(/^et_/, '');
  assert.ok(!printed.includes(secret), `the key was printed:\n${printed}`);
});
