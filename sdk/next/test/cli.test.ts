import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, afterEach, before, beforeEach, test } from 'node:test';
import { MAX_BYTES_PER_REQUEST } from '@tracker/next';
import { chunk, makeTree, runCli, sourceMap } from './helpers';
import { startUploadReceiver, type UploadReceiver } from './receiver';

let receiver: UploadReceiver;
before(async () => {
  receiver = await startUploadReceiver();
});
after(() => receiver.close());
beforeEach(() => receiver.reset());

const trees: { cleanup(): void }[] = [];
afterEach(() => {
  for (const tree of trees.splice(0)) tree.cleanup();
});
function tree(files: Record<string, string>) {
  const made = makeTree(files);
  trees.push(made);
  return made;
}

const TOKEN = 'etu_uploadtoken123';
/** Everything an upload needs; the DSN carries a project id and the receiver's port. */
function fullEnv(): Record<string, string> {
  return {
    TRACKER_AUTH_TOKEN: TOKEN,
    TRACKER_DSN: `http://et_publickey@${receiver.origin.slice('http://'.length)}/42`,
    TRACKER_RELEASE: 'web@1.4.0',
  };
}

/** A port on 127.0.0.1 that nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** `count` chunks named chunk-000.js … under `folder`. */
function chunks(folder: string, count: number): Record<string, string> {
  let files: Record<string, string> = {};
  for (let i = 0; i < count; i++) files = { ...files, ...chunk(folder, `chunk-${String(i).padStart(3, '0')}`) };
  return files;
}

test('--help prints the usage and exits 0; an unknown option or a second folder exits 2', async () => {
  const t = tree({});
  const help = await runCli(['--help'], { cwd: t.root, env: {} });
  assert.equal(help.code, 0);
  assert.match(help.stdout, /^Usage: tracker-upload-sourcemaps \[dir\]/);
  assert.match(help.stdout, /TRACKER_AUTH_TOKEN/);
  const unknown = await runCli(['--dry-run'], { cwd: t.root, env: {} });
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown option --dry-run/);
  const two = await runCli(['a', 'b'], { cwd: t.root, env: {} });
  assert.equal(two.code, 2);
});

test('without a folder it uses .next, and without .next it refuses (exit 2) instead of searching the project', async () => {
  const t = tree({ ...chunk('.next/static/chunks', 'main'), ...chunk('public/vendor', 'lib') });
  const result = await runCli([], { cwd: t.root, env: fullEnv() });
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(
    receiver.uploads[0].body.files.map((f: any) => f.filename),
    ['main.js.map'],
  );
  assert.equal(t.exists('.next/static/chunks/main.js.map'), false);
  assert.equal(t.exists('public/vendor/lib.js.map'), true, 'maps outside the build output are left alone');

  const bare = tree({ ...chunk('dist', 'app') });
  const refused = await runCli([], { cwd: bare.root, env: fullEnv() });
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /no \.next folder here/);
  assert.equal(bare.exists('dist/app.js.map'), true);
  assert.equal(receiver.uploads.length, 1);
});

test('posts {release, files:[{filename, map}]} to <DSN origin>/ingest/sourcemaps with the Bearer token', async () => {
  const t = tree({ ...chunk('out/static/chunks', 'main-abc123'), ...chunk('out/static/chunks/pages', '_app-def456') });
  const result = await runCli(['out'], { cwd: t.root, env: fullEnv() });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(receiver.uploads.length, 1);
  const [upload] = receiver.uploads;
  assert.equal(upload.method, 'POST');
  assert.equal(upload.path, '/ingest/sourcemaps');
  assert.equal(upload.headers.authorization, `Bearer ${TOKEN}`);
  assert.equal(upload.headers['content-type'], 'application/json');
  assert.match(String(upload.headers['user-agent']), /^tracker-upload-sourcemaps\/0\.5\.0 /);
  assert.deepEqual(Object.keys(upload.body).sort(), ['files', 'release']);
  assert.equal(upload.body.release, 'web@1.4.0');
  assert.deepEqual(upload.body.files, [
    { filename: 'main-abc123.js.map', map: sourceMap('main-abc123.js') },
    { filename: '_app-def456.js.map', map: sourceMap('_app-def456.js') },
  ]);
});

test('release precedence: TRACKER_RELEASE, then NEXT_PUBLIC_TRACKER_RELEASE, then VERCEL_GIT_COMMIT_SHA; blank counts as unset', async () => {
  const base = { TRACKER_AUTH_TOKEN: fullEnv().TRACKER_AUTH_TOKEN, TRACKER_DSN: fullEnv().TRACKER_DSN };
  const cases: [Record<string, string>, string][] = [
    [{ TRACKER_RELEASE: 'explicit', NEXT_PUBLIC_TRACKER_RELEASE: 'public', VERCEL_GIT_COMMIT_SHA: 'sha1' }, 'explicit'],
    [{ NEXT_PUBLIC_TRACKER_RELEASE: 'public', VERCEL_GIT_COMMIT_SHA: 'sha2' }, 'public'],
    [{ VERCEL_GIT_COMMIT_SHA: 'sha3' }, 'sha3'],
    [{ TRACKER_RELEASE: '', NEXT_PUBLIC_TRACKER_RELEASE: '  ', VERCEL_GIT_COMMIT_SHA: 'sha4\n' }, 'sha4'],
  ];
  for (const [env, expected] of cases) {
    receiver.reset();
    const t = tree(chunk('build', 'main'));
    const result = await runCli(['build'], { cwd: t.root, env: { ...base, ...env } });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(receiver.uploads.length, 1);
    assert.equal(receiver.uploads[0].body.release, expected, JSON.stringify(env));
  }
});

test('120 maps go in 3 requests of 50, 50 and 20; then the maps are deleted and the .js files left as they were', async () => {
  // 100 under chunks/ and 20 more, with their own names, under chunks/app/
  const files = chunks('.next/static/chunks', 100);
  for (let i = 0; i < 20; i++) Object.assign(files, chunk('.next/static/chunks/app', `page-${i}`));
  const t = tree(files);
  const result = await runCli(['.next'], { cwd: t.root, env: fullEnv() });
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(
    receiver.uploads.map((u) => u.body.files.length),
    [50, 50, 20],
  );
  const sent = receiver.uploads.flatMap((u) => u.body.files.map((f: any) => f.filename));
  assert.equal(new Set(sent).size, 120);
  const bytes = receiver.uploads.reduce((sum, u) => sum + u.bytes, 0);
  assert.match(
    result.stdout,
    new RegExp(
      `uploaded 120 source maps for release web@1\\.4\\.0: 3 requests, [\\d.]+ KB \\(${bytes} bytes\\); the server stored 120`,
    ),
  );
  assert.match(result.stdout, /deleted 120 source maps from \.next/);
  assert.equal(t.exists('.next/static/chunks/chunk-000.js.map'), false);
  assert.equal(t.exists('.next/static/chunks/app/page-19.js.map'), false);
  assert.equal(
    t.read('.next/static/chunks/chunk-000.js'),
    files['.next/static/chunks/chunk-000.js'],
    'the sourceMappingURL comment stays',
  );
});

test('bodies stay within 10 MB: three 4 MB maps go in 2 requests; a map over 10 MB is reported, not sent, and deleted', async () => {
  const mb = 1024 * 1024;
  const t = tree({
    ...chunk('dist', 'a', 4 * mb),
    ...chunk('dist', 'b', 4 * mb),
    ...chunk('dist', 'c', 4 * mb),
    ...chunk('dist', 'huge', 10 * mb + 1),
  });
  const result = await runCli(['dist'], { cwd: t.root, env: fullEnv() });
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(
    receiver.uploads.map((u) => u.body.files.map((f: any) => f.filename)),
    [['a.js.map', 'b.js.map'], ['c.js.map']],
  );
  for (const upload of receiver.uploads) assert.ok(upload.bytes <= MAX_BYTES_PER_REQUEST, `${upload.bytes} bytes`);
  assert.ok(receiver.uploads[0].bytes > 8 * mb);
  assert.match(result.stderr, /huge\.js\.map is 10\.0 MB as JSON, over the 10\.0 MB request limit: not uploaded/);
  assert.match(result.stdout, /uploaded 3 source maps .*: 2 requests, 12\.0 MB .*; 1 over the size limit not uploaded/);
  for (const name of ['a', 'b', 'c', 'huge']) assert.equal(t.exists(`dist/${name}.js.map`), false);
});

test('maps under node_modules are neither sent nor deleted', async () => {
  const t = tree({ ...chunk('dist', 'app'), ...chunk('dist/node_modules/some-lib', 'index') });
  const result = await runCli(['dist'], { cwd: t.root, env: fullEnv() });
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(
    receiver.uploads[0].body.files.map((f: any) => f.filename),
    ['app.js.map'],
  );
  assert.equal(t.exists('dist/node_modules/some-lib/index.js.map'), true);
});

test('a rejected upload exits 1 with the server message and deletes nothing', async () => {
  const t = tree(chunks('dist', 3));
  receiver.answerNext({ status: 401, body: { error: { code: 'UNAUTHORIZED', message: 'unknown upload token' } } });
  const result = await runCli(['dist'], { cwd: t.root, env: fullEnv() });
  assert.equal(result.code, 1);
  assert.match(result.stderr, /HTTP 401 UNAUTHORIZED: unknown upload token/);
  assert.match(result.stderr, /No source map was deleted/);
  assert.equal(receiver.uploads.length, 1, 'a 4xx is not retried');
  for (let i = 0; i < 3; i++) assert.equal(t.exists(`dist/chunk-00${i}.js.map`), true);
});

test('a rejection of the second of three requests keeps every map, including those already sent', async () => {
  const t = tree(chunks('dist', 120));
  receiver.answerNext(
    { status: 200, body: { release: 'web@1.4.0', stored: 50 } },
    { status: 400, body: { error: { code: 'BAD_REQUEST', message: 'files[3].map: not a source map' } } },
  );
  const result = await runCli(['dist'], { cwd: t.root, env: fullEnv() });
  assert.equal(result.code, 1);
  assert.match(
    result.stderr,
    /request 2 of 3: the server rejected the upload: HTTP 400 BAD_REQUEST: files\[3\]\.map: not a source map/,
  );
  assert.equal(receiver.uploads.length, 2);
  assert.equal(t.exists('dist/chunk-000.js.map'), true);
  assert.equal(t.exists('dist/chunk-119.js.map'), true);
});

test('each missing variable skips the upload, names what is missing, deletes the maps and exits 0', async () => {
  const cases: [string, RegExp][] = [
    ['TRACKER_AUTH_TOKEN', /skipped the upload of 2 source maps: TRACKER_AUTH_TOKEN is not set/],
    ['TRACKER_DSN', /skipped the upload of 2 source maps: TRACKER_DSN is not set/],
    [
      'TRACKER_RELEASE',
      /skipped the upload of 2 source maps: a release \(TRACKER_RELEASE, NEXT_PUBLIC_TRACKER_RELEASE, VERCEL_GIT_COMMIT_SHA\) is not set/,
    ],
  ];
  for (const [missing, message] of cases) {
    const env = fullEnv();
    delete env[missing];
    const t = tree(chunks('.next/static/chunks', 2));
    const result = await runCli([], { cwd: t.root, env });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, message);
    assert.match(result.stdout, /deleted 2 source maps from \.next/);
    assert.equal(t.exists('.next/static/chunks/chunk-000.js.map'), false);
    assert.equal(t.exists('.next/static/chunks/chunk-000.js'), true);
  }
  const t = tree(chunks('dist', 1));
  const none = await runCli(['dist'], { cwd: t.root, env: {} });
  assert.equal(none.code, 0);
  assert.match(none.stderr, /TRACKER_AUTH_TOKEN, TRACKER_DSN, a release \(.*\) are not set/);
  assert.equal(receiver.uploads.length, 0);
});

test('two different maps with one basename: a conflict naming both, exit 1 before any upload, nothing deleted', async () => {
  const t = tree({
    ...chunk('dist/client', 'main'),
    ...chunk('dist/server', 'other'),
    'dist/server/main.js.map': sourceMap('server-main.js'),
  });
  const result = await runCli(['dist'], { cwd: t.root, env: fullEnv() });
  assert.equal(result.code, 1);
  assert.match(
    result.stderr,
    /different source maps share an upload name.*main\.js\.map \(client\/main\.js\.map, server\/main\.js\.map\)/,
  );
  assert.equal(receiver.uploads.length, 0);
  assert.equal(t.exists('dist/client/main.js.map'), true);
  assert.equal(t.exists('dist/server/main.js.map'), true);
});

test('identical copies of one map (a standalone output) are sent once and all deleted', async () => {
  const t = tree({ ...chunk('.next/server/chunks', '123'), ...chunk('.next/standalone/.next/server/chunks', '123') });
  const result = await runCli([], { cwd: t.root, env: fullEnv() });
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(
    receiver.uploads[0].body.files.map((f: any) => f.filename),
    ['123.js.map'],
  );
  assert.equal(t.exists('.next/server/chunks/123.js.map'), false);
  assert.equal(t.exists('.next/standalone/.next/server/chunks/123.js.map'), false);
});

test('a connection reset is retried after a back-off, and the upload then succeeds', async () => {
  const t = tree(chunks('dist', 2));
  receiver.answerNext('reset');
  const result = await runCli(['dist'], { cwd: t.root, env: fullEnv() });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(receiver.uploads.length, 2);
  assert.deepEqual(receiver.uploads[1].body, receiver.uploads[0].body);
  assert.match(result.stderr, /request 1 of 1: could not reach http:\/\/127\.0\.0\.1:\d+: .*; retry 1 of 2 in 1000 ms/);
  assert.ok(result.ms >= 1000, `${result.ms} ms`);
  assert.equal(t.exists('dist/chunk-000.js.map'), false);
});

test('an unreachable server fails after the retries (exit 1) and deletes nothing', async () => {
  const t = tree(chunks('dist', 1));
  const port = await closedPort();
  const env = { ...fullEnv(), TRACKER_DSN: `http://et_publickey@127.0.0.1:${port}/42` };
  const result = await runCli(['dist'], { cwd: t.root, env });
  assert.equal(result.code, 1);
  assert.match(
    result.stderr,
    new RegExp(`could not reach http://127\\.0\\.0\\.1:${port}: ECONNREFUSED.*\\(gave up after 3 attempts\\)`),
  );
  assert.equal((result.stderr.match(/retry \d of 2/g) || []).length, 2);
  assert.equal(t.exists('dist/chunk-000.js.map'), true);
});

test('a malformed DSN or a file that is not a source map fails before any upload and deletes nothing', async () => {
  const t = tree(chunks('dist', 1));
  const dsn = await runCli(['dist'], { cwd: t.root, env: { ...fullEnv(), TRACKER_DSN: 'et_publickey' } });
  assert.equal(dsn.code, 1);
  assert.match(dsn.stderr, /TRACKER_DSN is not a DSN of the form/);
  const bad = tree({ ...chunk('dist', 'good'), 'dist/broken.js.map': '<html>not found</html>' });
  const invalid = await runCli(['dist'], { cwd: bad.root, env: fullEnv() });
  assert.equal(invalid.code, 1);
  assert.match(invalid.stderr, /not a source map .*: broken\.js\.map/);
  assert.equal(receiver.uploads.length, 0);
  assert.equal(t.exists('dist/chunk-000.js.map'), true);
  assert.equal(bad.exists('dist/good.js.map'), true);
});

test('a folder without maps exits 0 with nothing sent', async () => {
  const t = tree({ 'dist/app.js': 'console.log(1)\n' });
  const result = await runCli(['dist'], { cwd: t.root, env: fullEnv() });
  assert.equal(result.code, 0);
  assert.match(result.stdout, /no \.js\.map files under dist; nothing to upload/);
  assert.equal(receiver.uploads.length, 0);
});
