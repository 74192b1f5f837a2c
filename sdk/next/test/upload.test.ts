import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, test } from 'node:test';
import {
  MAX_BYTES_PER_REQUEST,
  MAX_FILES_PER_REQUEST,
  RELEASE_VARIABLES,
  uploadSourceMaps,
  UploadSourceMapsError,
} from '@tracker/next';
import { bodyOverheadBytes, planBatches, type PlannedFile } from '../src/sourcemaps/plan-batches';
import { chunk, makeTree, sourceMap } from './helpers';
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

const FAST = { retryDelaysMs: [20, 40], timeoutMs: 2_000 };
const lines: string[] = [];
const logger = { info: (m: string) => void lines.push(m), warn: (m: string) => void lines.push('warn: ' + m) };

function dsn() {
  return `http://et_publickey@${receiver.origin.slice('http://'.length)}/42`;
}

test("the limits and the release order are the issue's", () => {
  assert.equal(MAX_FILES_PER_REQUEST, 50);
  assert.equal(MAX_BYTES_PER_REQUEST, 10 * 1024 * 1024);
  assert.deepEqual(RELEASE_VARIABLES, ['TRACKER_RELEASE', 'NEXT_PUBLIC_TRACKER_RELEASE', 'VERCEL_GIT_COMMIT_SHA']);
});

test('planBatches: a body exactly at the byte limit fits, one byte more splits, and 50 files close a batch', () => {
  const file = (name: string, entryBytes: number): PlannedFile => ({ filename: name, path: '/' + name, entryBytes });
  const overhead = bodyOverheadBytes('r1');
  assert.equal(overhead, Buffer.byteLength('{"release":"r1","files":[]}'));
  // overhead + 100 + 1 (comma) + 99 = overhead + 200
  assert.deepEqual(
    planBatches([file('a', 100), file('b', 99)], overhead, 50, overhead + 200).map((b) => b.length),
    [2],
  );
  assert.deepEqual(
    planBatches([file('a', 100), file('b', 100)], overhead, 50, overhead + 200).map((b) => b.length),
    [1, 1],
  );
  const many = Array.from({ length: 101 }, (_, i) => file(`f${i}`, 10));
  assert.deepEqual(
    planBatches(many, overhead, 50, 1e9).map((b) => b.length),
    [50, 50, 1],
  );
  assert.deepEqual(planBatches([], overhead, 50, 1e9), []);
});

test('uploadSourceMaps: options win over the environment and the result counts files, requests and bytes', async () => {
  const t = tree({ ...chunk('out', 'a'), ...chunk('out', 'b') });
  const env = { TRACKER_RELEASE: 'from-env', TRACKER_DSN: 'http://et_x@127.0.0.1:1/1', TRACKER_AUTH_TOKEN: 'etu_env' };
  const result = await uploadSourceMaps({
    dir: t.path('out'),
    release: 'from-option',
    dsn: dsn(),
    authToken: 'etu_option',
    env,
    logger: null,
  });
  assert.equal(receiver.uploads[0].headers.authorization, 'Bearer etu_option');
  assert.equal(receiver.uploads[0].body.release, 'from-option');
  assert.deepEqual(
    {
      status: result.status,
      release: result.release,
      found: result.found,
      files: result.files,
      batches: result.batches,
      stored: result.stored,
      deleted: result.deleted,
    },
    { status: 'uploaded', release: 'from-option', found: 2, files: 2, batches: 1, stored: 2, deleted: 2 },
  );
  assert.equal(result.bytes, receiver.uploads[0].bytes);
  assert.equal(t.exists('out/a.js.map'), false);
});

test("uploadSourceMaps: a map named apart from its chunk (Turbopack) goes up under the chunk's name", async () => {
  const chunkText = 'throw new Error("x");\n//# sourceMappingURL=1-3l1u1ko108j.js.map\n';
  const t = tree({
    'out/static/chunks/0cz1d0mv5g_q7.js': chunkText,
    'out/static/chunks/1-3l1u1ko108j.js.map': sourceMap('0cz1d0mv5g_q7.js'),
    // Two scripts pointing at one map (a copy of the chunk under another name): sent under both.
    'out/static/chunks/copy.js': '//# sourceMappingURL=./1-3l1u1ko108j.js.map',
    // A map no script names keeps its own name; an inline data: map is not a file to match.
    'out/orphan.js.map': sourceMap('orphan.js'),
    'out/inline.js': '//# sourceMappingURL=data:application/json;base64,e30=',
  });
  const result = await uploadSourceMaps({
    dir: t.path('out'),
    release: 'r',
    dsn: dsn(),
    authToken: 'etu_t',
    logger: null,
  });
  const names = receiver.uploads.flatMap((u) => u.body.files.map((f: { filename: string }) => f.filename)).sort();
  assert.deepEqual(names, ['0cz1d0mv5g_q7.js.map', 'copy.js.map', 'orphan.js.map']);
  assert.equal(result.found, 2);
  assert.equal(result.files, 3);
  assert.equal(result.deleted, 2);
  assert.equal(t.exists('out/static/chunks/1-3l1u1ko108j.js.map'), false);
  assert.equal(t.read('out/static/chunks/0cz1d0mv5g_q7.js'), chunkText, 'the script is not changed');
});

test('uploadSourceMaps: the debug ID that sentry-cli sourcemaps inject wrote goes up with its map', async () => {
  const id = '5C4229A9-4EE8-4472-88F5-EE2CFAD08408';
  const t = tree({
    'out/app.js': `throw new Error("x");\n//# debugId=${id}\n//# sourceMappingURL=app.js.map\n`,
    'out/app.js.map': sourceMap('app.js'),
    // No script names this one, but the map carries its own ID (as the bundler plugins write it).
    'out/worker.js.map': JSON.stringify({
      ...JSON.parse(sourceMap('worker.js')),
      debug_id: '0b7c1a52-1b8f-4e2a-9d35-6c1f2e3a4b5c',
    }),
    'out/plain.js.map': sourceMap('plain.js'),
  });
  await uploadSourceMaps({ dir: t.path('out'), release: 'r', dsn: dsn(), authToken: 'etu_t', logger: null });
  const files = receiver.uploads
    .flatMap((u) => u.body.files)
    .sort((a: any, b: any) => a.filename.localeCompare(b.filename));
  assert.deepEqual(
    files.map((f: any) => [f.filename, f.debugId]),
    [
      ['app.js.map', id.toLowerCase()],
      ['plain.js.map', undefined],
      ['worker.js.map', '0b7c1a52-1b8f-4e2a-9d35-6c1f2e3a4b5c'],
    ],
  );
});

test('uploadSourceMaps: the skip path reports what is missing in the result', async () => {
  const t = tree(chunk('out', 'a'));
  const result = await uploadSourceMaps({ dir: t.path('out'), env: { TRACKER_DSN: dsn() }, logger: null });
  assert.equal(result.status, 'skipped');
  assert.deepEqual(result.missing, [
    'TRACKER_AUTH_TOKEN',
    'a release (TRACKER_RELEASE, NEXT_PUBLIC_TRACKER_RELEASE, VERCEL_GIT_COMMIT_SHA)',
  ]);
  assert.equal(result.deleted, 1);
  assert.equal(receiver.uploads.length, 0);
});

test('uploadSourceMaps: a 503 and a reset are retried; the third answer counts', async () => {
  const t = tree(chunk('out', 'a'));
  lines.length = 0;
  receiver.answerNext({ status: 503, body: { error: { code: 'UNAVAILABLE', message: 'restarting' } } }, 'reset');
  const result = await uploadSourceMaps({
    dir: t.path('out'),
    env: { TRACKER_RELEASE: 'r', TRACKER_DSN: dsn(), TRACKER_AUTH_TOKEN: 'etu_t' },
    logger,
    _internal: FAST,
  } as any);
  assert.equal(result.status, 'uploaded');
  assert.equal(receiver.uploads.length, 3);
  assert.match(lines.join('\n'), /HTTP 503 UNAVAILABLE: restarting; retry 1 of 2/);
  assert.match(lines.join('\n'), /could not reach .*; retry 2 of 2/);
});

test('uploadSourceMaps: resets outlasting the retries throw NETWORK and keep the maps', async () => {
  const t = tree(chunk('out', 'a'));
  receiver.answerNext('reset', 'reset', 'reset');
  await assert.rejects(
    uploadSourceMaps({
      dir: t.path('out'),
      env: { TRACKER_RELEASE: 'r', TRACKER_DSN: dsn(), TRACKER_AUTH_TOKEN: 'etu_t' },
      logger: null,
      _internal: FAST,
    } as any),
    (error: unknown) => {
      assert.ok(error instanceof UploadSourceMapsError);
      assert.equal(error.code, 'NETWORK');
      assert.match(error.message, /gave up after 3 attempts.*No source map was deleted/);
      return true;
    },
  );
  assert.equal(receiver.uploads.length, 3);
  assert.equal(t.exists('out/a.js.map'), true);
});

test('uploadSourceMaps: a rejection carries the status and the server code', async () => {
  const t = tree(chunk('out', 'a'));
  receiver.answerNext({
    status: 413,
    body: { error: { code: 'PAYLOAD_TOO_LARGE', message: 'body exceeds the limit of 10 MB' } },
  });
  await assert.rejects(
    uploadSourceMaps({
      dir: t.path('out'),
      env: { TRACKER_RELEASE: 'r', TRACKER_DSN: dsn(), TRACKER_AUTH_TOKEN: 'etu_t' },
      logger: null,
      _internal: FAST,
    } as any),
    (error: any) =>
      error.code == 'REJECTED' &&
      error.status == 413 &&
      error.serverCode == 'PAYLOAD_TOO_LARGE' &&
      /body exceeds the limit of 10 MB/.test(error.message),
  );
  assert.equal(receiver.uploads.length, 1);
  assert.equal(t.exists('out/a.js.map'), true);
});
