/**
 * Child process of sentry-feedback.test.ts: real, unmodified @sentry/node 11 (the npm alias
 * `sentry-node-11`) captures an exception, then the user's feedback about it through its
 * feedback API (`captureFeedback` with name, email, page URL and the event it is about), and
 * prints both ids as one JSON line. A process of its own: @sentry/node patches modules on init.
 *
 *   SENTRY_DSN   the DSN the SDK uses
 */
'use strict';

const Sentry = require('sentry-node-11');

setTimeout(() => {
  process.stderr.write('feedback sender: gave up after 50 s\n');
  process.exit(3);
}, 50_000).unref();

Sentry.init({ dsn: process.env.SENTRY_DSN, release: 'shop-api@11.0.0', environment: 'sdk-test' });

function applyCoupon(code) {
  throw new RangeError(`coupon ${code} expired`);
}

async function run() {
  let exception;
  try {
    applyCoupon('SPRING');
  } catch (err) {
    exception = Sentry.captureException(err);
  }
  const feedback = Sentry.captureFeedback({
    message: 'The coupon field cleared my cart',
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    url: 'https://shop.example/checkout?step=2&token=abc123',
    associatedEventId: exception,
  });
  const flushed = await Sentry.flush(10_000);
  process.stdout.write(JSON.stringify({ exception, feedback, flushed, version: Sentry.SDK_VERSION }) + '\n');
}

run().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`${err && err.stack}\n`);
    process.exit(1);
  },
);
