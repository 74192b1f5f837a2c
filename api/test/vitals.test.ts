/**
 * Web Vitals reads against a real Postgres: every figure is recomputed here, in plain JS, from
 * the seeded reports (sort and interpolate, as percentile_cont defines it), and compared.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { persistVitals, type PreparedVitals } from '@tracker/core';
import { createHarness, seededRandom, type Harness, type Tenant } from './read-harness';

const METRICS = ['LCP', 'INP', 'CLS', 'FCP', 'TTFB'] as const;
type Metric = (typeof METRICS)[number];
const COLUMN = { LCP: 'lcp', INP: 'inp', CLS: 'cls', FCP: 'fcp', TTFB: 'ttfb' } as const;
// Written out again from web.dev, not imported: the test checks the code's copy.
const THRESHOLDS: Record<Metric, [number, number]> = {
  LCP: [2500, 4000],
  INP: [200, 500],
  CLS: [0.1, 0.25],
  FCP: [1800, 3000],
  TTFB: [800, 1800],
};
const HOUR = 3_600_000;
const T0 = Date.parse('2026-03-02T00:00:00.000Z');
const EMPTY_HOUR = 10;

/** percentile_cont: position (n − 1)·p of the sorted values, interpolated linearly. */
function percentileCont(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const h = (s.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.ceil(h);
  return s[lo] + (h - lo) * (s[hi] - s[lo]);
}

function expected(rows: PreparedVitals[], metric: Metric) {
  const values = rows.map((r) => r[COLUMN[metric]]).filter((v): v is number => v !== null);
  const [good, poor] = THRESHOLDS[metric];
  const g = values.filter((v) => v <= good).length;
  const p = values.filter((v) => v > poor).length;
  const ni = values.length - g - p;
  return {
    metric,
    unit: metric === 'CLS' ? 'score' : 'ms',
    count: values.length,
    p50: percentileCont(values, 0.5),
    p75: percentileCont(values, 0.75),
    p95: percentileCont(values, 0.95),
    good: g,
    needsImprovement: ni,
    poor: p,
    goodShare: values.length ? g / values.length : null,
    needsImprovementShare: values.length ? ni / values.length : null,
    poorShare: values.length ? p / values.length : null,
    thresholds: { good, poor },
  };
}

function close(actual: number | null, wanted: number | null, what: string) {
  if (wanted === null) return assert.equal(actual, null, what);
  assert.ok(
    actual !== null && Math.abs(actual - wanted) <= 1e-9 * Math.max(1, Math.abs(wanted)),
    `${what}: ${actual} ≠ ${wanted}`,
  );
}

function assertStats(actual: any[], rows: PreparedVitals[], what: string) {
  assert.deepEqual(
    actual.map((m) => m.metric),
    [...METRICS],
    `${what}: all five metrics in order`,
  );
  for (const m of actual) {
    const e = expected(rows, m.metric);
    for (const k of ['p50', 'p75', 'p95', 'goodShare', 'needsImprovementShare', 'poorShare'] as const)
      close(m[k], e[k], `${what} ${m.metric}.${k}`);
    for (const k of ['unit', 'count', 'good', 'needsImprovement', 'poor', 'thresholds'] as const)
      assert.deepEqual(m[k], e[k], `${what} ${m.metric}.${k}`);
  }
}

const STATS = `metric unit count p50 p75 p95 good needsImprovement poor goodShare needsImprovementShare poorShare thresholds { good poor }`;
const VITALS = `query($p: ID!, $f: VitalsFilter) { vitals(projectId: $p, filter: $f) { from to pageViews metrics { ${STATS} } } }`;
const BY_URL = `query($p: ID!, $f: VitalsFilter, $n: Int) { vitalsByUrl(projectId: $p, filter: $f, first: $n) { url pageViews metrics { ${STATS} } } }`;
const SERIES = `query($p: ID!, $f: VitalsFilter, $i: VitalsInterval) { vitalsTimeSeries(projectId: $p, filter: $f, interval: $i) { interval from to buckets { start pageViews lcp inp cls fcp ttfb } } }`;

describe('Web Vitals queries', () => {
  let h: Harness;
  let owner: Tenant;
  let other: Tenant;
  const reports: PreparedVitals[] = [];
  const WINDOW = { from: new Date(T0).toISOString(), to: new Date(T0 + 48 * HOUR).toISOString() };

  before(async () => {
    h = await createHarness();
    owner = await h.tenant();
    other = await h.tenant();
    const rnd = seededRandom(6);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
    const value = (p: number, lo: number, hi: number, digits = 0) =>
      rnd() < p ? Number((lo + rnd() * (hi - lo)).toFixed(digits)) : null;
    for (let i = 0; i < 300; i++) {
      let at = T0 + Math.floor(rnd() * 48 * HOUR);
      if (Math.floor((at - T0) / HOUR) === EMPTY_HOUR) at += HOUR;
      const r: PreparedVitals = {
        projectId: owner.project,
        id: randomUUID(),
        url: pick(['/', '/', '/', '/pricing', '/pricing', '/docs']),
        lcp: value(0.95, 400, 6000),
        inp: value(0.6, 16, 900),
        cls: value(0.9, 0, 0.5, 3),
        fcp: value(0.95, 300, 4500),
        ttfb: value(0.9, 40, 2500),
        environment: rnd() < 0.75 ? 'production' : 'staging',
        release: pick(['1.0', '1.1', null]),
        tags: {},
        receivedAt: new Date(at),
      };
      // Values exactly on the thresholds: good is "at most", poor is "above".
      if (i % 25 === 0) Object.assign(r, { lcp: 2500, inp: 500, cls: 0.1, fcp: 3000, ttfb: 800 });
      if (i % 25 === 1) Object.assign(r, { lcp: 4000, inp: 200, cls: 0.25, fcp: 1800, ttfb: 1800 });
      reports.push(r);
    }
    // Outside the window: recent page views (the default range) and another tenant's.
    const recent = [1, 2, 3].map((k) => ({
      ...reports[k],
      id: randomUUID(),
      url: '/recent',
      receivedAt: new Date(Date.now() - k * HOUR),
    }));
    const foreign = reports.slice(0, 20).map((r) => ({ ...r, projectId: other.project }));
    await h.db.ds.transaction((em) => persistVitals(em, [...reports, ...recent, ...foreign]));
  });
  after(() => h.close());

  test('p50/p75/p95, counts and rating shares over all pages match an independent computation', async () => {
    const d = await h.ok(VITALS, { p: owner.project, f: WINDOW }, owner.token);
    assert.equal(d.vitals.pageViews, reports.length);
    assert.equal(d.vitals.from, WINDOW.from);
    assertStats(d.vitals.metrics, reports, 'all');
    // The seed must exercise every rating of every metric, or the shares prove little.
    for (const m of d.vitals.metrics)
      assert.ok(m.good > 0 && m.needsImprovement > 0 && m.poor > 0, `${m.metric} ratings`);
  });

  test('filters by environment, release, page and time range (from ≤ t < to)', async () => {
    const cases: Array<[Record<string, string>, (r: PreparedVitals) => boolean]> = [
      [{ environment: 'production' }, (r) => r.environment === 'production'],
      [{ environment: 'staging', release: '1.1' }, (r) => r.environment === 'staging' && r.release === '1.1'],
      [{ url: '/pricing' }, (r) => r.url === '/pricing'],
      [{ release: 'nope' }, () => false],
    ];
    for (const [filter, keep] of cases) {
      const d = await h.ok(VITALS, { p: owner.project, f: { ...WINDOW, ...filter } }, owner.token);
      const rows = reports.filter(keep);
      assert.equal(d.vitals.pageViews, rows.length, JSON.stringify(filter));
      assertStats(d.vitals.metrics, rows, JSON.stringify(filter));
    }
    // A range that starts exactly on one report's time and ends exactly on another's.
    const sorted = [...reports].sort((a, b) => a.receivedAt.getTime() - b.receivedAt.getTime());
    const from = sorted[50].receivedAt;
    const to = sorted[200].receivedAt;
    const d = await h.ok(
      VITALS,
      { p: owner.project, f: { from: from.toISOString(), to: to.toISOString() } },
      owner.token,
    );
    const rows = reports.filter((r) => r.receivedAt >= from && r.receivedAt < to);
    assert.equal(d.vitals.pageViews, rows.length);
    assertStats(d.vitals.metrics, rows, 'range');
  });

  test('with no range: the last 7 days', async () => {
    const d = await h.ok(VITALS, { p: owner.project }, owner.token);
    assert.equal(d.vitals.pageViews, 3);
    assert.equal(Date.parse(d.vitals.to) - Date.parse(d.vitals.from), 7 * 24 * HOUR);
    assert.ok(Math.abs(Date.parse(d.vitals.to) - Date.now()) < 60_000);
  });

  test('per page URL: most viewed first, each with its own figures; first limits the list', async () => {
    const d = await h.ok(BY_URL, { p: owner.project, f: { ...WINDOW, environment: 'production' } }, owner.token);
    const prod = reports.filter((r) => r.environment === 'production');
    const views = new Map<string, number>();
    for (const r of prod) views.set(r.url!, (views.get(r.url!) ?? 0) + 1);
    const order = [...views].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    assert.deepEqual(
      d.vitalsByUrl.map((p: any) => [p.url, p.pageViews]),
      order,
    );
    for (const page of d.vitalsByUrl)
      assertStats(
        page.metrics,
        prod.filter((r) => r.url === page.url),
        page.url,
      );
    const top = await h.ok(BY_URL, { p: owner.project, f: WINDOW, n: 1 }, owner.token);
    assert.equal(top.vitalsByUrl.length, 1);
    assert.equal(top.vitalsByUrl[0].url, '/');
    assert.equal(await h.code(BY_URL, { p: owner.project, n: 101 }, owner.token), 'BAD_USER_INPUT');
    assert.equal(await h.code(BY_URL, { p: owner.project, n: 0 }, owner.token), 'BAD_USER_INPUT');
    const none = await h.ok(BY_URL, { p: owner.project, f: { ...WINDOW, release: 'nope' } }, owner.token);
    assert.deepEqual(none.vitalsByUrl, []);
  });

  test('hourly and daily series: every bucket present, p75 per metric matches, empty buckets null', async () => {
    const d = await h.ok(SERIES, { p: owner.project, f: { ...WINDOW, release: '1.0' }, i: 'HOUR' }, owner.token);
    const series = d.vitalsTimeSeries;
    assert.equal(series.interval, 'HOUR');
    assert.equal(series.buckets.length, 48);
    const rows = reports.filter((r) => r.release === '1.0');
    series.buckets.forEach((b: any, i: number) => {
      const start = T0 + i * HOUR;
      assert.equal(b.start, new Date(start).toISOString());
      const inside = rows.filter((r) => r.receivedAt.getTime() >= start && r.receivedAt.getTime() < start + HOUR);
      assert.equal(b.pageViews, inside.length, `bucket ${i}`);
      for (const m of METRICS) close(b[COLUMN[m]], expected(inside, m).p75, `bucket ${i} ${m}`);
    });
    assert.deepEqual(series.buckets[EMPTY_HOUR], {
      start: new Date(T0 + EMPTY_HOUR * HOUR).toISOString(),
      pageViews: 0,
      lcp: null,
      inp: null,
      cls: null,
      fcp: null,
      ttfb: null,
    });

    const daily = await h.ok(SERIES, { p: owner.project, f: WINDOW, i: 'DAY' }, owner.token);
    assert.equal(daily.vitalsTimeSeries.buckets.length, 2);
    daily.vitalsTimeSeries.buckets.forEach((b: any, i: number) => {
      const inside = reports.filter((r) => Math.floor((r.receivedAt.getTime() - T0) / (24 * HOUR)) === i);
      assert.equal(b.pageViews, inside.length);
      for (const m of METRICS) close(b[COLUMN[m]], expected(inside, m).p75, `day ${i} ${m}`);
    });
  });

  test('bad filters answer BAD_USER_INPUT naming the field', async () => {
    const bad: Array<[Record<string, unknown>, RegExp]> = [
      [{ from: WINDOW.to, to: WINDOW.from }, /^from: must be before to/],
      [{ from: 'yesterday' }, /^from: must be an ISO 8601/],
      [{ to: '2026-03-02' }, /^to: must be an ISO 8601/],
      [{ from: '2024-01-01T00:00:00Z', to: '2026-01-01T00:00:00Z' }, /^from: the range may span at most 366 days/],
      [{ environment: '' }, /^environment:/],
    ];
    for (const [f, message] of bad) {
      const r = await h.run(VITALS, { p: owner.project, f }, owner.token);
      assert.equal(r.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT', JSON.stringify(f));
      assert.match(r.errors[0].message, message);
    }
    const tooMany = await h.run(
      SERIES,
      { p: owner.project, f: { from: '2025-06-01T00:00:00Z', to: '2026-01-01T00:00:00Z' }, i: 'HOUR' },
      owner.token,
    );
    assert.equal(tooMany.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
    assert.match(tooMany.errors[0].message, /^interval: .* at most 1000/);
  });

  test("another tenant's project answers like a missing one; signed out is UNAUTHENTICATED", async () => {
    for (const q of [VITALS, BY_URL, SERIES]) {
      const foreign = await h.run(q, { p: owner.project }, other.token);
      const missing = await h.run(q, { p: randomUUID() }, other.token);
      assert.deepEqual(foreign, missing);
      assert.equal(foreign.errors[0].extensions.code, 'NOT_FOUND');
      assert.equal(await h.code(q, { p: owner.project }), 'UNAUTHENTICATED');
    }
    // The other tenant sees only its own 20 reports.
    const own = await h.ok(VITALS, { p: other.project, f: WINDOW }, other.token);
    assert.equal(own.vitals.pageViews, 20);
  });
});
