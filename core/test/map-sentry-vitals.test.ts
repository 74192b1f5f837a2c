import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { mapSentryVitals, reportIdOf } from '../src/sentry/map-sentry-vitals';

const TRACE = '1bd808eb08c243a9bcece01d336a5dcc';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const attr = (value: unknown) => ({ value, type: typeof value === 'number' ? 'double' : 'string' });

describe('mapSentryVitals (decision 046)', () => {
  test('a pageload transaction (@sentry/browser 8–10): its measurements, the page, the trace as the id', () => {
    const [v] = mapSentryVitals('transaction', {
      transaction: '/checkout',
      environment: 'prod',
      release: 'shop@1',
      tags: { plan: 'pro' },
      request: { url: 'https://shop.example/checkout?token=[Filtered]#pay' },
      contexts: { trace: { trace_id: TRACE, span_id: 'aa', op: 'pageload' } },
      measurements: {
        lcp: { value: 724, unit: 'millisecond' },
        fcp: { value: 0.5, unit: 'second' },
        ttfb: { value: 29.7, unit: 'millisecond' },
        fp: { value: 700, unit: 'millisecond' },
        'connection.rtt': { value: 100 },
      },
    });
    assert.deepEqual(v, {
      id: reportIdOf(TRACE),
      pageLoad: true,
      url: 'https://shop.example/checkout?token=[Filtered]#pay',
      metrics: { LCP: 724, FCP: 500, TTFB: 29.7 },
      environment: 'prod',
      release: 'shop@1',
      tags: { plan: 'pro' },
    });
    assert.match(v.id, UUID);
  });

  test('other transactions, and a page load without a trace or any metric, carry no vitals', () => {
    const trace = { trace_id: TRACE, op: 'pageload' };
    assert.deepEqual(
      mapSentryVitals('transaction', {
        contexts: { trace: { ...trace, op: 'http.server' } },
        measurements: { lcp: { value: 1 } },
      }),
      [],
    );
    assert.deepEqual(
      mapSentryVitals('transaction', { contexts: { trace: { op: 'pageload' } }, measurements: { lcp: { value: 1 } } }),
      [],
    );
    assert.deepEqual(mapSentryVitals('transaction', { contexts: { trace }, measurements: { fp: { value: 1 } } }), []);
    for (const junk of [null, [], 'x', 7]) assert.deepEqual(mapSentryVitals('transaction', junk), []);
  });

  test('absurd measurements are left out, the rest kept', () => {
    const [v] = mapSentryVitals('transaction', {
      contexts: { trace: { trace_id: TRACE, op: 'pageload' } },
      request: { url: 'https://shop.example/' },
      measurements: {
        lcp: { value: -5 },
        fcp: { value: 'NaN' },
        ttfb: { value: 1e308 },
        inp: { value: 'Infinity' },
        cls: { value: '0.25' },
      },
    });
    assert.deepEqual(v.metrics, { CLS: 0.25 });
    assert.deepEqual(
      mapSentryVitals('transaction', {
        contexts: { trace: { trace_id: TRACE, op: 'pageload' } },
        measurements: { cls: { value: 101 }, lcp: { value: 3_600_001 } },
      }),
      [],
    );
  });

  test('a v1 INP span (10) has the report id of its trace and no page', () => {
    const [v] = mapSentryVitals('span', {
      trace_id: TRACE,
      op: 'ui.interaction.click',
      data: { release: 'r1', environment: 'vt', transaction: '/checkout' },
      measurements: { inp: { value: 128, unit: 'millisecond' } },
    });
    assert.deepEqual(v, {
      id: reportIdOf(TRACE),
      pageLoad: false,
      url: undefined,
      metrics: { INP: 128 },
      environment: 'vt',
      release: 'r1',
    });
  });

  test('streamed v2 spans (11): the pageload segment names the page; vitals spans of one trace fold into one piece', () => {
    const spans = {
      version: 2,
      items: [
        { trace_id: TRACE, attributes: { 'sentry.op': attr('browser.paint') } },
        {
          trace_id: TRACE,
          attributes: {
            'sentry.op': attr('ui.interaction.click'),
            'browser.web_vital.inp.value': attr(136),
            'sentry.environment': attr('vt'),
          },
        },
        {
          trace_id: TRACE,
          attributes: { 'sentry.op': attr('ui.webvital.cls'), 'browser.web_vital.cls.value': attr(0) },
        },
      ],
    };
    assert.deepEqual(mapSentryVitals('span', spans), [
      {
        id: reportIdOf(TRACE),
        pageLoad: false,
        url: undefined,
        metrics: { INP: 136, CLS: 0 },
        environment: 'vt',
        release: undefined,
        tags: undefined,
      },
    ]);
    const [page] = mapSentryVitals('span', {
      version: 2,
      items: [
        {
          trace_id: TRACE,
          is_segment: true,
          attributes: {
            'sentry.op': attr('pageload'),
            'url.full': attr('http://127.0.0.1/checkout?token=[Filtered]#frag'),
            'browser.web_vital.fcp.value': attr(272),
            'browser.web_vital.ttfb.value': attr(99.9),
            'browser.web_vital.fp.value': attr(272),
            'sentry.release': attr('r1'),
          },
        },
      ],
    });
    assert.equal(page.pageLoad, true);
    assert.equal(page.url, 'http://127.0.0.1/checkout?token=[Filtered]#frag');
    assert.deepEqual(page.metrics, { FCP: 272, TTFB: 99.9 });
    assert.equal(page.release, 'r1');
    assert.deepEqual(
      mapSentryVitals('span', { version: 2, items: [{ trace_id: TRACE, attributes: { 'sentry.op': attr('db') } }] }),
      [],
    );
  });

  test('the report id depends on the trace only, and differs between traces', () => {
    assert.equal(reportIdOf(TRACE), reportIdOf(TRACE.toUpperCase()));
    assert.notEqual(reportIdOf(TRACE), reportIdOf('2dcd49953b2e4f15adb8620c2b6eb04b'));
  });
});
