import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TraceMap, originalPositionFor } from '@jridgewell/trace-mapping';
import { build } from 'esbuild';
import { AppError } from '../src/errors';
import { computeGroupingKey } from '../src/grouping';
import { parseStack, type StackFrame } from '../src/stacktrace';
import { FIELDS, createSegmentIndex, findSegment } from '../src/symbolication/segment-index';
import {
  SEGMENT_BYTES,
  Symbolicator,
  estimateMapBytes,
  frameBasename,
  isPlainMapFilename,
  normalizeMapFilename,
  sourcePathFromMap,
  validateSourceMap,
  type SourceMapKey,
  type SymbolicatedFrame,
} from '../src/symbolication';

const FIXTURE = join(__dirname, 'fixtures', 'symbolication', 'src');
const BUNDLE = 'app.3f9a1c.min.js';

interface Bundle {
  dir: string;
  path: string;
  mapText: string;
  /** err.stack as the minified bundle printed it under plain `node`. */
  stack: string;
}

/** Bundles + minifies the fixture app with esbuild, runs it without source maps, keeps its stack. */
async function buildAndRun(): Promise<Bundle> {
  const dir = mkdtempSync(join(tmpdir(), 'tracker-symbolicate-'));
  const path = join(dir, BUNDLE);
  await build({
    entryPoints: [join(FIXTURE, 'main.ts')],
    bundle: true,
    minify: true,
    sourcemap: true,
    platform: 'node',
    format: 'cjs',
    outfile: path,
    logLevel: 'silent',
  });
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const out = execFileSync(process.execPath, [path], { env, encoding: 'utf8', timeout: 30_000 });
  const { stack } = JSON.parse(out) as { stack: string };
  return { dir, path, mapText: readFileSync(`${path}.map`, 'utf8'), stack };
}

/** 1-based line of the first line of a fixture source containing `text`. */
function lineOf(file: string, text: string): { lineno: number; line: string } {
  const lines = readFileSync(join(FIXTURE, file), 'utf8').split('\n');
  const index = lines.findIndex((l) => l.includes(text));
  assert.notEqual(index, -1, `${text} not in ${file}`);
  return { lineno: index + 1, line: lines[index] };
}

/** A loadMap over an in-memory store keyed like the upload rule (normalizeMapFilename). */
function store(entries: Array<{ projectId?: string; release?: string; filename: string; text: string }>) {
  const maps = new Map<string, string>();
  for (const e of entries) {
    maps.set(`${e.projectId ?? 'p1'}/${e.release ?? '1.0.0'}/${normalizeMapFilename(e.filename)}`, e.text);
  }
  const calls: SourceMapKey[] = [];
  const loadMap = async (key: SourceMapKey) => {
    calls.push(key);
    return maps.get(`${key.projectId}/${key.release}/${key.filename}`) ?? null;
  };
  return { loadMap, calls, maps };
}

function rejectsBadInput(fn: () => unknown, pattern: RegExp): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof AppError, `expected AppError, got ${String(error)}`);
    assert.equal(error.code, 'BAD_USER_INPUT');
    assert.match(error.message, /"app\.js\.map"/);
    assert.match(error.message, pattern);
    return true;
  });
}

/** A tiny valid map: generated 1:1 → `source`:1:1 named `name`, padded to about `size` characters. */
function tinyMap(source: string, name: string, size = 0): string {
  const base = { version: 3, sources: [source], names: [name], mappings: 'AAAAA', sourcesContent: [''] };
  const pad = Math.max(0, size - JSON.stringify(base).length);
  return JSON.stringify({ ...base, sourcesContent: [`function ${name}() {}\n${'/'.repeat(pad)}`] });
}

function frame(
  filename: string,
  fn: string | null = 'a',
  lineno: number | null = 1,
  colno: number | null = 1,
): StackFrame {
  return { filename, function: fn, lineno, colno, inApp: true };
}

describe('symbolicating a real esbuild bundle run in Node', () => {
  let bundle: Bundle;
  let frames: StackFrame[];
  let result: SymbolicatedFrame[];
  let loads: SourceMapKey[];

  before(async () => {
    bundle = await buildAndRun();
    frames = parseStack(bundle.stack);
    // Uploaded as `<bundle>.map`: stored under the bundle's own name.
    const { loadMap, calls } = store([{ filename: `${BUNDLE}.map`, text: bundle.mapText }]);
    loads = calls;
    const symbolicator = new Symbolicator({ maxCacheBytes: 50_000_000, loadMap });
    result = await symbolicator.symbolicate('p1', '1.0.0', frames);
  });

  after(() => {
    if (bundle) rmSync(bundle.dir, { recursive: true, force: true });
  });

  test('the bundle is minified and its stack points into it', () => {
    assert.ok(!readFileSync(bundle.path, 'utf8').includes('lookupPrice'), 'names were minified');
    assert.equal(frames[0].filename, bundle.path);
    assert.equal(frames[0].lineno, 1);
    assert.notEqual(frames[0].function, 'lookupPrice');
  });

  test('maps the throwing frame to prices.ts, its line, column and function', () => {
    const top = result[0];
    const expected = lineOf('prices.ts', 'throw new RangeError');
    assert.match(top.filename, /fixtures\/symbolication\/src\/prices\.ts$/);
    assert.equal(top.lineno, expected.lineno);
    // V8 points at the `new` expression; the map may place it at the statement.
    const throwCol = expected.line.indexOf('throw') + 1;
    const newCol = expected.line.indexOf('new RangeError') + 1;
    assert.ok(top.colno! >= throwCol && top.colno! <= newCol, `colno ${top.colno} not in [${throwCol}, ${newCol}]`);
    assert.equal(top.function, 'lookupPrice');
    assert.equal(top.inApp, true);
  });

  test('maps every frame of the call chain across files', () => {
    const expected = [
      { file: 'prices.ts', fn: 'lookupPrice', line: lineOf('prices.ts', 'throw new RangeError').lineno },
      { file: 'prices.ts', fn: 'priceInCents', line: lineOf('prices.ts', 'lookupPrice(sku)').lineno },
      { file: 'cart.ts', fn: 'lineTotalInCents', line: lineOf('cart.ts', 'priceInCents(item.sku)').lineno },
      { file: 'cart.ts', fn: 'checkout', line: lineOf('cart.ts', 'lineTotalInCents(item)').lineno },
    ];
    expected.forEach((want, i) => {
      assert.ok(result[i].filename.endsWith(`src/${want.file}`), `frame ${i}: ${result[i].filename}`);
      assert.equal(result[i].lineno, want.line, `frame ${i} line`);
      assert.equal(result[i].function, want.fn, `frame ${i} function`);
    });
    // Module scope: mapped to main.ts; its caller is Node's loader, so the printed name stays.
    const entry = result[4];
    assert.ok(entry.filename.endsWith('src/main.ts'));
    assert.equal(entry.lineno, lineOf('main.ts', 'checkout([').lineno);
    assert.equal(entry.function, frames[4].function);
  });

  test('keeps the minified frame beside the original', () => {
    assert.deepEqual(result[0].minified, {
      filename: frames[0].filename,
      function: frames[0].function,
      lineno: frames[0].lineno,
      colno: frames[0].colno,
    });
  });

  test('adds source context from sourcesContent', () => {
    const context = result[0].context!;
    assert.ok(context, 'context present');
    assert.match(context.line, /throw new RangeError\(`No price for \$\{sku\}`\);/);
    assert.equal(context.pre.length, 5);
    assert.match(context.pre[4], /if \(price === undefined\) \{/);
    assert.ok(context.post.length >= 1 && context.post.length <= 5);
    assert.equal(context.post[0].trim(), '}');
  });

  test("leaves Node's own frames unchanged and loads the map once", () => {
    const internal = frames.findIndex((f) => f.filename.startsWith('node:'));
    assert.ok(internal > 0);
    for (let i = internal; i < frames.length; i++) assert.equal(result[i], frames[i]);
    assert.deepEqual(loads, [{ projectId: 'p1', release: '1.0.0', filename: BUNDLE }]);
  });

  test('matches frames whose file is a URL with a query, through an upload named like the bundle', async () => {
    const url = `https://cdn.example.com/assets/${BUNDLE}?v=3#x`;
    const urlFrames = parseStack(bundle.stack.split(bundle.path).join(url));
    assert.equal(urlFrames[0].filename, url);
    const { loadMap } = store([{ filename: BUNDLE, text: bundle.mapText }]);
    const out = await new Symbolicator({ maxCacheBytes: 50_000_000, loadMap }).symbolicate('p1', '1.0.0', urlFrames);
    assert.equal(out[0].function, 'lookupPrice');
    assert.ok(out[0].filename.endsWith('src/prices.ts'));
  });

  test("every column of the bundle maps exactly as trace-mapping's originalPositionFor says", async () => {
    const trace = new TraceMap(bundle.mapText);
    const code = readFileSync(bundle.path, 'utf8').split('\n');
    const { loadMap } = store([{ filename: BUNDLE, text: bundle.mapText }]);
    const s = new Symbolicator({ maxCacheBytes: 50_000_000, loadMap, contextLines: -1 });
    let mapped = 0;
    for (let line = 1; line <= code.length; line++) {
      // One frame per stack: no caller, so the function name is not at stake here.
      for (let col = 1; col <= code[line - 1].length + 1; col++) {
        const [out] = await s.symbolicate('p1', '1.0.0', [frame(bundle.path, 'a', line, col)]);
        const want = originalPositionFor(trace, { line, column: col - 1 });
        if (want.source === null) {
          assert.equal(out.minified, undefined, `${line}:${col} should stay unmapped`);
        } else {
          mapped++;
          assert.deepEqual(
            [out.mapSource ?? out.filename, out.lineno, out.colno],
            [want.source, want.line, want.column + 1],
            `${line}:${col}`,
          );
          assert.equal(out.filename, sourcePathFromMap(want.source));
        }
      }
    }
    assert.ok(mapped > 100);
  });

  test('validateSourceMap accepts the real map', () => {
    const map = validateSourceMap(`${BUNDLE}.map`, bundle.mapText);
    assert.ok('mappings' in map && map.sources.length === 3);
  });

  test('an index map (sections) over the same bundle symbolicates the same way', async () => {
    const inner = JSON.parse(bundle.mapText);
    // The bundle's code placed at line 3 of a concatenated file, after an unrelated 2-line section.
    const other = JSON.parse(tinyMap('other.ts', 'other'));
    const indexMap = {
      version: 3,
      file: BUNDLE,
      sections: [
        { offset: { line: 0, column: 0 }, map: other },
        { offset: { line: 2, column: 0 }, map: inner },
      ],
    };
    const text = JSON.stringify(indexMap);
    assert.ok('sections' in validateSourceMap('app.js.map', text));
    const shifted = frames.map((f) => (f.filename === bundle.path ? { ...f, lineno: f.lineno! + 2 } : f));
    const { loadMap } = store([{ filename: BUNDLE, text }]);
    const out = await new Symbolicator({ maxCacheBytes: 50_000_000, loadMap }).symbolicate('p1', '1.0.0', shifted);
    assert.deepEqual(
      out.slice(0, 5).map((f) => [f.lineno, f.function]),
      result.slice(0, 5).map((f) => [f.lineno, f.function]),
    );
  });
});

describe('validateSourceMap', () => {
  const ok = { version: 3, sources: ['a.ts'], names: ['x'], mappings: 'AAAAA;AACA' };
  const text = (value: unknown) => JSON.stringify(value);

  test('returns the parsed map', () => {
    assert.deepEqual(validateSourceMap('app.js.map', text(ok)), ok);
  });

  test('rejects text that is not JSON', () => {
    rejectsBadInput(() => validateSourceMap('app.js.map', '{"version": 3,'), /not valid JSON/);
    rejectsBadInput(() => validateSourceMap('app.js.map', ''), /not valid JSON/);
  });

  test('rejects JSON that is not a source map', () => {
    rejectsBadInput(() => validateSourceMap('app.js.map', '[]'), /not a source map: expected a JSON object/);
    rejectsBadInput(
      () => validateSourceMap('app.js.map', text({ ...ok, version: 2 })),
      /"version" must be 3 \(got 2\)/,
    );
    rejectsBadInput(() => validateSourceMap('app.js.map', text({ ...ok, mappings: 7 })), /"mappings" must be a string/);
    rejectsBadInput(
      () => validateSourceMap('app.js.map', text({ ...ok, sources: undefined })),
      /"sources" must be an array/,
    );
    rejectsBadInput(() => validateSourceMap('app.js.map', text({ ...ok, sources: [1] })), /"sources" must be an array/);
    rejectsBadInput(() => validateSourceMap('app.js.map', text({ ...ok, names: 'x' })), /"names" must be/);
    rejectsBadInput(() => validateSourceMap('app.js.map', text({ ...ok, sourcesContent: [3] })), /"sourcesContent"/);
  });

  test('rejects mappings that do not decode', () => {
    const bad = (mappings: string, pattern: RegExp, extra: object = {}) =>
      rejectsBadInput(() => validateSourceMap('app.js.map', text({ ...ok, ...extra, mappings })), pattern);
    bad('AAAA!', /invalid mappings: generated line 1, segment 1: invalid character "!"/);
    bad('AAAA;AA', /generated line 2, segment 1: 2 fields \(1, 4 or 5 expected\)/);
    bad('AAAAAA', /more than 5 fields/);
    bad('ACAA', /source index 1 outside "sources" \(1\)/);
    bad('AAAAC', /name index 1 outside "names" \(1\)/);
    bad('AAAg', /cut off/);
    bad('AAAg,AAAA', /cut off before its separator/);
    bad('D', /negative generated column/);
    bad('AADA', /negative original line/);
    bad('AAAAAAAAA', /5 fields|more than 5/);
    bad('AAAA', /source index 0 outside "sources" \(0\)/, { sources: [] });
    bad('gggggggA', /too large/);
  });

  test('accepts empty segments and unsorted columns, as other consumers do', () => {
    assert.doesNotThrow(() => validateSourceMap('app.js.map', text({ ...ok, mappings: ';;KAAA,,DAAA;' })));
  });

  test('index maps: url sections, bad offsets and bad inner maps are rejected', () => {
    const section = (offset: object, map: object = ok) => ({ offset, map });
    rejectsBadInput(
      () =>
        validateSourceMap(
          'app.js.map',
          text({ version: 3, sections: [{ offset: { line: 0, column: 0 }, url: 'x.map' }] }),
        ),
      /section 0\): sections with "url" are not supported/,
    );
    rejectsBadInput(
      () => validateSourceMap('app.js.map', text({ version: 3, sections: [section({ line: -1, column: 0 })] })),
      /"offset" must be/,
    );
    rejectsBadInput(
      () =>
        validateSourceMap(
          'app.js.map',
          text({ version: 3, sections: [section({ line: 3, column: 0 }), section({ line: 1, column: 0 })] }),
        ),
      /offsets must ascend/,
    );
    rejectsBadInput(
      () =>
        validateSourceMap(
          'app.js.map',
          text({ version: 3, sections: [section({ line: 0, column: 0 }, { ...ok, mappings: '!' })] }),
        ),
      /invalid mappings \(section 0\)/,
    );
  });
});

describe('map filenames', () => {
  test('isPlainMapFilename accepts bare basenames only', () => {
    for (const name of ['main.abc123.js.map', 'app.js', 'chunk-5c1f2a9e.mjs.map', 'vendor~react.js']) {
      assert.equal(isPlainMapFilename(name), true, name);
    }
    for (const name of [
      '',
      'dist/app.js.map',
      'a\\b.js',
      '..',
      '../app.js',
      'app..js',
      '.',
      '.map',
      ' app.js',
      'a\nb',
      'x'.repeat(256),
    ]) {
      assert.equal(isPlainMapFilename(name), false, JSON.stringify(name));
    }
    assert.equal(isPlainMapFilename(42), false);
  });

  test('uploads are stored under the minified file name', () => {
    assert.equal(normalizeMapFilename('app.js.map'), 'app.js');
    assert.equal(normalizeMapFilename('app.js'), 'app.js');
  });

  test('frameBasename takes the last path segment without query or hash', () => {
    assert.equal(frameBasename('https://cdn.example.com/assets/app.js?v=1#top'), 'app.js');
    assert.equal(frameBasename('/srv/app/dist/server.js'), 'server.js');
    assert.equal(frameBasename('C:\\app\\dist\\main.js'), 'main.js');
    assert.equal(frameBasename('app://bundle.js'), 'bundle.js');
    for (const f of ['native', '<anonymous>', '[native code]', 'node:internal/x.js', 'https://example.com/', '']) {
      assert.equal(frameBasename(f), null, f);
    }
  });
});

describe('Symbolicator', () => {
  test('unmatched frames, events without a release and releases without maps come back unchanged', async () => {
    const { loadMap, calls } = store([{ filename: 'app.js.map', text: tinyMap('src/app.ts', 'original') }]);
    const s = new Symbolicator({ maxCacheBytes: 1_000_000, loadMap });
    const input = [
      frame('https://x.test/other.js'),
      frame('https://x.test/app.js', 'a', 1, null),
      frame('native', null, null, null),
      frame('https://x.test/app.js', 'a', 9, 1), // beyond the map's lines
    ];
    assert.deepEqual(await s.symbolicate('p1', '1.0.0', input), input);
    assert.deepEqual(await s.symbolicate('p1', null, [frame('https://x.test/app.js')]), [
      frame('https://x.test/app.js'),
    ]);
    assert.deepEqual(await s.symbolicate('p1', '', [frame('https://x.test/app.js')]), [frame('https://x.test/app.js')]);
    assert.deepEqual(await s.symbolicate('p1', '2.0.0', [frame('https://x.test/app.js')]), [
      frame('https://x.test/app.js'),
    ]);
    assert.deepEqual(await s.symbolicate('p2', '1.0.0', [frame('https://x.test/app.js')]), [
      frame('https://x.test/app.js'),
    ]);
    // No release: loadMap never asked.
    assert.ok(calls.every((c) => c.release !== '' && c.release !== null));
  });

  test('a matched frame maps through a tiny map', async () => {
    const { loadMap } = store([{ filename: 'app.js', text: tinyMap('src/app.ts', 'original') }]);
    const s = new Symbolicator({ maxCacheBytes: 1_000_000, loadMap });
    const [out] = await s.symbolicate('p1', '1.0.0', [frame('https://x.test/app.js', 'a')]);
    // The outermost frame has no caller: it keeps its printed name.
    assert.deepEqual(
      { ...out, context: undefined },
      {
        filename: 'src/app.ts',
        function: 'a',
        lineno: 1,
        colno: 1,
        inApp: true,
        minified: { filename: 'https://x.test/app.js', function: 'a', lineno: 1, colno: 1 },
        context: undefined,
      },
    );
    assert.deepEqual(out.context, { pre: [], line: 'function original() {}', post: [''] });
  });

  test('a mapped frame has context and mapSource exactly when there is one, fields in one order', async () => {
    const noContent = (source: string) =>
      JSON.stringify({ version: 3, sources: [source], names: ['o'], mappings: 'AAAAA' });
    const { loadMap } = store([
      { filename: 'both.js', text: tinyMap('webpack:///./src/both.ts', 'o') },
      { filename: 'context.js', text: tinyMap('src/context.ts', 'o') },
      { filename: 'source.js', text: noContent('webpack:///./src/source.ts') },
      { filename: 'neither.js', text: noContent('src/neither.ts') },
    ]);
    const s = new Symbolicator({ maxCacheBytes: 1_000_000, loadMap });
    const keys = async (file: string) =>
      Object.keys((await s.symbolicate('p1', '1.0.0', [frame(`https://x.test/${file}`)]))[0]);
    const base = ['filename', 'function', 'lineno', 'colno', 'inApp', 'minified'];
    assert.deepEqual(await keys('both.js'), [...base, 'context', 'mapSource']);
    assert.deepEqual(await keys('context.js'), [...base, 'context']);
    assert.deepEqual(await keys('source.js'), [...base, 'mapSource']);
    assert.deepEqual(await keys('neither.js'), base);
    const [out] = await s.symbolicate('p1', '1.0.0', [frame('https://x.test/both.js')]);
    assert.equal(out.filename, 'src/both.ts');
    assert.equal(out.mapSource, 'webpack:///src/both.ts');
  });

  test('negative cache: a release without maps asks loadMap once per file, until the TTL ends', async () => {
    let now = 1_000;
    const { loadMap, calls } = store([]);
    const s = new Symbolicator({ maxCacheBytes: 1_000_000, loadMap, negativeTtlMs: 30_000, now: () => now });
    const stack = Array.from({ length: 20 }, (_, i) => frame(i % 2 ? 'https://x.test/a.js' : 'https://x.test/b.js'));
    for (let i = 0; i < 5; i++) await s.symbolicate('p1', '9.9.9', stack);
    assert.equal(calls.length, 2);
    now += 29_999;
    await s.symbolicate('p1', '9.9.9', stack);
    assert.equal(calls.length, 2);
    now += 2;
    await s.symbolicate('p1', '9.9.9', stack);
    assert.equal(calls.length, 4);
  });

  test('concurrent lookups of one key share one load', async () => {
    let release!: (text: string) => void;
    let loads = 0;
    const s = new Symbolicator({
      maxCacheBytes: 1_000_000,
      loadMap: () => {
        loads++;
        return new Promise<string>((resolve) => (release = resolve));
      },
    });
    const runs = Array.from({ length: 10 }, () => s.symbolicate('p1', '1.0.0', [frame('https://x.test/app.js')]));
    await new Promise((r) => setImmediate(r));
    assert.equal(loads, 1);
    release(tinyMap('src/app.ts', 'original'));
    for (const out of await Promise.all(runs)) assert.equal(out[0].filename, 'src/app.ts');
    await s.symbolicate('p1', '1.0.0', [frame('https://x.test/app.js')]);
    assert.equal(loads, 1);
  });

  test('the cache is bounded by maxCacheBytes: least recently used maps are evicted and loaded again', async () => {
    const entries = Array.from({ length: 10 }, (_, i) => ({
      filename: `f${i}.js.map`,
      text: tinyMap(`src/f${i}.ts`, `f${i}`, 10_000),
    }));
    const { loadMap, calls } = store(entries);
    // Room for three maps (each ~10 KB of text plus one segment).
    const s = new Symbolicator({ maxCacheBytes: 35_000, loadMap });
    for (let i = 0; i < 10; i++) await s.symbolicate('p1', '1.0.0', [frame(`https://x.test/f${i}.js`)]);
    assert.equal(calls.length, 10);
    assert.ok(s.stats.bytes <= 35_000, `bytes ${s.stats.bytes}`);
    assert.equal(s.stats.entries, 3);
    assert.equal(s.stats.evictions, 7);
    // f9 is cached; f0 was evicted and is loaded again.
    await s.symbolicate('p1', '1.0.0', [frame('https://x.test/f9.js')]);
    assert.equal(calls.length, 10);
    const [again] = await s.symbolicate('p1', '1.0.0', [frame('https://x.test/f0.js')]);
    assert.equal(calls.length, 11);
    assert.equal(again.filename, 'src/f0.ts');
    // Recency counts, not load order: touch f8, load f1; f7 (oldest) goes, f8 stays.
    await s.symbolicate('p1', '1.0.0', [frame('https://x.test/f8.js')]);
    await s.symbolicate('p1', '1.0.0', [frame('https://x.test/f1.js')]);
    assert.equal(calls.length, 12);
    await s.symbolicate('p1', '1.0.0', [frame('https://x.test/f8.js')]);
    assert.equal(calls.length, 12);
    await s.symbolicate('p1', '1.0.0', [frame('https://x.test/f9.js')]);
    assert.equal(calls.length, 13);
  });

  test('a map larger than the whole budget is used but not kept', async () => {
    const { loadMap, calls } = store([{ filename: 'big.js', text: tinyMap('src/big.ts', 'big', 5_000) }]);
    const s = new Symbolicator({ maxCacheBytes: 1_000, loadMap });
    const [out] = await s.symbolicate('p1', '1.0.0', [frame('https://x.test/big.js')]);
    assert.equal(out.filename, 'src/big.ts');
    await s.symbolicate('p1', '1.0.0', [frame('https://x.test/big.js')]);
    assert.equal(calls.length, 2);
    assert.equal(s.stats.entries, 0);
  });

  test('invalidate forgets one file or a whole release, and a load in flight is not cached', async () => {
    const { loadMap, calls, maps } = store([
      { filename: 'a.js', text: tinyMap('src/a.ts', 'a1') },
      { filename: 'b.js', text: tinyMap('src/b.ts', 'b1') },
    ]);
    const s = new Symbolicator({ maxCacheBytes: 1_000_000, loadMap });
    const both = [frame('https://x.test/a.js'), frame('https://x.test/b.js')];
    await s.symbolicate('p1', '1.0.0', both);
    assert.equal(calls.length, 2);
    // A new upload replaces a.js (uploaded as a.js.map).
    maps.set('p1/1.0.0/a.js', tinyMap('src/a-v2.ts', 'a2'));
    s.invalidate('p1', '1.0.0', 'a.js.map');
    const out = await s.symbolicate('p1', '1.0.0', both);
    assert.equal(out[0].filename, 'src/a-v2.ts');
    assert.equal(out[1].filename, 'src/b.ts');
    assert.equal(calls.length, 3);
    s.invalidate('p1', '1.0.0');
    await s.symbolicate('p1', '1.0.0', both);
    assert.equal(calls.length, 5);
    // Negative entries are forgotten too: an upload after events without maps is seen at once.
    await s.symbolicate('p1', '1.0.0', [frame('https://x.test/c.js')]);
    maps.set('p1/1.0.0/c.js', tinyMap('src/c.ts', 'c'));
    s.invalidate('p1', '1.0.0', 'c.js');
    const [c] = await s.symbolicate('p1', '1.0.0', [frame('https://x.test/c.js')]);
    assert.equal(c.filename, 'src/c.ts');

    // In flight: the callers get the old map, the cache does not keep it.
    let finish!: (text: string) => void;
    let slowLoads = 0;
    const slow = new Symbolicator({
      maxCacheBytes: 1_000_000,
      loadMap: () => {
        slowLoads++;
        return new Promise<string>((resolve) => (finish = resolve));
      },
    });
    const running = slow.symbolicate('p1', '1.0.0', [frame('https://x.test/a.js')]);
    await new Promise((r) => setImmediate(r));
    slow.invalidate('p1', '1.0.0', 'a.js');
    finish(tinyMap('src/old.ts', 'old'));
    assert.equal((await running)[0].filename, 'src/old.ts');
    assert.equal(slow.stats.entries, 0);
    const again = slow.symbolicate('p1', '1.0.0', [frame('https://x.test/a.js')]);
    await new Promise((r) => setImmediate(r));
    assert.equal(slowLoads, 2);
    finish(tinyMap('src/new.ts', 'new'));
    assert.equal((await again)[0].filename, 'src/new.ts');
  });

  test('a failing loadMap rejects and caches nothing; a bad stored map counts as no map', async () => {
    let fail = true;
    const s = new Symbolicator({
      maxCacheBytes: 1_000_000,
      loadMap: async () => {
        if (fail) throw new Error('database down');
        return tinyMap('src/app.ts', 'x');
      },
    });
    await assert.rejects(s.symbolicate('p1', '1.0.0', [frame('https://x.test/app.js')]), /database down/);
    fail = false;
    assert.equal((await s.symbolicate('p1', '1.0.0', [frame('https://x.test/app.js')]))[0].filename, 'src/app.ts');

    const invalid: Array<[SourceMapKey, Error]> = [];
    let loads = 0;
    const broken = new Symbolicator({
      maxCacheBytes: 1_000_000,
      loadMap: async () => {
        loads++;
        return '{"version": 3, "sources": [], "mappings": "!"}';
      },
      onInvalidMap: (key, error) => invalid.push([key, error]),
    });
    const input = [frame('https://x.test/app.js')];
    assert.deepEqual(await broken.symbolicate('p1', '1.0.0', input), input);
    await broken.symbolicate('p1', '1.0.0', input);
    assert.equal(loads, 1);
    assert.equal(invalid.length, 1);
    assert.match(invalid[0][1].message, /invalid mappings/);
  });

  test('frames on one line share a frozen context; a long line is cut per frame', async () => {
    const long = `${'x'.repeat(300)}HERE${'y'.repeat(300)}`;
    const content = ['a', 'b', 'short line', long, 'c'].join('\n');
    // generated 1:1 → 3:1 (short line), generated 1:11 → 4:301 (long line).
    const text = JSON.stringify({
      version: 3,
      sources: ['s.ts'],
      names: [],
      mappings: 'AAEA,UAC4S',
      sourcesContent: [content],
    });
    const s = new Symbolicator({ maxCacheBytes: 1_000_000, loadMap: async () => text });
    const [a, b] = await Promise.all([
      s.symbolicate('p1', '1.0.0', [frame('https://x.test/s.js', 'a', 1, 1)]),
      s.symbolicate('p1', '1.0.0', [frame('https://x.test/s.js', 'b', 1, 5)]),
    ]);
    assert.equal(a[0].context, b[0].context);
    assert.ok(Object.isFrozen(a[0].context) && Object.isFrozen(a[0].context!.pre));
    assert.deepEqual(a[0].context, { pre: ['a', 'b'], line: 'short line', post: [long.slice(0, 200), 'c'] });
    const [l1] = await s.symbolicate('p1', '1.0.0', [frame('https://x.test/s.js', 'a', 1, 11)]);
    assert.equal(l1.lineno, 4);
    assert.ok(l1.context!.line.includes('HERE'));
    assert.deepEqual(l1.context!.pre, ['a', 'b', 'short line']);
    assert.deepEqual(JSON.parse(JSON.stringify(l1)).context.post, ['c']);
  });

  test('context lines are cut, the frame line around its column', async () => {
    const long = `${'x'.repeat(300)}HERE${'y'.repeat(300)}`;
    const content = ['short', 'z'.repeat(500), long, 'after'].join('\n');
    // generated 1:1 → line 3 (index 2), column 300.
    const text = JSON.stringify({
      version: 3,
      sources: ['s.ts'],
      names: [],
      mappings: 'AAE4S',
      sourcesContent: [content],
    });
    const s = new Symbolicator({ maxCacheBytes: 1_000_000, loadMap: async () => text, contextLines: 2 });
    const [out] = await s.symbolicate('p1', '1.0.0', [frame('https://x.test/s.js')]);
    assert.equal(out.lineno, 3);
    assert.equal(out.colno, 301);
    assert.deepEqual(out.context!.pre, ['short', 'z'.repeat(200)]);
    assert.equal(out.context!.line.length, 200);
    assert.ok(out.context!.line.includes('HERE'));
    assert.deepEqual(out.context!.post, ['after']);
  });
});

describe('packed segments (segment-index.ts)', () => {
  /** Seeded PRNG (Park–Miller): the same synthetic map every run. */
  function random(seed: number): () => number {
    let state = seed;
    return () => (state = (state * 16807) % 2147483647) / 2147483647;
  }

  test("findSegment answers every position as trace-mapping's originalPositionFor does", () => {
    const next = random(7);
    const int = (n: number) => Math.floor(next() * n);
    // Lines with no segments, one-field segments, repeated columns (the first wins) and names.
    const lines: number[][][] = [];
    for (let l = 0; l < 40; l++) {
      const line: number[][] = [];
      let column = int(3);
      const count = l % 7 === 3 ? 0 : int(60);
      for (let i = 0; i < count; i++) {
        const kind = int(10);
        if (kind === 0) line.push([column]);
        else if (kind < 5) line.push([column, int(3), int(500), int(80)]);
        else line.push([column, int(3), int(500), int(80), int(20)]);
        if (int(4) !== 0) column += 1 + int(6);
      }
      lines.push(line);
    }
    const names = Array.from({ length: 20 }, (_, i) => `name${i}`);
    const sources = ['a.ts', 'b.ts', 'c.ts'];
    const trace = new TraceMap({ version: 3, sources, names, mappings: lines as never });
    const index = createSegmentIndex(lines);
    let mapped = 0;
    for (let l = 0; l < lines.length + 2; l++) {
      for (let column = 0; column < 400; column++) {
        const want = originalPositionFor(trace, { line: l + 1, column });
        const at = findSegment(index, l, column);
        if (want.source === null) {
          assert.equal(at, -1, `${l}:${column}`);
          continue;
        }
        mapped++;
        assert.notEqual(at, -1, `${l}:${column}`);
        const f = index.fields.subarray(at * FIELDS, at * FIELDS + FIELDS);
        assert.deepEqual(
          [sources[f[0]], f[1] + 1, f[2], f[3] === -1 ? null : names[f[3]]],
          [want.source, want.line, want.column, want.name],
          `${l}:${column}`,
        );
      }
    }
    assert.ok(mapped > 1000, `only ${mapped} mapped positions`);
  });

  /** Base64 VLQ of one signed value, as source maps encode fields. */
  function vlq(value: number): string {
    const digits = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    let rest = value < 0 ? (-value << 1) | 1 : value << 1;
    let out = '';
    do {
      let digit = rest & 31;
      rest >>>= 5;
      if (rest > 0) digit |= 32;
      out += digits[digit];
    } while (rest > 0);
    return out;
  }

  test('a map decoded straight into packed form answers as trace-mapping does, unsorted lines included', async () => {
    const next = random(11);
    const int = (n: number) => Math.floor(next() * n);
    // Encoded by hand: columns go backwards now and then (the line must be sorted, stably, as
    // trace-mapping sorts it), repeat, and some segments have one field or no name.
    const lines: string[] = [];
    const previous = [0, 0, 0, 0];
    for (let l = 0; l < 30; l++) {
      const parts: string[] = [];
      let column = 0;
      const count = l % 9 === 4 ? 0 : int(40);
      for (let i = 0; i < count; i++) {
        const to = Math.max(0, column + (int(5) === 0 ? -int(20) : int(8)));
        let part = vlq(to - column);
        column = to;
        const kind = int(10);
        if (kind > 0) {
          const fields = [int(3), int(300), int(80)];
          part += vlq(fields[0] - previous[0]) + vlq(fields[1] - previous[1]) + vlq(fields[2] - previous[2]);
          [previous[0], previous[1], previous[2]] = fields;
          if (kind > 4) {
            const name = int(12);
            part += vlq(name - previous[3]);
            previous[3] = name;
          }
        }
        parts.push(part);
      }
      lines.push(parts.join(','));
    }
    const text = JSON.stringify({
      version: 3,
      sources: ['a.ts', 'b.ts', 'c.ts'],
      names: Array.from({ length: 12 }, (_, i) => `name${i}`),
      mappings: lines.join(';'),
    });
    const trace = new TraceMap(text);
    const s = new Symbolicator({ maxCacheBytes: 1_000_000, loadMap: async () => text, contextLines: -1 });
    let mapped = 0;
    for (let line = 1; line <= lines.length + 1; line++) {
      for (let col = 1; col <= 300; col++) {
        const [out] = await s.symbolicate('p1', '1.0.0', [frame('https://x.test/app.js', 'a', line, col)]);
        const want = originalPositionFor(trace, { line, column: col - 1 });
        if (want.source === null) {
          assert.equal(out.minified, undefined, `${line}:${col} should stay unmapped`);
        } else {
          mapped++;
          assert.deepEqual(
            [out.mapSource ?? out.filename, out.lineno, out.colno],
            [want.source, want.line, want.column + 1],
            `${line}:${col}`,
          );
          assert.equal(out.filename, sourcePathFromMap(want.source));
        }
      }
    }
    assert.ok(mapped > 1000, `only ${mapped} mapped positions`);
  });

  test('the cache counts a map as its text plus SEGMENT_BYTES per packed segment', async () => {
    // Three generated lines: 2 segments, none, 1 one-field segment.
    const text = JSON.stringify({ version: 3, sources: ['s.ts'], names: ['n'], mappings: 'AAAAA,EAAE;;A' });
    const s = new Symbolicator({ maxCacheBytes: 1_000_000, loadMap: async () => text, contextLines: -1 });
    await s.symbolicate('p1', '1.0.0', [frame('https://x.test/s.js')]);
    assert.equal(SEGMENT_BYTES, 20);
    assert.equal(s.stats.bytes, estimateMapBytes(text.length, 3));
    assert.equal(s.stats.bytes, text.length + 60);
  });
});

describe('paths of de-minified frames', () => {
  test('read as the developer wrote them, while grouping keeps the map\'s own spelling', async () => {
    const { loadMap } = store([{ filename: 'app.js.map', text: tinyMap('webpack:///./src/app/cart.ts', 'addItem') }]);
    const symbolicator = new Symbolicator({ maxCacheBytes: 1_000_000, loadMap });
    const [top] = await symbolicator.symbolicate('p1', '1.0.0', [frame('https://shop.example/app.js')]);
    assert.equal(top.filename, 'src/app/cart.ts');
    // As trace-mapping resolves it (the `./` goes): the spelling grouping has always read.
    assert.equal(top.mapSource, 'webpack:///src/app/cart.ts');
    // The key an issue got before paths were tidied, from a frame that named the map's source.
    const before = computeGroupingKey({
      type: 'Error',
      message: 'm',
      frames: [{ ...top, filename: 'webpack:///src/app/cart.ts', mapSource: undefined }],
    });
    assert.equal(computeGroupingKey({ type: 'Error', message: 'm', frames: [top] }), before);
  });

  test('a source already plain carries no second spelling', async () => {
    const { loadMap } = store([{ filename: 'app.js.map', text: tinyMap('src/app/cart.ts', 'addItem') }]);
    const symbolicator = new Symbolicator({ maxCacheBytes: 1_000_000, loadMap });
    const [top] = await symbolicator.symbolicate('p1', '1.0.0', [frame('https://shop.example/app.js')]);
    assert.equal(top.filename, 'src/app/cart.ts');
    assert.equal('mapSource' in top, false);
  });
});
