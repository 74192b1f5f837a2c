import assert from 'node:assert/strict';
import { test } from 'node:test';
import { errorMessage } from '@tracker/core';

test('errorMessage: whatever was thrown becomes text, and never throws itself', () => {
  assert.equal(errorMessage(new TypeError('x is undefined')), 'x is undefined');
  assert.equal(errorMessage('connection reset'), 'connection reset');
  assert.equal(errorMessage(undefined), 'undefined');
  assert.equal(errorMessage(null), 'null');
  assert.equal(errorMessage(42), '42');
  assert.equal(errorMessage({ code: 'E' }), '[object Object]');
  assert.equal(errorMessage(Object.create(null)), 'unknown error');
  const hostile = {
    toString() {
      throw new Error('no');
    },
  };
  assert.equal(errorMessage(hostile), 'unknown error');
});
