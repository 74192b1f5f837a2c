import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  applyInboundFilterChanges,
  compileInboundFilters,
  DEFAULT_INBOUND_FILTER_SETTINGS,
  inboundFilterFor,
  inboundFilterSettingsOf,
  type InboundFilterSettings,
  type QueuedErrorEvent,
} from '../src';

const CHROME_131 =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const CHROME_70 =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/70.0.3538.77 Safari/537.36';
const IE_11 = 'Mozilla/5.0 (Windows NT 10.0; WOW64; Trident/7.0; rv:11.0) like Gecko';
const SAFARI_12 =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/12.1.2 Safari/605.1.15';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

function event(over: Partial<QueuedErrorEvent> = {}): QueuedErrorEvent {
  return { message: 'x is undefined', type: 'TypeError', environment: 'production', ...over } as QueuedErrorEvent;
}

function filters(over: Partial<InboundFilterSettings>) {
  const compiled = compileInboundFilters({ ...DEFAULT_INBOUND_FILTER_SETTINGS, ...over });
  assert.ok(compiled, 'some filter is on');
  return compiled;
}

describe('inbound filters: which filter drops an event', () => {
  test('no filter on compiles to nothing, so the edge skips the check', () => {
    assert.equal(compileInboundFilters(DEFAULT_INBOUND_FILTER_SETTINGS), undefined);
    assert.equal(compileInboundFilters(inboundFilterSettingsOf(null)), undefined);
  });

  test('browser extensions: a frame in the stack text or in structured frames', () => {
    const f = filters({ browserExtensions: true });
    for (const scheme of ['chrome-extension', 'moz-extension', 'safari-extension', 'safari-web-extension']) {
      const stack = `TypeError: x\n    at run (${scheme}://abcdef/content.js:1:2)`;
      assert.equal(inboundFilterFor(f, event({ stack })), 'browser_extensions', scheme);
    }
    const frames = [{ filename: 'moz-extension://1234/inject.js', function: 'f', lineno: 1, colno: 1 }];
    assert.equal(inboundFilterFor(f, event({ frames } as Partial<QueuedErrorEvent>)), 'browser_extensions');
    assert.equal(
      inboundFilterFor(f, event({ stack: 'TypeError: x\n    at run (https://app.example.com/a.js:1:2)' })),
      undefined,
    );
  });

  test('localhost: the page URL, the request URL, or a loopback user IP', () => {
    const f = filters({ localhost: true });
    for (const url of [
      'http://localhost:3000/cart',
      'http://127.0.0.1/',
      'http://[::1]:8080/x',
      'http://app.localhost/',
    ]) {
      assert.equal(inboundFilterFor(f, event({ url })), 'localhost', url);
    }
    assert.equal(inboundFilterFor(f, event({ request: { url: 'http://localhost/api' } })), 'localhost');
    assert.equal(
      inboundFilterFor(f, event({ user: { id: undefined, email: undefined, ip_address: '127.0.0.1' } })),
      'localhost',
    );
    assert.equal(inboundFilterFor(f, event({ url: 'https://localhost.example.com/' })), undefined);
    assert.equal(inboundFilterFor(f, event({ url: 'https://shop.example.com/' })), undefined);
  });

  test('legacy browsers: older than the minimum per browser; Internet Explorer always by default', () => {
    const f = filters({ legacyBrowsers: true });
    assert.equal(inboundFilterFor(f, event({ context: { userAgent: CHROME_70 } })), 'legacy_browsers');
    assert.equal(inboundFilterFor(f, event({ context: { userAgent: IE_11 } })), 'legacy_browsers');
    assert.equal(inboundFilterFor(f, event({ context: { userAgent: SAFARI_12 } })), 'legacy_browsers');
    assert.equal(inboundFilterFor(f, event({ context: { userAgent: CHROME_131 } })), undefined);
    // From a Sentry event's request header too.
    assert.equal(inboundFilterFor(f, event({ request: { headers: { 'user-agent': CHROME_70 } } })), 'legacy_browsers');
    // The minimum is the project's: Chrome 60 and up kept.
    const lenient = filters({
      legacyBrowsers: true,
      legacyBrowserMinVersions: { ...DEFAULT_INBOUND_FILTER_SETTINGS.legacyBrowserMinVersions, chrome: 60 },
    });
    assert.equal(inboundFilterFor(lenient, event({ context: { userAgent: CHROME_70 } })), undefined);
  });

  test('web crawlers by User-Agent; a real browser is kept', () => {
    const f = filters({ webCrawlers: true });
    assert.equal(inboundFilterFor(f, event({ context: { userAgent: GOOGLEBOT } })), 'web_crawlers');
    assert.equal(inboundFilterFor(f, event({ context: { userAgent: CHROME_131 } })), undefined);
    assert.equal(inboundFilterFor(f, event()), undefined);
  });

  test('error messages: globs, case-insensitive, across "/" and line breaks, and on "Type: message"', () => {
    const f = filters({ errorMessages: ['*resizeobserver loop*', 'TypeError: Failed to fetch*', 'Script error.'] });
    assert.equal(inboundFilterFor(f, event({ message: 'ResizeObserver loop limit exceeded' })), 'error_messages');
    assert.equal(
      inboundFilterFor(f, event({ message: 'Failed to fetch https://api.example.com/v1/x' })),
      'error_messages',
    );
    assert.equal(inboundFilterFor(f, event({ message: 'first line\nResizeObserver loop\nlast' })), 'error_messages');
    assert.equal(inboundFilterFor(f, event({ message: 'Script error.' })), 'error_messages');
    assert.equal(inboundFilterFor(f, event({ message: 'Script errorX' })), undefined);
    assert.equal(inboundFilterFor(f, event({ message: 'x is undefined' })), undefined);
  });

  test('releases: globs on the release; events without one are kept', () => {
    const f = filters({ releases: ['*-dev', 'staging@{1,2}.*'] });
    assert.equal(inboundFilterFor(f, event({ release: '1.4.0-dev' })), 'releases');
    assert.equal(inboundFilterFor(f, event({ release: 'staging@2.0.1' })), 'releases');
    assert.equal(inboundFilterFor(f, event({ release: 'staging@3.0.1' })), undefined);
    assert.equal(inboundFilterFor(f, event({ release: '1.4.0' })), undefined);
    assert.equal(inboundFilterFor(f, event()), undefined);
  });
});

describe('inbound filters: what is refused when saving', () => {
  const base = inboundFilterSettingsOf(null);

  test('a glob of 10,000 characters is refused with its length named', () => {
    assert.throws(
      () => applyInboundFilterChanges(base, { errorMessages: ['a'.repeat(10_000)] }, false),
      (err: Error & { code?: string }) =>
        err.code === 'BAD_USER_INPUT' && /at most 200 characters \(one has 10,000\)/.test(err.message),
    );
    assert.throws(
      () => applyInboundFilterChanges(base, { releases: ['b'.repeat(10_000)] }, true),
      /releases: a pattern/,
    );
  });

  test('a pattern that matches everything needs confirmDropAll; with it, it is kept', () => {
    for (const glob of ['*', '**', '*?*', '{*,x}']) {
      assert.throws(
        () => applyInboundFilterChanges(base, { errorMessages: [glob] }, false),
        /errorMessages: the pattern .* matches everything.*confirmDropAll/,
        glob,
      );
    }
    assert.throws(() => applyInboundFilterChanges(base, { releases: ['*'] }, false), /releases: the pattern "\*"/);
    assert.deepEqual(applyInboundFilterChanges(base, { errorMessages: ['*'] }, true).errorMessages, ['*']);
    // A narrow pattern needs no confirmation.
    assert.deepEqual(applyInboundFilterChanges(base, { errorMessages: [' *timeout* '] }, false).errorMessages, [
      '*timeout*',
    ]);
  });

  test('too many patterns, empty ones, and bad minimum versions are refused', () => {
    assert.throws(
      () => applyInboundFilterChanges(base, { releases: Array.from({ length: 51 }, (_, i) => `r${i}`) }, false),
      /at most 50/,
    );
    assert.throws(() => applyInboundFilterChanges(base, { errorMessages: ['  '] }, false), /must not be empty/);
    assert.throws(
      () => applyInboundFilterChanges(base, { legacyBrowserMinVersions: { chrome: 1.5 } as never }, false),
      /legacyBrowserMinVersions.chrome: must be a whole number/,
    );
    assert.throws(
      () => applyInboundFilterChanges(base, { legacyBrowserMinVersions: { netscape: 4 } as never }, false),
      /unknown browser "netscape"/,
    );
  });
});
