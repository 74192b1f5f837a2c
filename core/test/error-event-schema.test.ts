import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { describeZodError, errorEventSchema } from '../src/events/error-event.schema';
import { decodeJob, encodeJob } from '../src/events/job';
import { prepareEvent } from '../src/events/prepare-event';

const base = { message: 'Payment timed out', type: 'TimeoutError', environment: 'production' };

function problem(body: unknown): string {
  const result = errorEventSchema.safeParse(body);
  assert.ok(!result.success, 'expected the body to be refused');
  return describeZodError(result.error);
}

describe('errorEventSchema fingerprint (docs/wire.md: a string or an array of strings)', () => {
  test('a string becomes the one-entry array', () => {
    assert.deepEqual(errorEventSchema.parse({ ...base, fingerprint: 'checkout' }).fingerprint, ['checkout']);
  });

  test('an array is kept, past 20 entries dropped', () => {
    const many = Array.from({ length: 25 }, (_, i) => `part-${i}`);
    assert.deepEqual(errorEventSchema.parse({ ...base, fingerprint: ['a', 'b'] }).fingerprint, ['a', 'b']);
    assert.deepEqual(errorEventSchema.parse({ ...base, fingerprint: many }).fingerprint, many.slice(0, 20));
  });

  test('over-long entries are cut to 200 characters ending in …, in a string and in an array', () => {
    const long = 'x'.repeat(500);
    const [fromString] = errorEventSchema.parse({ ...base, fingerprint: long }).fingerprint!;
    const [fromArray] = errorEventSchema.parse({ ...base, fingerprint: [long] }).fingerprint!;
    assert.equal(fromString.length, 200);
    assert.ok(fromString.endsWith('…'));
    assert.equal(fromArray, fromString);
  });

  test('null means absent; anything else is refused naming the field', () => {
    assert.equal(errorEventSchema.parse({ ...base, fingerprint: null }).fingerprint, undefined);
    for (const bad of [5, [], [1], { a: 'b' }, true]) {
      assert.equal(
        problem({ ...base, fingerprint: bad }),
        'fingerprint: must be a string or a non-empty array of strings',
      );
    }
  });

  test('a wrong type is not reported as missing', () => {
    assert.equal(problem({ ...base, message: 5 }), 'message: Invalid input: expected string, received number');
    assert.equal(problem({ type: 'E', environment: 'p' }), 'message: is required');
  });

  test('a queued job with a string fingerprint (hand-written, replayed) decodes to the array and groups alike', () => {
    const job = (fingerprint: unknown) =>
      JSON.stringify({
        v: 1,
        kind: 'error',
        projectId: '00000000-0000-4000-8000-000000000001',
        receivedAt: '2026-11-25T08:00:00.000Z',
        event: { ...base, eventId: '00000000-0000-4000-8000-000000000002', fingerprint },
      });
    const fromString = decodeJob(job('checkout'));
    const fromArray = decodeJob(job(['checkout']));
    assert.ok(fromString.kind === 'error' && fromArray.kind === 'error');
    assert.deepEqual(fromString.event.fingerprint, ['checkout']);
    assert.equal(prepareEvent(fromString).groupingKey, prepareEvent(fromArray).groupingKey);
    // And what the edge writes for a string body is the array form.
    const edge = encodeJob({ ...fromString, event: { ...fromString.event } });
    assert.deepEqual(JSON.parse(edge).event.fingerprint, ['checkout']);
  });
});
