import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AppError } from '@tracker/core';
import { MAX_ENVELOPE_ITEMS, parseEnvelope } from '../src/sentry/parse-envelope';

const env = (s: string) => parseEnvelope(Buffer.from(s));

describe('parseEnvelope', () => {
  test('items with and without length, blank lines, a payload without a trailing newline', () => {
    const e = env(
      '{"event_id":"x"}\n{"type":"a","length":3}\n{}\n\n\n{"type":"b"}\n{"k":1}\n{"type":"c","length":2}\n{}',
    );
    assert.deepEqual(e.header, { event_id: 'x' });
    assert.deepEqual(
      e.items.map((i) => [i.type, i.payload.toString()]),
      [
        ['a', '{}\n'.slice(0, 3)],
        ['b', '{"k":1}'],
        ['c', '{}'],
      ],
    );
    assert.equal(e.broken, undefined);
  });

  test('a length counts bytes, and binary payloads may hold newlines', () => {
    const payload = Buffer.from([1, 10, 10, 2, 0xff]);
    const body = Buffer.concat([
      Buffer.from('{}\n{"type":"attachment","length":5}\n'),
      payload,
      Buffer.from('\n{"type":"event"}\n{"a":"é"}'),
    ]);
    const e = parseEnvelope(body);
    assert.deepEqual(e.items[0].payload, payload);
    assert.equal(e.items[1].payload.toString(), '{"a":"é"}');
  });

  test(`at most ${MAX_ENVELOPE_ITEMS} items: one more is a 413 for the whole envelope (issue 28)`, () => {
    const items = (n: number) => '{}\n' + '{"type":"session"}\n{}\n'.repeat(n);
    assert.equal(env(items(MAX_ENVELOPE_ITEMS)).items.length, MAX_ENVELOPE_ITEMS);
    assert.equal(env(items(MAX_ENVELOPE_ITEMS) + '\n\n').items.length, MAX_ENVELOPE_ITEMS, 'blank lines are no items');
    assert.throws(
      () => env(items(MAX_ENVELOPE_ITEMS + 1)),
      (err: unknown) =>
        err instanceof AppError && err.code === 'PAYLOAD_TOO_LARGE' && /more than 1000 items/.test(err.message),
    );
  });

  test('a break keeps the items before it', () => {
    const past = env('{}\n{"type":"a","length":2}\n{}\n{"type":"b","length":500}\n{}');
    assert.equal(past.items.length, 1);
    assert.match(past.broken!.message, /runs past the end/);
    const garbage = env('{}\n{"type":"a","length":2}\n{}\nnot a header\n');
    assert.equal(garbage.items.length, 1);
    assert.match(garbage.broken!.message, /item 2 header: malformed JSON/);
    assert.match(env('{}\n{"type":"a","length":1.5}\n{}').broken!.message, /non-negative integer/);
  });

  test('an unreadable envelope header or an empty body is a 400', () => {
    assert.throws(() => env(''), /is required/);
    assert.throws(() => env('[1]\n'), /envelope header: must be a JSON object/);
    assert.throws(() => env('nope'), /envelope header: malformed JSON/);
    assert.deepEqual(env('\uFEFF{}').items, []);
  });
});
