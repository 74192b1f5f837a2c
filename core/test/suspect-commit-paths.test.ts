import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isSameSourceFile, sourcePathOf } from '../src/releases/suspect-commits';

describe('suspect commits: a frame path and a commit path name the same file', () => {
  const same = (frame: string, file: string) => isSameSourceFile(sourcePathOf(frame), sourcePathOf(file));

  test('de-minified bundler paths, URLs and absolute paths match the repository-relative path', () => {
    assert.ok(same('webpack://shop/./src/checkout/cart.ts', 'src/checkout/cart.ts'));
    assert.ok(same('webpack:///src/checkout/cart.ts', 'web/src/checkout/cart.ts'), 'a monorepo path ends with it');
    assert.ok(same('app:///src/checkout/cart.ts', 'src/checkout/cart.ts'));
    assert.ok(same('https://cdn.example.com/static/js/main.js?v=3#x', 'public/static/js/main.js'));
    assert.ok(same('/srv/shop/src/checkout/cart.ts', 'src/checkout/cart.ts'));
    assert.ok(same('file:///home/ci/shop/src/cart.ts', 'src/cart.ts'));
    assert.ok(same('C:\\build\\shop\\src\\cart.ts', 'src/cart.ts'));
    assert.ok(same('../src/cart.ts', 'src/cart.ts'));
  });

  test('a name that only shares a tail of characters, another file, or no file does not match', () => {
    assert.ok(!same('/srv/shop/src/checkout/cart.ts', 'art.ts'));
    assert.ok(!same('/srv/shop/src/checkout/cart.ts', 'src/checkout/cart.tsx'));
    assert.ok(!same('/srv/shop/src/checkout/cart.ts', 'src/billing/cart.ts'));
    assert.ok(!same('<anonymous>', 'anonymous'));
    assert.ok(!same('native', 'native'));
    assert.ok(!same('', 'src/cart.ts'));
  });
});
