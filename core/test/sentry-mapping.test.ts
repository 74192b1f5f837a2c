import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  isoTimestampOf,
  mapSentryEvent,
  mapSentryFeedback,
  mapSentryLogs,
  queuedErrorEventSchema,
  uuidOfEventId,
} from '../src';

describe('mapping Sentry payloads onto our bodies', () => {
  test('32-hex event ids become UUIDs; ids that are no RFC 9562 UUID are left for the edge to assign', () => {
    assert.equal(uuidOfEventId('9ec79c33ec9942ab8353589fcb2e04dc'), '9ec79c33-ec99-42ab-8353-589fcb2e04dc');
    assert.equal(uuidOfEventId('9EC79C33-EC99-42AB-8353-589FCB2E04DC'), '9ec79c33-ec99-42ab-8353-589fcb2e04dc');
    assert.equal(uuidOfEventId('12345678901200008901234567890abc'), undefined); // version 0
    assert.equal(uuidOfEventId(42), undefined);
  });

  test('an `extra` or `contexts` that is no object is kept under its name, not dropped (issue 28)', () => {
    const body = mapSentryEvent({ message: 'm', extra: [[1]], contexts: 'text' }, undefined);
    assert.deepEqual(body.context, { contexts: 'text', extra: [[1]] });
    const plain = mapSentryEvent({ message: 'm', extra: {}, contexts: null }, undefined);
    assert.equal(plain.context, undefined);
  });

  test('timestamps as epoch seconds or RFC 3339, with or without a zone', () => {
    assert.equal(isoTimestampOf(1700000000.5), '2023-11-14T22:13:20.500Z');
    assert.equal(isoTimestampOf('1700000000'), '2023-11-14T22:13:20.000Z');
    assert.equal(isoTimestampOf('2024-05-01T10:00:00.123456'), '2024-05-01T10:00:00.123Z');
    assert.equal(isoTimestampOf('2024-05-01T12:00:00+02:00'), '2024-05-01T10:00:00.000Z');
    assert.equal(isoTimestampOf('yesterday'), undefined);
    assert.equal(isoTimestampOf(1e300), undefined);
  });

  test('a Python event: thread stack when there is no exception, params by name, module as the file', () => {
    const body = mapSentryEvent({
      logentry: { message: 'order %(id)s failed', params: { id: 7 } },
      threads: {
        values: [
          { id: 1, stacktrace: { frames: [{ module: 'idle' }] } },
          {
            id: 2,
            crashed: true,
            stacktrace: {
              frames: [
                { filename: 'app/views.py', abs_path: '/srv/app/views.py', function: 'checkout', lineno: 10 },
                { abs_path: '/srv/app/models.py', function: 'save', lineno: 99, in_app: true },
              ],
            },
          },
        ],
      },
      level: 'error',
    });
    const parsed = queuedErrorEventSchema.parse(body);
    assert.equal(parsed.type, 'Message');
    assert.equal(parsed.message, 'order 7 failed');
    assert.deepEqual(parsed.frames, [
      { filename: '/srv/app/models.py', function: 'save', lineno: 99, colno: null, inApp: true },
      { filename: 'app/views.py', function: 'checkout', lineno: 10, colno: null, inApp: true },
    ]);
  });

  test('attachStacktrace on a message: an exception with only a stack keeps the message and type Message', () => {
    const body = mapSentryEvent({
      message: 'hello',
      exception: { values: [{ value: 'hello', stacktrace: { frames: [{ filename: 'a.js', lineno: 1 }] } }] },
    });
    assert.equal(body.type, 'Message');
    assert.equal(body.message, 'hello');
  });

  test('the innermost 250 frames are kept', () => {
    const frames = Array.from({ length: 400 }, (_, i) => ({ filename: `f${i}.js`, lineno: i + 1 }));
    const parsed = queuedErrorEventSchema.parse(
      mapSentryEvent({ exception: { values: [{ type: 'E', value: 'deep', stacktrace: { frames } }] } }),
    );
    assert.equal(parsed.frames?.length, 250);
    assert.equal(parsed.frames?.[0].filename, 'f399.js');
  });

  test('feedback: the v8 feedback event and the older user report', () => {
    assert.deepEqual(
      mapSentryFeedback(
        {
          event_id: '9ec79c33ec9942ab8353589fcb2e04dc',
          contexts: { feedback: { message: 'hi', contact_email: 'a@b.c', associated_event_id: 'bad' } },
        },
        'feedback',
      ),
      { message: 'hi', email: 'a@b.c', id: '9ec79c33-ec99-42ab-8353-589fcb2e04dc' },
    );
    assert.deepEqual(
      mapSentryFeedback({ event_id: '9ec79c33ec9942ab8353589fcb2e04dc', comments: 'x', name: 'n' }, 'user_report'),
      { message: 'x', name: 'n', eventId: '9ec79c33-ec99-42ab-8353-589fcb2e04dc' },
    );
    // The widget's name and page; without them, the event's user and request stand in.
    assert.deepEqual(
      mapSentryFeedback(
        { contexts: { feedback: { message: 'hi', name: 'Ada', url: 'https://shop.example/cart' } } },
        'feedback',
      ),
      { message: 'hi', name: 'Ada', url: 'https://shop.example/cart' },
    );
    assert.deepEqual(
      mapSentryFeedback(
        {
          contexts: { feedback: { message: 'hi' } },
          user: { username: 'ada' },
          request: { url: 'https://x.example/' },
        },
        'feedback',
      ),
      { message: 'hi', name: 'ada', url: 'https://x.example/' },
    );
  });

  test('an exception logged with a message of its own keeps the log message beside it; a raven-go single exception object is read', () => {
    const logged = mapSentryEvent({
      exception: { values: [{ type: 'KeyError', value: "'card'" }] },
      logentry: { message: 'charging %s failed', params: ['A-1'] },
    });
    assert.equal(logged.type, 'KeyError');
    assert.equal(logged.message, "'card'");
    assert.equal(logged.logMessage, 'charging A-1 failed');
    // A message event (no exception) and an exception whose value is the message keep one message.
    assert.equal(mapSentryEvent({ logentry: { formatted: 'just a message' } }).logMessage, undefined);
    assert.equal(mapSentryEvent({ exception: [{ type: 'E', value: 'same' }], message: 'same' }).logMessage, undefined);
    const raven = mapSentryEvent({ message: 'boom', exception: { type: '*errors.errorString', value: 'boom' } });
    assert.equal(raven.type, '*errors.errorString');
    assert.equal(raven.message, 'boom');
  });

  test('logs: a single record without a container, severity numbers when the level is unknown', () => {
    const [log] = mapSentryLogs({ level: 'nope', severity_number: 18, body: 'x', timestamp: 1700000000 }, 'log');
    assert.deepEqual(log, { level: 'error', message: 'x', timestamp: '2023-11-14T22:13:20.000Z' });
    const [otel] = mapSentryLogs({ severityNumber: 6, body: { stringValue: 'y' } }, 'otel_log');
    assert.equal(otel.level, 'debug');
  });
});
