import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  MAX_MESSAGE_CHARS,
  MAX_TITLE_CHARS,
  computeCulprit,
  computeGroupingKey,
  computeTitle,
  normalizeFilename,
  normalizeMessage,
} from '../src/grouping';
import type { GroupingInput } from '../src/grouping';
import { parseStack } from '../src/stacktrace';
import type { StackFrame } from '../src/stacktrace';

function frame(filename: string, fn: string | null, lineno: number | null = 1, inApp = true): StackFrame {
  return { filename, function: fn, lineno, colno: lineno === null ? null : 7, inApp };
}

function error(overrides: Partial<GroupingInput> = {}): GroupingInput {
  return {
    type: 'TypeError',
    message: "Cannot read properties of undefined (reading 'id')",
    frames: [
      frame('https://cdn.example.com/assets/main.3f2a1b9c.js', 'renderProfile', 120),
      frame('https://cdn.example.com/assets/main.3f2a1b9c.js', 'loadProfile', 80),
      frame('https://cdn.example.com/assets/vendor.9e8d7c6b.js', 'commitRoot', 9000, false),
    ],
    ...overrides,
  };
}

describe('computeGroupingKey', () => {
  test('returns a hex SHA-256', () => {
    assert.match(computeGroupingKey(error()), /^[0-9a-f]{64}$/);
  });

  test('groups the same error from two deploys with differently hashed bundles and hosts', () => {
    const nextDeploy = error({
      frames: [
        frame('https://cdn2.example.net/assets/main.77aa01bc.js?v=2', 'renderProfile', 131),
        frame('https://cdn2.example.net/assets/main.77aa01bc.js?v=2', 'loadProfile', 85),
        frame('https://cdn2.example.net/assets/vendor.0f1e2d3c.js', 'commitRoot', 9010, false),
      ],
    });
    assert.equal(computeGroupingKey(nextDeploy), computeGroupingKey(error()));
  });

  test('still groups when a named function moved to another line', () => {
    const moved = error();
    moved.frames = moved.frames.map((f) => ({ ...f, lineno: (f.lineno ?? 0) + 40, colno: 1 }));
    assert.equal(computeGroupingKey(moved), computeGroupingKey(error()));
  });

  test('separates anonymous code on different lines, which has nothing but its line', () => {
    const at = (lineno: number) => error({ frames: [frame('/app/src/handlers.js', null, lineno)] });
    assert.notEqual(computeGroupingKey(at(10)), computeGroupingKey(at(90)));
    assert.equal(computeGroupingKey(at(10)), computeGroupingKey(at(10)));
  });

  test('does not group different error types with the same frames', () => {
    assert.notEqual(computeGroupingKey(error({ type: 'RangeError' })), computeGroupingKey(error()));
  });

  test('ignores the message when there are frames', () => {
    assert.equal(computeGroupingKey(error({ message: 'something else' })), computeGroupingKey(error()));
  });

  test('ignores vendor frames when in-app frames exist', () => {
    const otherVendor = error();
    otherVendor.frames = [
      frame('/app/node_modules/react-dom/index.js', 'renderWithHooks', 5, false),
      ...otherVendor.frames.slice(0, 2),
      frame('/app/node_modules/react-dom/index.js', 'workLoop', 77, false),
    ];
    assert.equal(computeGroupingKey(otherVendor), computeGroupingKey(error()));
  });

  test('uses vendor frames when no frame is in-app', () => {
    const vendorOnly = (fn: string) =>
      error({ frames: [frame('node:internal/fs', fn, 1, false), frame('node:internal/x', 'run', 2, false)] });
    assert.notEqual(computeGroupingKey(vendorOnly('readFile')), computeGroupingKey(vendorOnly('open')));
  });

  test('looks at the top five frames only', () => {
    const stack = (sixth: string, fifth = 'e') =>
      error({ frames: ['a', 'b', 'c', 'd', fifth, sixth].map((fn) => frame('/app/src/x.js', fn)) });
    assert.equal(computeGroupingKey(stack('f')), computeGroupingKey(stack('g')));
    assert.notEqual(computeGroupingKey(stack('f', 'e')), computeGroupingKey(stack('f', 'E')));
  });

  test('separates a frame-less error from a framed one with the same type and message', () => {
    assert.notEqual(computeGroupingKey(error({ frames: [] })), computeGroupingKey(error()));
  });

  test('groups frame-less errors whose messages differ only in ids', () => {
    const message = (text: string) => computeGroupingKey(error({ frames: [], type: 'Error', message: text }));
    assert.equal(message('User 1234 not found'), message('User 99 not found'));
    assert.equal(
      message('Order 3f2a1b9c-1234-4abc-8def-0123456789ab failed for ann@example.com'),
      message('Order 00000000-aaaa-4bbb-8ccc-dddddddddddd failed for bob@example.org'),
    );
    assert.notEqual(message('User 1234 not found'), message('User 1234 was deleted'));
  });

  test('cannot collide by concatenating type and message', () => {
    const a = computeGroupingKey(error({ frames: [], type: 'Error', message: 'x failed' }));
    const b = computeGroupingKey(error({ frames: [], type: 'Errorx', message: ' failed' }));
    assert.notEqual(a, b);
    const c = computeGroupingKey(error({ fingerprint: ['ab', 'c'] }));
    assert.notEqual(c, computeGroupingKey(error({ fingerprint: ['a', 'bc'] })));
  });

  test('an explicit fingerprint overrides type, message and frames', () => {
    const byFingerprint = (overrides: Partial<GroupingInput>) =>
      computeGroupingKey(error({ fingerprint: ['payment-gateway', 'timeout'], ...overrides }));
    assert.equal(byFingerprint({ type: 'RangeError', frames: [] }), byFingerprint({}));
    assert.notEqual(byFingerprint({}), computeGroupingKey(error()));
    assert.notEqual(byFingerprint({}), byFingerprint({ fingerprint: ['payment-gateway', 'refused'] }));
  });

  test('`{{ default }}` composes the default key with the other entries', () => {
    const withTenant = (tenant: string, overrides: Partial<GroupingInput> = {}) =>
      computeGroupingKey(error({ fingerprint: ['{{ default }}', tenant], ...overrides }));
    assert.equal(withTenant('acme'), withTenant('acme'));
    assert.notEqual(withTenant('acme'), withTenant('globex'));
    assert.notEqual(withTenant('acme'), withTenant('acme', { type: 'RangeError' }));
    assert.notEqual(withTenant('acme'), computeGroupingKey(error()));
  });

  test('a fingerprint of only `{{ default }}` is the default grouping', () => {
    assert.equal(computeGroupingKey(error({ fingerprint: ['{{ default }}'] })), computeGroupingKey(error()));
  });

  test('a string fingerprint groups exactly as the one-entry array', () => {
    const byString = computeGroupingKey(error({ fingerprint: 'checkout-timeout' }));
    assert.equal(byString, computeGroupingKey(error({ fingerprint: ['checkout-timeout'], message: 'other' })));
    assert.notEqual(byString, computeGroupingKey(error()));
    assert.equal(computeGroupingKey(error({ fingerprint: '{{ default }}' })), computeGroupingKey(error()));
  });

  test('an empty or null fingerprint falls back to the default grouping', () => {
    assert.equal(computeGroupingKey(error({ fingerprint: [] })), computeGroupingKey(error()));
    assert.equal(computeGroupingKey(error({ fingerprint: null })), computeGroupingKey(error()));
  });

  test('groups the same Firefox and Safari stack across deploys once parsed', () => {
    const parse = (hash: string) =>
      parseStack(
        `render@https://app.example.com/static/app.${hash}.js:10:20\n@https://app.example.com/static/app.${hash}.js:99:1`,
      );
    const first = computeGroupingKey(error({ frames: parse('0a1b2c3d4e') }));
    assert.equal(first, computeGroupingKey(error({ frames: parse('9f8e7d6c5b') })));
  });
});

describe('normalizeMessage', () => {
  const cases: Array<[string, string]> = [
    ['User 1234 not found', 'User <num> not found'],
    ['took 12.5 ms', 'took <num> ms'],
    ['job 3F2A1B9C-1234-4ABC-8DEF-0123456789AB expired', 'job <uuid> expired'],
    ['bad pointer 0xDEADBEEF', 'bad pointer <hex>'],
    ['commit 9fceb02d0ae598e95dc970b74767f19372d61af8 missing', 'commit <hex> missing'],
    ['no account for ann.lee+test@mail.example.co.uk', 'no account for <email>'],
    [
      'GET https://api.example.com/v1/users?id=7&token=abc failed',
      'GET https://api.example.com/v<num>/users?<query> failed',
    ],
    ['expired at 2024-05-01T10:20:30.123Z, now 2024-05-02 08:00:00+02:00', 'expired at <timestamp>, now <timestamp>'],
    ['  too   many\n\tspaces  ', 'too many spaces'],
    ['Cannot read properties of undefined', 'Cannot read properties of undefined'],
  ];
  for (const [input, expected] of cases) {
    test(`normalizes ${JSON.stringify(input)}`, () => {
      assert.equal(normalizeMessage(input), expected);
    });
  }

  test(`caps the result at ${MAX_MESSAGE_CHARS} characters`, () => {
    assert.equal(normalizeMessage('x'.repeat(5000)).length, MAX_MESSAGE_CHARS);
    assert.ok(normalizeMessage('word '.repeat(1000)).length <= MAX_MESSAGE_CHARS);
  });

  test('handles a 1 MB hostile message quickly', () => {
    for (const text of ['a.'.repeat(500_000), 'a'.repeat(1_000_000), '://'.repeat(300_000), '1-'.repeat(500_000)]) {
      const started = performance.now();
      normalizeMessage(text);
      assert.ok(performance.now() - started < 2000);
    }
  });
});

describe('normalizeFilename', () => {
  const cases: Array<[string, string]> = [
    ['https://cdn.example.com/assets/app.js', '/assets/app.js'],
    ['https://cdn.example.com/assets/app.js?v=3#top', '/assets/app.js'],
    ['/static/main.3f2a1b9c.js', '/static/main.js'],
    ['/static/chunk-5ZKX7QW2.js', '/static/chunk.js'],
    ['/static/app-a1b2c3d4e5.min.js', '/static/app.min.js'],
    ['/static/vendor.d1cae9cfc9917df88de7.js', '/static/vendor.js'],
    ['/_next/static/chunks/pages/_app-3f2a1b9c0d1e2f3a.js', '/_next/static/chunks/pages/_app.js'],
    ['/assets/index-BwSg4_8d.js', '/assets/index.js'],
    ['examplescheme://examplehost/cd351f7250857e22ceaa.worker.js', '/worker.js'],
    ['C:\\Users\\dev\\app\\src\\file.js', 'C:/Users/dev/app/src/file.js'],
    ['blob:http%3A//localhost%3A8080/abfc40e9-4742-44ed-9dcd-af8f99a29379', '/<uuid>'],
    ['genericDiscoverQuery.tsx?33f8', 'genericDiscoverQuery.tsx'],
    // Normal words and version numbers are not hashes.
    ['/js/react-dom.development.js', '/js/react-dom.development.js'],
    ['/js/jquery-3.6.0.min.js', '/js/jquery-3.6.0.min.js'],
    ['/js/chunk-vendors.js', '/js/chunk-vendors.js'],
    ['/js/app-settings.min.js', '/js/app-settings.min.js'],
    ['/js/i18nUtils.js', '/js/i18nUtils.js'],
    ['/js/deadbeef.js', '/js/deadbeef.js'],
    ['/js/app_bootstrap_initializeLocale_tsx.abcdefg.js', '/js/app_bootstrap_initializeLocale_tsx.abcdefg.js'],
    ['native', 'native'],
    ['<anonymous>', '<anonymous>'],
    ['node:internal/modules/cjs/loader', 'node:internal/modules/cjs/loader'],
  ];
  for (const [input, expected] of cases) {
    test(`${input} → ${expected}`, () => {
      assert.equal(normalizeFilename(input), expected);
    });
  }
});

describe('computeTitle', () => {
  test('joins type and the first line of the message', () => {
    assert.equal(computeTitle('TypeError', 'x is undefined\n    more detail'), 'TypeError: x is undefined');
  });

  test('is just the type when the message is empty', () => {
    assert.equal(computeTitle('TypeError', ''), 'TypeError');
    assert.equal(computeTitle('TypeError', '\nsecond line only'), 'TypeError');
  });

  test('falls back to the message, then to "Error", when the type is empty', () => {
    assert.equal(computeTitle('', 'boom'), 'boom');
    assert.equal(computeTitle('', ''), 'Error');
  });

  test(`cuts long titles to ${MAX_TITLE_CHARS} characters with an ellipsis`, () => {
    const title = computeTitle('Error', 'x'.repeat(500));
    assert.equal(title.length, MAX_TITLE_CHARS);
    assert.ok(title.endsWith('…'));
    assert.equal(computeTitle('Error', 'x'.repeat(193)).length, MAX_TITLE_CHARS);
    assert.ok(!computeTitle('Error', 'x'.repeat(193)).endsWith('…'));
  });
});

describe('computeCulprit', () => {
  test('names the top in-app frame with the tail of its normalized file', () => {
    const frames = [
      frame('/app/node_modules/react-dom/index.js', 'renderWithHooks', 5, false),
      frame('https://cdn.example.com/assets/main.3f2a1b9c.js', 'renderProfile', 120),
    ];
    assert.equal(computeCulprit(frames), 'renderProfile (main.js)');
  });

  test('falls back to the top frame when none is in-app', () => {
    assert.equal(computeCulprit([frame('node:internal/fs/promises', 'open', 1, false)]), 'open (promises)');
  });

  test("skips the runtime's frames for the application frame that called them (an uncaught Node crash)", () => {
    // What Node 20 prints for `JSON.parse('{')` called from an application's handler.
    const frames = parseStack(
      [
        'SyntaxError: Expected property name or \'}\' in JSON at position 1',
        '    at JSON.parse (<anonymous>)',
        '    at readConfig (/srv/app/src/config.js:14:15)',
        '    at Object.<anonymous> (/srv/app/src/main.js:3:1)',
        '    at Module._compile (node:internal/modules/cjs/loader:1554:14)',
      ].join('\n'),
    );
    assert.equal(frames[0].function, 'JSON.parse');
    assert.equal(computeCulprit(frames), 'readConfig (config.js)');
    const onlyRuntime = parseStack('Error: x\n    at JSON.parse (<anonymous>)\n    at node:internal/main:1:1');
    assert.equal(computeCulprit(onlyRuntime), 'JSON.parse (<anonymous>)');
  });

  test('is just the file for anonymous code, and null without frames', () => {
    assert.equal(computeCulprit([frame('/app/src/handlers.js', null, 12)]), 'handlers.js');
    assert.equal(computeCulprit([]), null);
  });
});
