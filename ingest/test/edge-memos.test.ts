import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { decodeJob, encodeJob, encodeJobBytes, isPlainJsonText, type ErrorJob } from '@tracker/core';
import { receivedAtNow } from '../src/http/received-at';

const P1 = '7d2c1a52-3c55-4c8e-9a57-0f4e6f0d2b11';
const P2 = '9e4b2f61-8a1d-4b7e-b3c2-5d6e7f809a12';
const EVENT = {
  message: 'm',
  type: 'Error',
  environment: 'production',
  eventId: '0b5a7a0e-5b7e-4c1a-9a9e-1b2c3d4e5f60',
} as ErrorJob['event'];

describe('what the edge formats once and reuses (docs/decisions/031)', () => {
  test('receivedAtNow follows each clock it is given, also when two clocks alternate', () => {
    let a = Date.UTC(2026, 10, 25, 21, 0, 0, 1);
    const b = Date.UTC(2031, 0, 2, 3, 4, 5, 6);
    const clockA = () => a;
    const clockB = () => b;
    assert.equal(receivedAtNow(clockA), '2026-11-25T21:00:00.001Z');
    assert.equal(receivedAtNow(clockA), '2026-11-25T21:00:00.001Z');
    assert.equal(receivedAtNow(clockB), '2031-01-02T03:04:05.006Z');
    a += 1;
    assert.equal(receivedAtNow(clockA), '2026-11-25T21:00:00.002Z');
    assert.equal(receivedAtNow(clockB), '2031-01-02T03:04:05.006Z');
    assert.throws(() => receivedAtNow(() => NaN), RangeError);
  });

  test('jobs of other projects, times or kinds in a row each get their own envelope', () => {
    const jobs: ErrorJob[] = [
      { v: 1, kind: 'error', projectId: P1, receivedAt: '2026-11-25T21:00:00.001Z', event: EVENT },
      { v: 1, kind: 'error', projectId: P1, receivedAt: '2026-11-25T21:00:00.001Z', event: EVENT },
      { v: 1, kind: 'error', projectId: P2, receivedAt: '2026-11-25T21:00:00.001Z', event: EVENT },
      { v: 1, kind: 'error', projectId: P2, receivedAt: '2026-11-25T21:00:00.002Z', event: EVENT },
      { v: 1, kind: 'error', projectId: P1, receivedAt: '2026-11-25T21:00:00.001Z', event: EVENT },
    ];
    for (const job of jobs) {
      const body = JSON.stringify(job.event);
      assert.deepEqual(JSON.parse(encodeJob(job, body)), job);
      assert.deepEqual(JSON.parse(encodeJobBytes(job, Buffer.from(body)).toString('utf8')), job);
      assert.deepEqual(decodeJob(encodeJob(job, body)), job);
    }
    const log = { v: 1, kind: 'log', projectId: P1, receivedAt: '2026-11-25T21:00:00.001Z', log: { id: 'x' } } as const;
    assert.equal(
      encodeJob(log as never, '{"id":"x"}'),
      `{"v":1,"kind":"log","projectId":"${P1}","receivedAt":"2026-11-25T21:00:00.001Z","log":{"id":"x"}}`,
    );
  });

  test('isPlainJsonText: texts without any \\u escape are plain; suspect escapes are still found', () => {
    assert.equal(isPlainJsonText('{"a":"b"}'), true);
    assert.equal(isPlainJsonText('{"a":"\\u00e9"}'), true);
    assert.equal(isPlainJsonText('{"a":"\\u0000"}'), false);
    assert.equal(isPlainJsonText('{"a":"\\uD83D\\uDE00"}'), false);
    assert.equal(isPlainJsonText('{"a":"\\\\u0000"}'), false); // conservative, as before: "look closer"
  });
});
