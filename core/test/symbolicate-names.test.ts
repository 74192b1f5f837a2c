import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Script, createContext } from 'node:vm';
import { build } from 'esbuild';
import { parseStack, type StackFrame } from '../src/stacktrace';
import { Symbolicator, type SymbolicatedFrame } from '../src/symbolication';
import { collectFunctionScopes, enclosingFunctionName } from '../src/symbolication/scope-names';
import { minifiedFiles } from '../src/events/group-across-maps';

const FIXTURE = join(__dirname, 'fixtures', 'symbolication', 'ui');
const URL = 'https://cdn.example.com/assets/ui.5ZKX7QW2.min.js';

interface Fixture {
  onCheckoutClick(event: { target: string }): void;
  toolbar: { press(count: number): void };
}

/** Bundles and minifies the fixture with esbuild, as a browser bundle served from a CDN. */
async function bundle(): Promise<{ code: string; map: string }> {
  const out = await build({
    entryPoints: [join(FIXTURE, 'entry.ts')],
    bundle: true,
    minify: true,
    sourcemap: 'external',
    format: 'iife',
    write: false,
    outfile: join(FIXTURE, 'ui.min.js'),
    logLevel: 'silent',
  });
  const code = out.outputFiles.find((f) => f.path.endsWith('.js'))!.text;
  const map = out.outputFiles.find((f) => f.path.endsWith('.map'))!.text;
  return { code, map };
}

/** Runs the bundle under the CDN URL and returns the stack of what `call` throws. */
function stackOf(code: string, call: (fixture: Fixture) => void): StackFrame[] {
  const context = createContext({});
  new Script(code, { filename: URL }).runInContext(context);
  try {
    call(context.trackerFixture as Fixture);
  } catch (error) {
    return parseStack((error as Error).stack);
  }
  throw new Error('the fixture did not throw');
}

describe('original function names of every frame of a minified bundle', () => {
  let code: string;
  let symbolicator: Symbolicator;

  before(async () => {
    const built = await bundle();
    code = built.code;
    assert.ok(!code.includes('chargeCard') && !code.includes('submitOrder'), 'names were minified');
    symbolicator = new Symbolicator({ maxCacheBytes: 10_000_000, loadMap: async () => built.map });
  });

  /** The frames of the bundle, original names, innermost first. */
  async function names(call: (fixture: Fixture) => void): Promise<string[]> {
    const frames = stackOf(code, call);
    const out: SymbolicatedFrame[] = await symbolicator.symbolicate('p1', '1.0.0', frames);
    return out.filter((f) => f.minified !== undefined).map((f) => f.function ?? '<none>');
  }

  test('a three-deep chain called from outside the bundle: the outermost frame named from its source', async () => {
    const frames = stackOf(code, (f) => f.onCheckoutClick({ target: 'pay' }));
    const outer = frames.filter((f) => f.filename === URL).at(-1)!;
    assert.notEqual(outer.function, 'onCheckoutClick', 'V8 printed a minified name');
    assert.deepEqual(await names((f) => f.onCheckoutClick({ target: 'pay' })), [
      'chargeCard',
      'submitOrder',
      'onCheckoutClick',
    ]);
  });

  test('a class method as the outermost frame is named with its class', async () => {
    assert.deepEqual(await names((f) => f.toolbar.press(2)), ['chargeCard', 'submitOrder', 'Toolbar.press']);
  });
});

describe('function scopes of a source', () => {
  const source = [
    'export function outer() {', // 0
    '  const inner = () => {', // 1
    '    items.forEach((x) => use(x));', // 2
    '  };', // 3
    '  return inner;', // 4
    '}', // 5
    'class Cart { add(item: string) { return item; } #drop() {} }', // 6
    'window.onSave = function () { save(); };', // 7
    'const broken = (', // 8: a syntax error the parser recovers from, or gives up on
  ].join('\n');

  test('names the innermost function holding a position, and null in an anonymous callback', () => {
    const scopes = collectFunctionScopes('src/app.ts', source.split('\n').slice(0, 8).join('\n'))!;
    assert.ok(scopes);
    assert.equal(enclosingFunctionName(scopes, 0, 20), 'outer');
    assert.equal(enclosingFunctionName(scopes, 4, 4), 'outer');
    assert.equal(enclosingFunctionName(scopes, 1, 25), 'inner');
    assert.equal(enclosingFunctionName(scopes, 2, 28), null);
    assert.equal(enclosingFunctionName(scopes, 6, 35), 'Cart.add');
    assert.equal(enclosingFunctionName(scopes, 7, 32), 'onSave');
    assert.equal(enclosingFunctionName(scopes, 6, 2), null, 'module scope');
  });

  test('never throws on a source it cannot parse, and skips sources over the size cap', () => {
    assert.doesNotThrow(() => collectFunctionScopes('src/app.ts', source));
    assert.equal(collectFunctionScopes('src/big.js', 'x'.repeat(300 * 1024)), null);
    assert.equal(collectFunctionScopes('src/bad.js', '}}}{{{ <<<'), null);
  });
});

describe('which files look minified (decision 042)', () => {
  const at = (filename: string, fn: string | null, colno: number, inApp = true): StackFrame => ({
    filename,
    function: fn,
    lineno: 1,
    colno,
    inApp,
  });

  test('a .min. file, a column past 300, or two minifier names; one entry per file, in stack order', () => {
    const frames = [
      at('https://cdn.example.com/app.min.js?v=2', 'handle', 10),
      at('/srv/dist/main.js', 'u', 132),
      at('/srv/dist/main.js', 'Object.r [as save]', 61),
      at('/srv/dist/vendor.js', 'render', 4_000),
      at('/srv/src/server.js', 'db', 12),
      at('/srv/src/server.js', 'handleRequest', 40),
      at('/srv/node_modules/lib/index.min.js', 'x', 1, false),
    ];
    assert.deepEqual(
      minifiedFiles(frames).map((f) => f.filename),
      ['https://cdn.example.com/app.min.js?v=2', '/srv/dist/main.js', '/srv/dist/vendor.js'],
    );
  });

  test('hand-written code does not look minified', () => {
    assert.deepEqual(minifiedFiles(parseStack(NODE_STACK)), []);
  });
});

const NODE_STACK = `Error: boom
    at readConfig (/srv/app/src/config.js:14:15)
    at go (/srv/app/src/main.js:3:1)
    at Object.<anonymous> (/srv/app/src/main.js:9:1)`;
