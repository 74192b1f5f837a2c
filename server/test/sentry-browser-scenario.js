/**
 * The page script of sentry-sdks.test.ts: the same scenarios as sentry-node-sender.cjs, for a
 * real, unmodified @sentry/browser bundle loaded as the global `Sentry`. The test page sets
 * `window.SCENARIO = { major, scenario, dsn, tunnel }` first; this script leaves its result in
 * `window.RESULT` (or `window.FAILED`).
 */
(function () {
  var config = window.SCENARIO;
  var major = config.major;
  var scenario = config.scenario;
  var label = 'browser ' + major;
  var logsOption = major >= 10 ? { enableLogs: true } : major === 9 ? { _experiments: { enableLogs: true } } : {};

  Sentry.init(
    Object.assign(
      {
        dsn: config.dsn,
        tunnel: config.tunnel || undefined,
        release: 'shop-web@' + major + '.0.0',
        environment: 'sdk-test',
        // Only the default integrations; no replay or feedback widget; tracing only for the
        // scenario that measures a page load's Web Vitals (decision 046).
      },
      scenario === 'tracing' ? { integrations: [Sentry.browserTracingIntegration()], tracesSampleRate: 1 } : {},
      logsOption,
    ),
  );

  function chargeCard(amount) {
    try {
      validateCard(amount);
    } catch (cause) {
      throw new Error('Payment failed (' + label + ')', { cause: cause });
    }
  }
  function validateCard(amount) {
    throw new TypeError('card declined for ' + amount + ' (' + label + ')');
  }
  function capturePaymentError(context) {
    try {
      chargeCard(42);
    } catch (err) {
      return Sentry.captureException(err, context);
    }
  }

  async function run() {
    var sent = {};
    if (scenario === 'full') {
      Sentry.setUser({ id: 'user-' + major, email: 'ada' + major + '@example.com', username: 'ada' });
      Sentry.setTag('checkout', 'v2');
      Sentry.setTag('sdk_major', String(major));
      sent.exception = capturePaymentError();
      sent.message = Sentry.captureMessage('Cart recalculated (' + label + ')', 'warning');
      sent.feedback = Sentry.captureFeedback({
        message: 'The pay button did nothing (' + label + ')',
        email: 'ada' + major + '@example.com',
        name: 'Ada',
        associatedEventId: sent.exception,
      });
      // Over 32 KiB: the browser SDK sends it uncompressed.
      var blob = 'big-context-' + major + ':' + 'lorem ipsum dolor sit amet '.repeat(1600);
      sent.large = Sentry.captureMessage('Large payload (' + label + ')', {
        level: 'info',
        contexts: { payload: { blob: blob } },
      });
      sent.largeBytes = blob.length;
      if (Sentry.logger) {
        Sentry.logger.info('order placed (' + label + ')', { orderId: 7 });
        Sentry.logger.error('inventory out of sync (' + label + ')', { sku: 'A-1' });
      }
    } else if (scenario === 'evidence') {
      // What the default integrations record by themselves: a click, a console warning and a
      // fetch that fails, then the error with its cause.
      var button = document.createElement('button');
      button.id = 'pay';
      button.className = 'primary';
      button.textContent = 'Pay';
      document.body.appendChild(button);
      button.click();
      console.warn('stock low (' + label + ')');
      await fetch('/missing-endpoint?token=s3cret&page=2').catch(function () {});
      sent.exception = capturePaymentError();
    } else if (scenario === 'tracing') {
      // Content for LCP, and a button whose click keeps the main thread busy (an INP to report);
      // the test clicks it, then leaves the page, which sends LCP, CLS and INP.
      var text = document.createElement('p');
      text.style.fontSize = '40px';
      text.textContent = 'Your order, ready to pay';
      document.body.appendChild(text);
      var pay = document.createElement('button');
      pay.id = 'pay';
      pay.textContent = 'Pay';
      pay.addEventListener('click', function () {
        var start = Date.now();
        while (Date.now() - start < 150) {}
        pay.textContent = 'Paid';
      });
      document.body.appendChild(pay);
      sent.exception = capturePaymentError();
    } else if (scenario === 'tunnel') {
      sent.message = Sentry.captureMessage('Through the tunnel (' + label + ')', 'info');
    } else if (scenario === 'log-quota') {
      Sentry.logger.info('log before the limit (' + label + ')');
      await Sentry.flush(5000);
      Sentry.logger.info('log after the limit (' + label + ')');
      sent.message = Sentry.captureMessage('Event after the log limit (' + label + ')', 'warning');
    } else if (scenario === 'event-quota') {
      sent.refused = capturePaymentError();
      await Sentry.flush(5000);
      sent.dropped = Sentry.captureMessage('Event after the event limit (' + label + ')', 'warning');
      sent.feedback = Sentry.captureFeedback({
        message: 'Feedback after the event limit (' + label + ')',
        email: 'x@example.com',
      });
    } else {
      throw new Error('unknown scenario ' + scenario);
    }
    sent.flushed = await Sentry.flush(10000);
    return sent;
  }

  run().then(
    function (sent) {
      window.RESULT = sent;
    },
    function (err) {
      window.FAILED = String((err && err.stack) || err);
    },
  );
})();
