import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { openPage, startHarness, type Harness } from '../../browser/test/harness';

// `@tracker/next/client` is `@tracker/browser` underneath: the evidence the browser SDK records
// by itself (issue 29) must come with it. The built client entry is bundled for the page as an
// app's bundler would (its `@tracker/browser` import resolved to that package's build).
let h: Harness;
before(async () => {
  h = await startHarness();
});
after(() => h.close());

test("the client entry inherits the browser SDK's breadcrumbs and cause chain", async () => {
  const bundle = await build({
    stdin: {
      contents: `import { init, captureException } from '@tracker/next/client';
        init({ dsn: ${JSON.stringify(h.dsn)}, vitals: false });
        window.NextTracker = { captureException };`,
      resolveDir: fileURLToPath(new URL('.', import.meta.url)),
      loader: 'js',
    },
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    write: false,
    logLevel: 'error',
  });
  h.site.serve('/next-client.js', Buffer.from(bundle.outputFiles[0].contents), 'text/javascript');
  h.site.serve(
    '/next-page.html',
    `<!doctype html><html><head><script src="/next-client.js"></script></head>
     <body><button id="buy" class="cta">Buy</button></body></html>`,
    'text/html',
  );
  const { page, pageErrors } = await openPage(h, h.site.origin + '/next-page.html');
  await page.click('#buy');
  await page.evaluate(`(async () => {
    console.warn('cart stale');
    history.pushState({}, '', '/checkout?step=secret-step');
    await fetch('/api/missing?token=secret-token');
    NextTracker.captureException(new Error('client evidence', { cause: new TypeError('price missing') }));
  })()`);
  await h.ingest.waitFor(() => h.ingest.posts('/ingest/error').length == 1);
  const event = h.ingest.posts('/ingest/error')[0].body;
  const origin = h.site.origin;
  assert.equal(event.sdk.name, 'tracker.browser');
  assert.deepEqual(
    event.breadcrumbs.map(({ timestamp: _timestamp, ...rest }: { timestamp: string }) => rest),
    [
      { category: 'ui.click', message: 'button#buy.cta' },
      { category: 'console', level: 'warning', message: 'cart stale' },
      { category: 'navigation', data: { from: origin + '/next-page.html', to: origin + '/checkout' } },
      { category: 'fetch', level: 'warning', data: { method: 'GET', url: origin + '/api/missing', status: 404 } },
    ],
  );
  assert.deepEqual(
    event.causes.map((c: { type: string; message: string }) => [c.type, c.message]),
    [['TypeError', 'price missing']],
  );
  assert.deepEqual(pageErrors, []);
  await page.context().close();
});
