import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseClientTime } from '@tracker/core';

test('parseClientTime: ISO 8601 date-times, bare dates only where allowed, a message naming the field', () => {
  assert.equal(parseClientTime('until', '2026-11-25T10:00:00Z').toISOString(), '2026-11-25T10:00:00.000Z');
  assert.equal(parseClientTime('to', '2026-11-25T10:00:00.5+01:00').toISOString(), '2026-11-25T09:00:00.500Z');
  assert.equal(
    parseClientTime('firstSeenFrom', '2026-11-25', { allowDate: true }).toISOString(),
    '2026-11-25T00:00:00.000Z',
  );
  assert.throws(() => parseClientTime('until', '2026-11-25'), /^AppError: until: must be an ISO 8601 date-time$/);
  for (const bad of ['1/2/2026', '2026', '1764064800000', '2026-13-01T00:00:00Z', '2026-11-25T', 'tomorrow', '']) {
    assert.throws(
      () => parseClientTime('firstSeenTo', bad, { allowDate: true }),
      { code: 'BAD_USER_INPUT', message: 'firstSeenTo: must be an ISO 8601 date or date-time' },
      bad,
    );
  }
});
