import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, useLoaderData } from '@remix-run/react';
import { TrendChart, VitalCard, VitalValue } from '../components/vitals';
import { UrlText } from '../components/url-text';
import { readFilter } from '../lib/filters';
import { formatDateTime, formatNumber } from '../lib/format';
import { queryApi } from '../lib/graphql.server';
import { visibleText } from '../lib/visible-text';
import { METRICS, parseRange, RANGES, type VitalMetric } from '../lib/vitals';
import { graphql } from '../graphql';

export const meta: MetaFunction = () => [{ title: 'Performance · Tracker' }];

/** The per-page table shows the busiest pages; the API allows up to 100. */
const TOP_PAGES = 20;

// One request for the whole page: summary, per-page figures, the series and the releases that
// feed the filter suggestions. The same filter goes to all three vitals fields.
const PERFORMANCE_QUERY = graphql(`
  query ProjectVitals($projectId: ID!, $filter: VitalsFilter!, $interval: VitalsInterval!, $first: Int!) {
    vitals(projectId: $projectId, filter: $filter) {
      from
      to
      pageViews
      metrics {
        metric
        count
        p75
        goodShare
        needsImprovementShare
        poorShare
        thresholds {
          good
          poor
        }
      }
    }
    vitalsByUrl(projectId: $projectId, filter: $filter, first: $first) {
      url
      pageViews
      metrics {
        metric
        p75
      }
    }
    vitalsTimeSeries(projectId: $projectId, filter: $filter, interval: $interval) {
      interval
      buckets {
        start
        pageViews
        lcp
        inp
        cls
        fcp
        ttfb
      }
    }
    releases(projectId: $projectId, first: 100) {
      version
      environment
    }
  }
`);

export async function loader(args: LoaderFunctionArgs) {
  const url = new URL(args.request.url);
  const range = parseRange(url.searchParams.get('range'));
  const environment = readFilter(url, 'environment');
  const release = readFilter(url, 'release');
  const to = new Date();
  const from = new Date(to.getTime() - range.ms);
  const result = await queryApi(args, PERFORMANCE_QUERY, {
    projectId: args.params.projectId ?? '',
    filter: { environment, release, from: from.toISOString(), to: to.toISOString() },
    interval: range.interval,
    first: TOP_PAGES,
  });
  return {
    range: range.param,
    environment,
    release,
    ...result,
    environments: [...new Set(result.releases.map((r) => r.environment))].sort(),
    versions: [...new Set(result.releases.map((r) => r.version))],
  };
}

export default function PerformancePage() {
  const { range, environment, release, vitals, vitalsByUrl, vitalsTimeSeries, environments, versions } =
    useLoaderData<typeof loader>();
  return (
    <div className="stack">
      <Form method="get" className="card form form-inline filters" aria-label="Filters">
        <div className="field">
          <label htmlFor="range">Time range</label>
          <select id="range" name="range" defaultValue={range}>
            {RANGES.map((r) => (
              <option key={r.param} value={r.param}>
                {r.label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="environment">Environment</label>
          <input
            id="environment"
            name="environment"
            defaultValue={environment ?? ''}
            list="environments"
            placeholder="All"
          />
          <datalist id="environments">
            {environments.map((e) => (
              <option key={e} value={e} />
            ))}
          </datalist>
        </div>
        <div className="field">
          <label htmlFor="release">Release</label>
          <input id="release" name="release" defaultValue={release ?? ''} list="versions" placeholder="All" />
          <datalist id="versions">
            {versions.map((v) => (
              <option key={v} value={v} />
            ))}
          </datalist>
        </div>
        <button type="submit" className="button">
          Apply
        </button>
      </Form>

      <p className="muted">
        {formatNumber(vitals.pageViews)} page view{vitals.pageViews === 1 ? '' : 's'} from {formatDateTime(vitals.from)}{' '}
        to {formatDateTime(vitals.to)}
        {environment && <> in {visibleText(environment)}</>}
        {release && <>, release {visibleText(release)}</>}. Values are the 75th percentile; ms except CLS.
      </p>

      {vitals.pageViews === 0 ? (
        <section className="card empty">
          <h2>No Web Vitals in this range</h2>
          <p className="muted">
            The browser SDK (<code>@tracker/browser</code>, and <code>@tracker/next</code> in the browser) sends them by
            default: each page view reports once, when the page is hidden. None arrived, so either no page using the SDK
            was viewed in this range, or the SDK was set up with <code>vitals: false</code> or{' '}
            <code>vitalsSampleRate: 0</code>. Server-side SDKs send none.
          </p>
        </section>
      ) : (
        <>
          <div className="vital-grid">
            {vitals.metrics.map((m) => (
              <VitalCard key={m.metric} stats={m} />
            ))}
          </div>

          <section className="card" aria-labelledby="pages-heading">
            <h2 id="pages-heading">Pages</h2>
            <div className="table-scroll" tabIndex={0}>
              <table className="data-table vitals-table">
                <thead>
                  <tr>
                    <th scope="col">URL</th>
                    <th scope="col" className="num">
                      Page views
                    </th>
                    {METRICS.map((m) => (
                      <th key={m} scope="col" className="num">
                        {m}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {vitalsByUrl.map((page) => (
                    <tr key={page.url}>
                      <th scope="row" className="break mono">
                        <UrlText url={page.url} />
                      </th>
                      <td className="num">{formatNumber(page.pageViews)}</td>
                      {METRICS.map((m) => (
                        <td key={m} className="num">
                          <VitalValue metric={m} value={page.metrics.find((x) => x.metric === m)?.p75 ?? null} />
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>

          <section className="card" aria-labelledby="trend-heading">
            <h2 id="trend-heading">Trend</h2>
            <p className="hint">
              p75 per {vitalsTimeSeries.interval === 'DAY' ? 'day' : 'hour'}; dashed lines mark good and poor.
            </p>
            <div className="trend-grid">
              {METRICS.map((m) => (
                <TrendChart
                  key={m}
                  metric={m}
                  buckets={vitalsTimeSeries.buckets.map((b) => ({
                    start: b.start,
                    value: b[m.toLowerCase() as Lowercase<VitalMetric>],
                  }))}
                />
              ))}
            </div>
          </section>
        </>
      )}
    </div>
  );
}
