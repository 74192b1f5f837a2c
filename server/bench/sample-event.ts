/**
 * A realistic browser error: a real V8 stack (15 frames), tags, user, context. ~2 KB. With
 * `breadcrumbs`, that many breadcrumbs as the browser SDK records them (issue 29's ingest target
 * is measured with 50: TRACKER_BENCH_BREADCRUMBS=50 in the ingest bench).
 */
export function sampleEvent(breadcrumbs = 0): Record<string, unknown> {
  const bundle = 'https://shop.example.com/assets';
  const stack = [
    "TypeError: Cannot read properties of undefined (reading 'unitPrice')",
    `    at lineTotal (${bundle}/checkout-5c1f2a9e.js:1:48213)`,
    `    at Array.reduce (<anonymous>)`,
    `    at computeCartTotals (${bundle}/checkout-5c1f2a9e.js:1:48502)`,
    `    at CartSummary (${bundle}/checkout-5c1f2a9e.js:1:51877)`,
    `    at renderWithHooks (${bundle}/vendor-react-9b7d2c41.js:2:38471)`,
    `    at updateFunctionComponent (${bundle}/vendor-react-9b7d2c41.js:2:42911)`,
    `    at beginWork (${bundle}/vendor-react-9b7d2c41.js:2:61203)`,
    `    at performUnitOfWork (${bundle}/vendor-react-9b7d2c41.js:2:95120)`,
    `    at workLoopSync (${bundle}/vendor-react-9b7d2c41.js:2:94987)`,
    `    at renderRootSync (${bundle}/vendor-react-9b7d2c41.js:2:94702)`,
    `    at performSyncWorkOnRoot (${bundle}/vendor-react-9b7d2c41.js:2:91431)`,
    `    at flushSyncCallbacks (${bundle}/vendor-react-9b7d2c41.js:2:20511)`,
    `    at batchedUpdates$1 (${bundle}/vendor-react-9b7d2c41.js:2:88213)`,
    `    at dispatchDiscreteEvent (${bundle}/vendor-react-9b7d2c41.js:2:71790)`,
    `    at HTMLDocument.<anonymous> (${bundle}/index-0d3e8f77.js:1:2210)`,
  ].join('\n');
  return {
    message: "Cannot read properties of undefined (reading 'unitPrice')",
    type: 'TypeError',
    environment: 'production',
    level: 'error',
    release: 'shop-web@2024.11.3+5c1f2a9',
    stack,
    handled: false,
    url: 'https://shop.example.com/checkout?step=review',
    timestamp: new Date().toISOString(),
    tags: {
      browser: 'Chrome 131',
      os: 'Windows 11',
      locale: 'de-DE',
      route: '/checkout/:step',
      plan: 'pro',
      ab_test: 'checkout-v2',
    },
    user: { id: '48213', email: 'anna.schmidt@example.org', username: 'anna.s', segment: 'returning' },
    context: {
      browser: { name: 'Chrome', version: '131.0.6778.86' },
      os: { name: 'Windows', version: '11' },
      device: { type: 'desktop', viewport: '1536x864', devicePixelRatio: 1.25 },
      cart: { items: 3, currency: 'EUR', couponApplied: true },
      breadcrumbs: ['navigation /cart → /checkout', 'click button#continue', 'xhr POST /api/cart/validate 200'],
    },
    sdk: { name: '@tracker/browser', version: '0.1.0' },
    ...(breadcrumbs > 0 ? { breadcrumbs: sampleBreadcrumbs(breadcrumbs) } : {}),
  };
}

function sampleBreadcrumbs(count: number): Array<Record<string, unknown>> {
  const start = Date.now() - count * 1000;
  const kinds = [
    { category: 'ui.click', message: 'button#continue.primary' },
    { category: 'navigation', data: { from: '/cart', to: '/checkout' } },
    { category: 'console', level: 'warning', message: 'Price list is stale, refetching' },
    {
      category: 'fetch',
      level: 'error',
      data: { method: 'POST', url: 'https://shop.example.com/api/cart/validate', status_code: 500 },
    },
  ];
  return Array.from({ length: count }, (_, i) => ({
    timestamp: new Date(start + i * 1000).toISOString(),
    ...kinds[i % kinds.length],
  }));
}
