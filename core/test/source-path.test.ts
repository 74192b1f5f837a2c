import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sourcePathFromMap } from '../src/symbolication';

describe('source paths from maps read as the developer wrote them', () => {
  const cases: Array<[string, string, string]> = [
    ['webpack with a namespace', 'webpack://storefront/./src/app/cart.ts', 'src/app/cart.ts'],
    ['webpack without one', 'webpack:///./src/app/cart.ts', 'src/app/cart.ts'],
    ['webpack without ./', 'webpack:///src/app/cart.ts', 'src/app/cart.ts'],
    ['webpack loader query', 'webpack:///./src/App.vue?4a5b', 'src/App.vue'],
    ["webpack's runtime", 'webpack:///webpack/bootstrap', 'webpack/bootstrap'],
    [
      'webpack dependency',
      'webpack:///./node_modules/react-dom/cjs/react-dom.js',
      'node_modules/react-dom/cjs/react-dom.js',
    ],
    ['webpack in development', 'webpack-internal:///./src/app/cart.ts', 'src/app/cart.ts'],
    ['vite/rollup relative to dist/assets', '../../src/app/cart.ts', 'src/app/cart.ts'],
    ['esbuild relative to dist', '../src/app/cart.ts', 'src/app/cart.ts'],
    ['dot slash', './src/app/cart.ts', 'src/app/cart.ts'],
    ['already plain', 'src/app/cart.ts', 'src/app/cart.ts'],
    ['up a folder inside the path', 'src/app/../lib/money.ts', 'src/lib/money.ts'],
    ['doubled slashes', 'src//app/./cart.ts', 'src/app/cart.ts'],
    [
      "vite's /@fs/ (outside the root)",
      '/@fs/home/ci/shop/packages/ui/button.tsx',
      '/home/ci/shop/packages/ui/button.tsx',
    ],
    ["turbopack's [project]", '[project]/src/app/page.tsx', 'src/app/page.tsx'],
    ['turbopack URL', 'turbopack:///[project]/src/app/page.tsx', 'src/app/page.tsx'],
    ["turbopack's runtime", '[turbopack]/browser/dev/hmr-client.ts', '[turbopack]/browser/dev/hmr-client.ts'],
    ['absolute POSIX path', '/home/ci/shop/src/app/cart.ts', '/home/ci/shop/src/app/cart.ts'],
    ['absolute Windows path', 'C:\\ci\\shop\\src\\app\\cart.ts', 'C:/ci/shop/src/app/cart.ts'],
    ['file URL', 'file:///home/ci/shop/src/app/cart%20item.ts', '/home/ci/shop/src/app/cart item.ts'],
    ['file URL on Windows', 'file:///C:/ci/shop/src/app/cart.ts', 'C:/ci/shop/src/app/cart.ts'],
    ['http URL', 'https://cdn.example.com/src/app/cart.ts', 'https://cdn.example.com/src/app/cart.ts'],
    ['empty', '', ''],
    ['nothing but dots', '../..', '../..'],
  ];
  for (const [what, source, expected] of cases) {
    test(`${what}: ${source || '(empty)'}`, () => {
      assert.equal(sourcePathFromMap(source), expected);
    });
  }

  test('is idempotent, so frames stored before it read the same through it', () => {
    for (const [, source] of cases) {
      const once = sourcePathFromMap(source);
      assert.equal(sourcePathFromMap(once), once, source);
    }
  });
});
