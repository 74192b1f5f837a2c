import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, beforeEach, test } from 'node:test';
import { sleep, startReceiver } from '../../core/test/receiver';
import { openPage, servePage, startHarness, type Harness } from './harness';

// Issue 29 in the browser: breadcrumbs the SDK records by itself (clicks, navigations, console,
// failed requests, its own earlier captures) and the cause chain, in real Chromium, sent over
// CORS to the ingest stand-in as in production.
let h: Harness;
let closedOrigin: string;
before(async () => {
  h = await startHarness();
  const spare = await startReceiver();
  await spare.close();
  closedOrigin = spare.origin;
});
after(() => h.close());
beforeEach(() => h.ingest.reset());

const FAST = { retryDelaysMs: [50, 100], timeoutMs: 2_000 };
const errors = () => h.ingest.posts('/ingest/error').map((r) => r.body);
const BODY = `<div id="app"><form class="checkout main extra" onsubmit="return false">
  <button class="btn primary">Pay</button></form>
  <button id="save" class="primary">Save</button><svg><circle class="dot" r="5"/></svg></div>`;
/** Breadcrumbs without their timestamps (checked to be ISO 8601 on the way). */
function withoutTime(crumbs: { timestamp: string }[]) {
  return crumbs.map(({ timestamp, ...rest }) => {
    assert.ok(!isNaN(Date.parse(timestamp)) && timestamp.endsWith('Z'), timestamp);
    return rest;
  });
}

test("clicks, navigations, console, failed fetch and XHR, and earlier captures arrive in order; the SDK's own requests never", async () => {
  h.site.setMode('/api/save', { status: 500 });
  h.ingest.setMode('/ingest/error', { status: 503 });
  const url = servePage(h, { init: { _internal: FAST }, body: BODY });
  const { page, pageErrors } = await openPage(h, url);
  const origin = h.site.origin;
  // A report of the SDK's own that fails (retried, then dropped): recorded as a capture only.
  await page.evaluate(() => (window as any).Tracker.captureMessage('first report', { level: 'warning' }));
  await h.ingest.waitFor(() => h.ingest.posts('/ingest/error').length == 3);
  await sleep(200);
  h.ingest.setMode('/ingest/error', null);

  await page.click('#save');
  await page.click('.btn');
  await page.click('circle');
  await page.evaluate(() => history.pushState({}, '', '/cart?token=secret-push'));
  await page.evaluate(() => (location.hash = '#step2'));
  await page.evaluate(() => history.replaceState({}, '', '/cart/review'));
  await page.evaluate(() => history.back());
  await page.waitForFunction(() => location.pathname == '/cart');
  // A string, not a function: tsx would add helpers to a function's text that the page lacks.
  await page.evaluate(`(async (closed) => {
    console.warn('stock low', 3);
    console.error(new TypeError('bad price'));
    await fetch('/tracker.min.js');
    await fetch('/missing?token=secret-fetch');
    await fetch(new Request('/api/save?x=1', { method: 'POST', body: '{}' }));
    await fetch(closed + '/down', { method: 'put' }).catch(() => {});
    const xhr = (method, target) =>
      new Promise((resolve) => {
        const r = new XMLHttpRequest();
        r.open(method, target);
        r.onloadend = resolve;
        r.send();
      });
    await xhr('GET', '/missing-xhr?token=secret-xhr');
    await xhr('POST', '/api/save');
    await xhr('GET', closed + '/down-xhr');
    await xhr('GET', '/tracker.min.js');
    Tracker.captureException(new Error('checkout failed'));
  })(${JSON.stringify(closedOrigin)})`);
  await h.ingest.waitFor(() => errors().some((e) => e.message == 'checkout failed'));
  const event = errors().find((e) => e.message == 'checkout failed');
  const cart = origin + '/cart';
  assert.deepEqual(withoutTime(event.breadcrumbs), [
    { category: 'tracker', message: 'Message: first report', level: 'warning' },
    { category: 'ui.click', message: 'button#save.primary' },
    { category: 'ui.click', message: 'div#app > form.checkout.main > button.btn.primary' },
    { category: 'ui.click', message: 'div#app > svg > circle.dot' },
    { category: 'navigation', data: { from: url, to: cart } },
    { category: 'navigation', data: { from: cart, to: cart + '#step2' } },
    { category: 'navigation', data: { from: cart + '#step2', to: cart + '/review' } },
    // back() leaves the replaced entry for the one pushed before it
    { category: 'navigation', data: { from: cart + '/review', to: cart } },
    { category: 'console', message: 'stock low 3', level: 'warning' },
    { category: 'console', message: 'TypeError: bad price', level: 'error' },
    { category: 'fetch', level: 'warning', data: { method: 'GET', url: origin + '/missing', status: 404 } },
    { category: 'fetch', level: 'error', data: { method: 'POST', url: origin + '/api/save', status: 500 } },
    { category: 'fetch', level: 'error', data: { method: 'PUT', url: closedOrigin + '/down', status: 0 } },
    { category: 'xhr', level: 'warning', data: { method: 'GET', url: origin + '/missing-xhr', status: 404 } },
    { category: 'xhr', level: 'error', data: { method: 'POST', url: origin + '/api/save', status: 500 } },
    { category: 'xhr', level: 'error', data: { method: 'GET', url: closedOrigin + '/down-xhr', status: 0 } },
  ]);
  assert.doesNotMatch(JSON.stringify(event.breadcrumbs), /secret/, 'no query string in any breadcrumb');
  assert.deepEqual(pageErrors, []);
  await page.context().close();
});

test("the console prints the same with and without the SDK; an argument's own code is never run", async () => {
  const script = `const loud = { toString() { console.error('from toString'); return 'loud'; } };
    console.warn('a %s b %d', 'x', 4, { deep: { er: [1, 2] } });
    console.error(new RangeError('shown'));
    console.warn(loud, null, undefined, 7n, Symbol('s'), Object.create(null));
    window.returned = String(console.error('returns'));`;
  const printed = async (init: Record<string, unknown> | null) => {
    const context = await h.browser.newContext();
    const page = await context.newPage();
    const lines: string[] = [];
    page.on('console', (m) => lines.push(m.type() + ' ' + m.text()));
    // One URL for both runs: the printed stack names the page.
    await page.goto(servePage(h, { init, script, path: '/console-same.html' }));
    await page.waitForFunction('window.returned');
    lines.push('returned ' + (await page.evaluate('window.returned')));
    if (init) await page.evaluate('Tracker.captureMessage("after logging")');
    await context.close();
    return lines;
  };
  const plain = await printed(null);
  assert.ok(
    plain.some((l) => l.startsWith('warning a %s b %d x 4')),
    plain.join('\n'),
  );
  assert.deepEqual(await printed({}), plain);
  await h.ingest.waitFor(() => errors().length == 1);
  assert.deepEqual(
    errors()[0].breadcrumbs.map((c: { message: string }) => c.message),
    [
      'a %s b %d x 4 [object Object]',
      'RangeError: shown',
      '[object Object] null undefined 7 Symbol(s) [object Object]',
      'returns',
    ],
  );
});

test('a console call made while a breadcrumb is being made is printed but not recorded again', async () => {
  const url = servePage(h, {
    // The first read is the SDK's (it describes the arguments before the real console prints
    // them); the browser's console reads the tag again when it prints, and that one stays quiet.
    script: `let reads = 0;
      const tagged = { get [Symbol.toStringTag]() { if (!reads++) console.error('from the tag getter'); return 'Loud'; } };
      console.warn('tagged', tagged);
      Tracker.captureMessage('after the tag');`,
  });
  const context = await h.browser.newContext();
  const page = await context.newPage();
  const lines: string[] = [];
  page.on('console', (m) => lines.push(m.text()));
  await page.goto(url);
  await h.ingest.waitFor(() => errors().length == 1);
  assert.ok(lines.includes('from the tag getter'), lines.join('\n'));
  assert.deepEqual(
    errors()[0].breadcrumbs.map((c: { message: string }) => c.message),
    ['tagged [object Loud]'],
  );
  await context.close();
});

test('the buffer keeps the last 50; breadcrumbs: false records and sends none', async () => {
  const many = `for (let i = 0; i < 60; i++) console.warn('warning ' + i);
    Tracker.captureMessage('after sixty');`;
  const { page } = await openPage(h, servePage(h, { script: many }));
  const { page: off } = await openPage(
    h,
    servePage(h, {
      init: { breadcrumbs: false },
      body: BODY,
      script: `console.warn('not recorded'); history.pushState({}, '', '/elsewhere');
        fetch('/missing').then(() => Tracker.captureMessage('breadcrumbs off'));`,
    }),
  );
  await off.click('#save');
  await h.ingest.waitFor(() => errors().length == 2);
  const sixty = errors().find((e) => e.message == 'after sixty');
  assert.equal(sixty.breadcrumbs.length, 50);
  assert.deepEqual([sixty.breadcrumbs[0].message, sixty.breadcrumbs[49].message], ['warning 10', 'warning 59']);
  assert.equal(errors().find((e) => e.message == 'breadcrumbs off').breadcrumbs, undefined);
  await off.evaluate(() => (window as any).Tracker.captureMessage('still off after a click'));
  await h.ingest.waitFor(() => errors().length == 3);
  assert.equal(errors()[2].breadcrumbs, undefined);
  await Promise.all([page.context().close(), off.context().close()]);
});

test('the cause chain is sent, five deep at most, with a non-Error cause as its type and text', async () => {
  const url = servePage(h, {
    script: `const root = new RangeError('socket closed');
      Tracker.captureException(new Error('checkout failed', { cause: new Error('query failed', { cause: root }) }));
      let deep = new Error('level 8');
      for (let i = 7; i >= 1; i--) deep = new Error('level ' + i, { cause: deep });
      Tracker.captureException(deep);
      const a = new Error('loop a'); a.cause = new Error('loop b', { cause: a });
      Tracker.captureException(a);
      Promise.reject(new Error('unhandled with cause', { cause: 404 }));`,
  });
  const { page } = await openPage(h, url);
  await h.ingest.waitFor(() => errors().length == 4);
  const causes = (message: string) => errors().find((e) => e.message == message).causes;
  const top = causes('checkout failed');
  assert.deepEqual(
    top.map((c: { type: string; message: string }) => [c.type, c.message]),
    [
      ['Error', 'query failed'],
      ['RangeError', 'socket closed'],
    ],
  );
  assert.match(top[1].stack, /socket closed/);
  assert.deepEqual(
    causes('level 1').map((c: { message: string }) => c.message),
    ['level 2', 'level 3', 'level 4', 'level 5', 'level 6'],
  );
  assert.deepEqual(
    causes('loop a').map((c: { message: string }) => c.message),
    ['loop b'],
  );
  assert.deepEqual(causes('unhandled with cause'), [{ type: 'number', message: '404' }]);
  await page.context().close();
});

test('the package imports without a DOM (a server render of a client component)', async () => {
  // Both builds, in this Node process: nothing may touch `location` or `window` until init.
  const esm = await import('@tracker/browser');
  const cjs = createRequire(import.meta.url)('@tracker/browser');
  for (const sdk of [esm, cjs]) assert.equal(typeof sdk.init, 'function');
});
