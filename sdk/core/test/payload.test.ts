import assert from 'node:assert/strict';
import { webcrypto } from 'node:crypto';
import { test } from 'node:test';
import { createEventId, normalizeThrown } from '../src/index';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test('event ids are UUID v4, with and without crypto.randomUUID', () => {
  assert.match(createEventId(), UUID_V4);
  const original = Object.getOwnPropertyDescriptor(globalThis, 'crypto')!;
  try {
    Object.defineProperty(globalThis, 'crypto', { value: {}, configurable: true });
    const ids = new Set(Array.from({ length: 200 }, createEventId));
    assert.equal(ids.size, 200);
    for (const id of ids) assert.match(id, UUID_V4);
    Object.defineProperty(globalThis, 'crypto', {
      value: { getRandomValues: (b: Uint8Array) => webcrypto.getRandomValues(b) },
      configurable: true,
    });
    assert.match(createEventId(), UUID_V4);
  } finally {
    Object.defineProperty(globalThis, 'crypto', original);
  }
});

test('an Error keeps its name, message and raw stack text', () => {
  const error = new TypeError('bad thing');
  assert.deepEqual(normalizeThrown(error), { type: 'TypeError', message: 'bad thing', stack: error.stack });
  class PaymentError extends Error {
    override name = 'PaymentError';
  }
  assert.equal(normalizeThrown(new PaymentError('declined')).type, 'PaymentError');
});

test('non-Error thrown values become type Error with a readable message', () => {
  assert.deepEqual(normalizeThrown('plain string'), { type: 'Error', message: 'plain string' });
  assert.deepEqual(normalizeThrown({ code: 7, reason: 'nope' }), { type: 'Error', message: '{"code":7,"reason":"nope"}' });
  assert.deepEqual(normalizeThrown(42), { type: 'Error', message: '42' });
  assert.deepEqual(normalizeThrown(undefined), { type: 'Error', message: 'undefined' });
  assert.deepEqual(normalizeThrown(null), { type: 'Error', message: 'null' });
  const circular: any = { a: 1 };
  circular.self = circular;
  assert.deepEqual(normalizeThrown(circular), { type: 'Error', message: '[object Object]' });
});

test('error-like objects from other realms count as errors', () => {
  const foreign = { name: 'RangeError', message: 'x', stack: 'RangeError: x\n    at f (a.js:1:1)' };
  assert.deepEqual(normalizeThrown(foreign), { type: 'RangeError', message: 'x', stack: foreign.stack });
});
