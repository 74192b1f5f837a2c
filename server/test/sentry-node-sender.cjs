/**
 * Child process of sentry-sdks.test.ts: one real, unmodified @sentry/node major (an npm alias
 * such as `sentry-node-9`) inits against a DSN, runs one scenario, flushes and prints what it
 * sent as one JSON line. Plain CommonJS in a process of its own: @sentry/node 8+ sets up
 * OpenTelemetry and patches modules on init, so majors must not share a process with each
 * other or with Tracker (and tsx's loader must not sit between them and `require`).
 *
 *   SENTRY_PACKAGE   the alias to require, e.g. sentry-node-10
 *   SENTRY_MAJOR     8 | 9 | 10 | 11 (decides how logs are switched on)
 *   SENTRY_DSN       the DSN the SDK uses
 *   SENTRY_TUNNEL    optional: send every envelope to this URL instead (envelope header `dsn`)
 *   SENTRY_SCENARIO  full | tunnel | log-quota | event-quota | bench (one typical error, for
 *                    bench/sentry-envelope.bench.ts) | evidence (an error with a cause inside an
 *                    HTTP request handler, after a breadcrumb: issue 29) | sessions (five
 *                    single sessions of four users, issue 30) | request-sessions (requests to
 *                    a real HTTP server, which the SDK sends as one `sessions` aggregate)
 */
'use strict';

const Sentry = require(process.env.SENTRY_PACKAGE);
const major = Number(process.env.SENTRY_MAJOR);
const scenario = process.env.SENTRY_SCENARIO;
const label = `node ${major}`;

// Never hang the parent: whatever happens, this process is gone after 50 s (the parent kills
// it at 60 s; loading the SDK alone can take 20 s on a busy machine).
setTimeout(() => {
  process.stderr.write(`${label} ${scenario}: gave up after 50 s\n`);
  process.exit(3);
}, 50_000).unref();

const logsOption = major >= 10 ? { enableLogs: true } : major === 9 ? { _experiments: { enableLogs: true } } : {};

Sentry.init({
  dsn: process.env.SENTRY_DSN,
  tunnel: process.env.SENTRY_TUNNEL || undefined,
  release: scenario === 'request-sessions' ? `shop-api@${major}.0.0-requests` : `shop-api@${major}.0.0`,
  environment: 'sdk-test',
  // No performance data: the test is about errors, messages, feedback and logs.
  tracesSampleRate: undefined,
  ...logsOption,
  // The bench wants a typical ~3 KB error: without the list of every installed package
  // (Modules, ~1 KB here) and the source lines around each frame (ContextLines).
  ...(scenario === 'bench'
    ? { integrations: (all) => all.filter((i) => i.name !== 'Modules' && i.name !== 'ContextLines') }
    : {}),
  // The sessions scenario starts its own sessions: without the one the SDK opens for the process.
  ...(scenario === 'sessions' ? { integrations: (all) => all.filter((i) => i.name !== 'ProcessSession') } : {}),
});

/** Named functions, so the stored frames can be checked by name. */
function chargeCard(amount) {
  try {
    validateCard(amount);
  } catch (cause) {
    throw new Error(`Payment failed (${label})`, { cause });
  }
}
function validateCard(amount) {
  throw new TypeError(`card declined for ${amount} (${label})`);
}

function capturePaymentError(extra) {
  try {
    chargeCard(42);
  } catch (err) {
    return Sentry.captureException(err, extra);
  }
}

async function run() {
  const sent = {};
  if (scenario === 'full') {
    Sentry.setUser({ id: `user-${major}`, email: `ada${major}@example.com`, username: 'ada' });
    Sentry.setTag('checkout', 'v2');
    Sentry.setTag('sdk_major', String(major));
    sent.exception = capturePaymentError();
    sent.message = Sentry.captureMessage(`Cart recalculated (${label})`, 'warning');
    sent.feedback = Sentry.captureFeedback({
      message: `The pay button did nothing (${label})`,
      email: `ada${major}@example.com`,
      name: 'Ada',
      associatedEventId: sent.exception,
    });
    // Over 32 KiB: @sentry/node gzips bodies above GZIP_THRESHOLD (32 KiB).
    const blob = `big-context-${major}:` + 'lorem ipsum dolor sit amet '.repeat(1_600);
    sent.large = Sentry.captureMessage(`Large payload (${label})`, { level: 'info', contexts: { payload: { blob } } });
    sent.largeBytes = blob.length;
    if (Sentry.logger) {
      Sentry.logger.info(`order placed (${label})`, { orderId: 7 });
      Sentry.logger.error(`inventory out of sync (${label})`, { sku: 'A-1' });
    }
  } else if (scenario === 'bench') {
    Sentry.setUser({ id: '48213', email: 'anna.schmidt@example.org' });
    Sentry.setTag('route', '/checkout/:step');
    Sentry.setTag('plan', 'pro');
    try {
      validateCard(42);
    } catch (err) {
      sent.exception = Sentry.captureException(err);
    }
  } else if (scenario === 'evidence') {
    Sentry.addBreadcrumb({
      category: 'cart',
      message: `added item (${label})`,
      level: 'info',
      data: { sku: 'A-1', password: 'hunter2' },
    });
    // A real request handler: the SDK's own HTTP instrumentation attaches the request.
    const http = require('node:http');
    const server = http.createServer((req, res) => {
      try {
        chargeCard(42);
      } catch (err) {
        sent.exception = Sentry.captureException(err);
      }
      res.end('ok');
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address();
    const response = await fetch(`http://127.0.0.1:${port}/checkout?step=pay&token=s3cret`, {
      // A browser's User-Agent, as a user's request to a server carries (derived tags, decision 046).
      headers: {
        cookie: 'sid=abc',
        'x-request-note': 'evidence',
        'user-agent':
          'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      },
    });
    await response.text();
    await new Promise((resolve) => server.close(resolve));
  } else if (scenario === 'sessions') {
    // Five sessions of four users (ada twice): three end cleanly, one meets a handled error, one
    // crashes (an unhandled error, as the SDK's uncaught-exception handler reports it).
    const plan = [
      ['ada', 'exit'],
      ['bob', 'exit'],
      ['cy', 'exit'],
      ['ada', 'handled'],
      ['dee', 'crash'],
    ];
    for (const [user, end] of plan) {
      Sentry.setUser({ id: `${user}-${major}` });
      Sentry.startSession();
      if (end === 'handled') sent.handled = capturePaymentError();
      if (end === 'crash') {
        try {
          chargeCard(7);
        } catch (err) {
          sent.crash = Sentry.captureException(err, {
            data: { mechanism: { type: 'onuncaughtexception', handled: false } },
          });
        }
      }
      // The error marks the session once it is processed: wait for that before ending it.
      await Sentry.flush(5_000);
      Sentry.endSession();
    }
  } else if (scenario === 'request-sessions') {
    // A real server: the SDK's HTTP integration counts each request as a session and sends them
    // aggregated (exited and errored per minute) when the client flushes.
    const http = require('node:http');
    const server = http.createServer((req, res) => {
      if (req.url === '/fail') Sentry.captureException(new Error(`request failed (${label})`));
      res.end('ok');
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address();
    for (const path of ['/a', '/b', '/c', '/fail']) {
      const response = await fetch(`http://127.0.0.1:${port}${path}`);
      await response.text();
    }
    await new Promise((resolve) => server.close(resolve));
  } else if (scenario === 'tunnel') {
    sent.message = Sentry.captureMessage(`Through the tunnel (${label})`, 'info');
  } else if (scenario === 'log-quota') {
    // The organization's log quota is used up: the first log envelope meets a 429 naming
    // `log_item`; after it the SDK must drop logs on its own and still send events.
    Sentry.logger.info(`log before the limit (${label})`);
    await Sentry.flush(5_000);
    Sentry.logger.info(`log after the limit (${label})`);
    sent.message = Sentry.captureMessage(`Event after the log limit (${label})`, 'warning');
  } else if (scenario === 'event-quota') {
    // The event quota is used up: the first event meets a 429 naming `error;default`; after it
    // the SDK must drop events on its own and still send feedback (which the quota leaves alone).
    sent.refused = capturePaymentError();
    await Sentry.flush(5_000);
    sent.dropped = Sentry.captureMessage(`Event after the event limit (${label})`, 'warning');
    sent.feedback = Sentry.captureFeedback({
      message: `Feedback after the event limit (${label})`,
      email: 'x@example.com',
    });
  } else {
    throw new Error(`unknown scenario ${scenario}`);
  }
  sent.flushed = await Sentry.flush(10_000);
  process.stdout.write(JSON.stringify(sent) + '\n');
}

run().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`${label} ${scenario}: ${err && err.stack}\n`);
    process.exit(2);
  },
);
