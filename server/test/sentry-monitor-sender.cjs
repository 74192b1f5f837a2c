/**
 * Child process of monitors-check-ins.test.ts: the real @sentry/node 11 (`sentry-node-11`)
 * sends cron check-ins with `withMonitor` (an upsert of the monitor from its config, then
 * in_progress and ok with the duration) and `captureCheckIn` (an interval config), flushes and
 * prints the check-in ids as one JSON line. A process of its own: @sentry/node patches modules on init.
 *
 *   SENTRY_DSN   the DSN the SDK uses
 */
'use strict';

const Sentry = require('sentry-node-11');

setTimeout(() => {
  process.stderr.write('sentry monitor sender: gave up after 50 s\n');
  process.exit(3);
}, 50_000).unref();

Sentry.init({ dsn: process.env.SENTRY_DSN, environment: 'sdk-test', tracesSampleRate: undefined });

(async () => {
  await Sentry.withMonitor(
    'sentry-nightly',
    async () => {
      await new Promise((r) => setTimeout(r, 50));
    },
    {
      schedule: { type: 'crontab', value: '30 3 * * *' },
      timezone: 'Europe/Berlin',
      checkinMargin: 7,
      maxRuntime: 45,
      failureIssueThreshold: 2,
      recoveryThreshold: 3,
    },
  );
  const id = Sentry.captureCheckIn(
    { monitorSlug: 'sentry-interval', status: 'error' },
    { schedule: { type: 'interval', value: 2, unit: 'hour' }, checkinMargin: 5, maxRuntime: 30 },
  );
  await Sentry.flush(10_000);
  process.stdout.write(`${JSON.stringify({ errorCheckInId: id })}\n`);
})().catch((err) => {
  process.stderr.write(String(err && err.stack ? err.stack : err));
  process.exit(2);
});
