import assert from 'node:assert/strict';
import { test } from 'node:test';
import { strToU8, zipSync } from 'fflate';
import {
  BundleError,
  createDebugIdLookup,
  debugIdOfSource,
  isUnsafeBundlePath,
  MAX_BUNDLE_ENTRIES,
  normalizeDebugId,
  unpackArtifactBundle,
} from '../src';

const WANTED = new Set(['source_map', 'minified_source']);
const manifest = (files: Record<string, object>) => strToU8(JSON.stringify({ files, attributes: { release: 'r1' } }));

test('reads the files the manifest lists, with lowercased headers, and only the wanted types', () => {
  const zip = zipSync({
    'manifest.json': manifest({
      'files/_/_/app.js': {
        type: 'minified_source',
        url: '~/app.js',
        headers: { Sourcemap: 'app.js.map', 'Debug-Id': 'x' },
      },
      'files/_/_/app.js.map': { type: 'source_map', url: '~/app.js.map' },
      'files/_/_/app.ts': { type: 'source', url: '~/app.ts' },
    }),
    'files/_/_/app.js': strToU8('var a=1'),
    'files/_/_/app.js.map': strToU8('{}'),
    'files/_/_/app.ts': strToU8('const a = 1'),
  });
  const bundle = unpackArtifactBundle(zip, WANTED);
  assert.deepEqual(bundle.attributes, { release: 'r1' });
  assert.deepEqual(
    bundle.files.map((f) => [f.type, f.url, f.content, f.headers]),
    [
      ['minified_source', '~/app.js', 'var a=1', { sourcemap: 'app.js.map', 'debug-id': 'x' }],
      ['source_map', '~/app.js.map', '{}', {}],
    ],
  );
});

test('refuses bombs, too many entries, unsafe names and manifests naming missing files, before inflating', () => {
  const refused = (files: Record<string, Uint8Array>, pattern: RegExp) =>
    assert.throws(
      () => unpackArtifactBundle(zipSync(files), WANTED),
      (e: unknown) => e instanceof BundleError && pattern.test(e.message),
    );
  refused({ 'manifest.json': manifest({}), 'big.map': new Uint8Array(8 * 1024 * 1024) }, /expands \d+× .*zip bomb/);
  const many: Record<string, Uint8Array> = { 'manifest.json': manifest({}) };
  for (let i = 0; i <= MAX_BUNDLE_ENTRIES; i++) many[`f${i}`] = new Uint8Array(1);
  refused(many, /more than 5000 entries/);
  refused({ 'manifest.json': manifest({}), '../evil.js': strToU8('x') }, /unsafe entry name/);
  refused(
    { 'manifest.json': manifest({ '../../x.map': { type: 'source_map', url: '~/x.map' } }), a: strToU8('x') },
    /unsafe file name/,
  );
  refused(
    { 'manifest.json': manifest({ 'files/gone.map': { type: 'source_map', url: '~/gone.map' } }) },
    /which the zip lacks/,
  );
  refused({ 'other.json': strToU8('{}') }, /no manifest\.json/);
  assert.throws(() => unpackArtifactBundle(strToU8('not a zip at all'), WANTED), BundleError);
});

test('unsafe bundle paths', () => {
  for (const p of ['/etc/passwd', '../x', 'a/../../x', 'a\\b', 'C:/x', 'a\u0000b', ''])
    assert.equal(isUnsafeBundlePath(p), true, JSON.stringify(p));
  for (const p of ['files/_/_/app.js', 'manifest.json', 'a/..b/c', '_/~/x..js'])
    assert.equal(isUnsafeBundlePath(p), false, p);
});

test('debug IDs: normalized, read from the script comment, and matched to frames by URL', () => {
  assert.equal(normalizeDebugId('5C4229A94EE8447288F5EE2CFAD08408'), '5c4229a9-4ee8-4472-88f5-ee2cfad08408');
  assert.equal(normalizeDebugId('not-an-id'), null);
  assert.equal(
    debugIdOfSource('x\n//# debugId=5c4229a9-4ee8-4472-88f5-ee2cfad08408\n//# sourceMappingURL=app.js.map'),
    '5c4229a9-4ee8-4472-88f5-ee2cfad08408',
  );
  const lookup = createDebugIdLookup([
    { codeFile: 'http://x/app.js?v=1', debugId: 'a' },
    { codeFile: 'http://x/b.js', debugId: 'b' },
  ]);
  assert.equal(lookup('http://x/app.js?v=1'), 'a');
  assert.equal(lookup('http://x/app.js?v=2'), 'a', 'the query cut from both');
  assert.equal(lookup('http://y/app.js'), null, 'never by basename alone');
  assert.equal(lookup('http://x/b.js#frag'), 'b');
});
