import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { MAX_FRAMES, isInAppFilename, parseStack } from '../src/stacktrace';
import type { StackFrame } from '../src/stacktrace';

interface ExpectedFrame {
  filename: string;
  function: string | null;
  lineno: number | null;
  colno: number | null;
}

interface FixtureCase {
  id: string;
  engine: string;
  stack: string;
  frames: ExpectedFrame[];
}

const fixture: { cases: FixtureCase[] } = JSON.parse(readFileSync(join(__dirname, 'fixtures', 'stacks.json'), 'utf8'));

/**
 * Where our parser deliberately differs from the convention a fixture case follows. Each entry
 * derives our expectation from the fixture's, so everything else in the case stays checked.
 */
const DEVIATIONS: Record<string, { why: string; expect: (frames: ExpectedFrame[]) => ExpectedFrame[] }> = {
  'chromium.test.ts:webpack-wrapped-chunk-load-error': {
    // webpack builds this message as `Loading chunk X failed.\n(error: <url>)`; Sentry's parser
    // turns the second message line into a frame. Message lines never become frames here (the
    // failed URL stays readable in the message). The `at (error: (/…js))` line is a frame: kept.
    why: 'the `(error: url)` line belongs to the message',
    expect: (frames) => frames.slice(1),
  },
};

function pick(frame: StackFrame): ExpectedFrame {
  return { filename: frame.filename, function: frame.function, lineno: frame.lineno, colno: frame.colno };
}

describe('parseStack on the fixture stacks', () => {
  test('the fixture still holds its 40 cases', () => {
    assert.equal(fixture.cases.length, 40);
  });

  for (const fixtureCase of fixture.cases) {
    test(`${fixtureCase.id} (${fixtureCase.engine})`, () => {
      const deviation = DEVIATIONS[fixtureCase.id];
      const expected = deviation ? deviation.expect(fixtureCase.frames) : fixtureCase.frames;
      assert.deepEqual(parseStack(fixtureCase.stack).map(pick), expected);
    });
  }

  test('every deviation names a fixture case and still changes its expectation', () => {
    for (const [id, deviation] of Object.entries(DEVIATIONS)) {
      const fixtureCase = fixture.cases.find((candidate) => candidate.id === id);
      assert.ok(fixtureCase, `no fixture case ${id}`);
      assert.notDeepEqual(deviation.expect(fixtureCase.frames), fixtureCase.frames, deviation.why);
    }
  });
});

/**
 * One file per engine in fixtures/stacks: V8 stacks captured on this machine from Node and
 * Chromium (capture-v8.mjs, expected frames from V8's own call sites), and hand-written stacks for
 * engines not available here, each case naming engine and version.
 */
const STACKS_DIR = join(__dirname, 'fixtures', 'stacks');
const ENGINE_FIXTURES = readdirSync(STACKS_DIR)
  .filter((name) => name.endsWith('.json'))
  .map((name) => ({
    name,
    cases: (JSON.parse(readFileSync(join(STACKS_DIR, name), 'utf8')) as { cases: FixtureCase[] }).cases,
  }));

describe('parseStack on every engine format (fixtures/stacks)', () => {
  test('has fixtures for every engine family', () => {
    const names = ENGINE_FIXTURES.map((file) => file.name).sort();
    assert.deepEqual(names, [
      'bun.json',
      'chakra.json',
      'deno.json',
      'hermes.json',
      'javascriptcore.json',
      'presto.json',
      'spidermonkey.json',
      'v8-chromium.json',
      'v8-handwritten.json',
      'v8-node.json',
    ]);
  });

  for (const file of ENGINE_FIXTURES) {
    for (const fixtureCase of file.cases) {
      test(`${file.name} ${fixtureCase.id} (${fixtureCase.engine})`, () => {
        const frames = parseStack(fixtureCase.stack).map(pick);
        // Frame by frame first, so a failure names the line; then the count.
        fixtureCase.frames.forEach((expected, i) => assert.deepEqual(frames[i], expected, `frame ${i}`));
        assert.equal(frames.length, fixtureCase.frames.length);
      });
    }
  }
});

const SOURCE_LINES = readFileSync(__filename, 'utf8').split('\n');
const TEST_FILE = basename(__filename);

/** 1-based line of this file carrying `// <marker>`, so edits above do not break the tests. */
function lineOf(marker: string): number {
  const index = SOURCE_LINES.findIndex((line) => line.trimEnd().endsWith(`// ${marker}`));
  assert.notEqual(index, -1, `marker ${marker} not found`);
  return index + 1;
}

function assertTopFrame(stack: string | undefined, fn: string | null, marker: string): StackFrame[] {
  const frames = parseStack(stack);
  const [top] = frames;
  assert.equal(top.function, fn);
  assert.ok(top.filename.endsWith(TEST_FILE), top.filename);
  assert.equal(top.lineno, lineOf(marker));
  assert.equal(top.inApp, true);
  assertOneFramePerAtLine(stack, frames);
  return frames;
}

/** Node prints exactly one `at` line per frame; anything else is message text. */
function assertOneFramePerAtLine(stack: string | undefined, frames: StackFrame[]): void {
  const atLines = (stack ?? '').split('\n').filter((line) => line.trim().startsWith('at '));
  assert.equal(frames.length, atLines.length);
}

describe('parseStack on stacks captured in this process', () => {
  test('reads a named function', () => {
    function loadUser(): string | undefined {
      return new Error('named').stack; // live:named
    }
    assertTopFrame(loadUser(), 'loadUser', 'live:named');
  });

  test('reads an anonymous arrow as a frame without a function', () => {
    const [stack] = [0].map(() => new Error('arrow').stack); // live:arrow
    assertTopFrame(stack, null, 'live:arrow');
  });

  test('reads a class method with its class name', () => {
    class UserRepository {
      find(): string | undefined {
        return new Error('method').stack; // live:method
      }
    }
    assertTopFrame(new UserRepository().find(), 'UserRepository.find', 'live:method');
  });

  test('reads an async function resumed after an await', async () => {
    async function fetchUser(): Promise<string | undefined> {
      await new Promise((resolve) => setImmediate(resolve));
      return new Error('async').stack; // live:async
    }
    assertTopFrame(await fetchUser(), 'fetchUser', 'live:async');
  });

  test('reads a JSON.parse error: the builtin frame, then the caller in this file', () => {
    let stack: string | undefined;
    try {
      JSON.parse('{"user": '); // live:json
    } catch (error) {
      stack = (error as Error).stack;
    }
    const frames = parseStack(stack);
    assert.deepEqual(pick(frames[0]), { filename: '<anonymous>', function: 'JSON.parse', lineno: null, colno: null });
    assert.ok(frames[1].filename.endsWith(TEST_FILE), frames[1].filename);
    assert.equal(frames[1].lineno, lineOf('live:json'));
    assertOneFramePerAtLine(stack, frames);
  });

  test('marks the test runner and node internals as not in-app', () => {
    const frames = parseStack(new Error('internals').stack);
    const internal = frames.filter((frame) => frame.filename.startsWith('node:'));
    assert.ok(internal.length > 0);
    assert.ok(internal.every((frame) => !frame.inApp));
  });
});

describe('parseStack on runtime-specific frames', () => {
  test('reads constructors, module code, eval, Promise.all and file URLs', () => {
    const stack = [
      'Error: boom',
      '    at new Client (file:///srv/app/src/client.mjs:12:11)',
      '    at eval (eval at load (file:///srv/app/src/loader.mjs:3:1), <anonymous>:1:7)',
      '    at Object.<anonymous> (/srv/app/index.js:5:1)',
      '    at async Promise.all (index 0)',
      '    at async file:///srv/app/src/main.mjs:20:3',
      '    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)',
    ].join('\n');
    assert.deepEqual(parseStack(stack), [
      { filename: 'file:///srv/app/src/client.mjs', function: 'new Client', lineno: 12, colno: 11, inApp: true },
      { filename: 'file:///srv/app/src/loader.mjs', function: 'eval', lineno: 3, colno: 1, inApp: true },
      { filename: '/srv/app/index.js', function: 'Object.<anonymous>', lineno: 5, colno: 1, inApp: true },
      // Promise.all prints its input position, not a source location.
      { filename: 'native', function: 'async Promise.all', lineno: null, colno: null, inApp: false },
      { filename: 'file:///srv/app/src/main.mjs', function: null, lineno: 20, colno: 3, inApp: true },
      {
        filename: 'node:internal/process/task_queues',
        function: 'process.processTicksAndRejections',
        lineno: 95,
        colno: 5,
        inApp: false,
      },
    ]);
  });

  test('reads React Native (Hermes) frames and data: modules in both formats', () => {
    const stack = [
      '    at onPress (address at index.android.bundle:1:2345)',
      '    at run (data:text/javascript,export function run() { throw new Error(1) }:1:30)',
      'run@data:text/javascript,export%20function%20run()%20%7B%7D:1:30',
    ].join('\n');
    assert.deepEqual(parseStack(stack).map(pick), [
      { filename: 'index.android.bundle', function: 'onPress', lineno: 1, colno: 2345 },
      { filename: '<data:text/javascript>', function: 'run', lineno: null, colno: null },
      { filename: '<data:text/javascript>', function: 'run', lineno: null, colno: null },
    ]);
  });

  test('reads Firefox code created by new Function', () => {
    const frames = parseStack(
      'anonymous@http://x.test/a.js line 2 > Function:1:7\n@http://x.test/a.js line 9 > Function:1:1',
    );
    assert.deepEqual(frames.map(pick), [
      { filename: 'http://x.test/a.js', function: 'anonymous', lineno: 2, colno: null },
      { filename: 'http://x.test/a.js', function: 'Function', lineno: 9, colno: null },
    ]);
  });
});

describe('parseStack on hostile or odd input', () => {
  test('returns no frames for null, undefined, empty and non-string input', () => {
    assert.deepEqual(parseStack(null), []);
    assert.deepEqual(parseStack(undefined), []);
    assert.deepEqual(parseStack(''), []);
    assert.deepEqual(parseStack(42 as unknown as string), []);
  });

  test('never turns message lines into frames, even in a multi-line message', () => {
    const stack = [
      'Error: Request failed for user@example.com:25',
      'at least one retry was attempted (attempt 3)',
      'at the moment (data: none)',
      'contact support@example.com:25 or see https://status.example.com/incidents:12',
      'user@example.com:25',
      '    at fetchUser (/srv/app/src/users.js:10:5)',
    ].join('\n');
    assert.deepEqual(parseStack(stack).map(pick), [
      { filename: '/srv/app/src/users.js', function: 'fetchUser', lineno: 10, colno: 5 },
    ]);
  });

  test('skips lines it cannot parse and keeps the frames around them', () => {
    const stack = 'Error: x\n    at a (/app/a.js:1:2)\n\u0000garbage ((( @@@ :::\n    at b (/app/b.js:3:4)\r\n';
    assert.deepEqual(
      parseStack(stack).map((frame) => frame.function),
      ['a', 'b'],
    );
  });

  test(`keeps only the innermost ${MAX_FRAMES} frames`, () => {
    const lines = Array.from({ length: 1000 }, (_, i) => `    at f${i} (/app/deep.js:${i + 1}:1)`);
    const frames = parseStack(`RangeError: too deep\n${lines.join('\n')}`);
    assert.equal(frames.length, MAX_FRAMES);
    assert.equal(frames[0].function, 'f0');
    assert.equal(frames[MAX_FRAMES - 1].function, `f${MAX_FRAMES - 1}`);
  });

  const ONE_MB = 1024 * 1024;
  const hostile: Record<string, string> = {
    'a( repeated': 'a('.repeat(ONE_MB / 2),
    '@ repeated': '@'.repeat(ONE_MB),
    ': repeated': ':'.repeat(ONE_MB),
    'at a( repeated': `at ${'a('.repeat(ONE_MB / 2)}`,
    'at with nested parens': `    at ${'('.repeat(ONE_MB / 2)}${')'.repeat(ONE_MB / 2)}`,
    'at eval chain': `    at x (${'eval at y ('.repeat(ONE_MB / 10)}`,
    'many short junk lines': 'a(@:\n'.repeat(ONE_MB / 5),
  };
  for (const [name, stack] of Object.entries(hostile)) {
    test(`parses a 1 MB line of ${name} in well under a second`, () => {
      const started = performance.now();
      const frames = parseStack(stack);
      const elapsedMs = performance.now() - started;
      assert.ok(Array.isArray(frames));
      assert.ok(elapsedMs < 2000, `took ${elapsedMs} ms`);
    });
  }
});

describe('isInAppFilename', () => {
  const cases: Array<[string, boolean]> = [
    ['native', false],
    ['native code', false],
    ['[native code]', false],
    ['node:internal/modules/cjs/loader', false],
    ['internal/process/task_queues.js', false],
    ['/srv/app/node_modules/express/lib/router.js', false],
    ['C:\\app\\node_modules\\lib\\index.js', false],
    ['webpack:///./node_modules/react-dom/index.js', false],
    ['ext:core/01_core.js', false],
    ['deno:ext/fetch/26_fetch.js', false],
    ['/srv/app/src/internal/users.js', true],
    ['https://cdn.example.com/assets/app.js', true],
    ['<anonymous>', true],
  ];
  for (const [filename, inApp] of cases) {
    test(`${inApp ? 'keeps' : 'excludes'} ${filename}`, () => {
      assert.equal(isInAppFilename(filename), inApp);
    });
  }
});
