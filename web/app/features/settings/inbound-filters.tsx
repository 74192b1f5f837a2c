import { Form } from '@remix-run/react';
import type { ProjectInboundFiltersQuery } from '../../graphql/graphql';
import { INBOUND_FILTERS_INTENT } from './inbound-filters.intent';
import { Section, type SectionData } from './settings-section';

type Filters = ProjectInboundFiltersQuery['projectInboundFilters'];
type Props = { filters: SectionData<ProjectInboundFiltersQuery>; busy: boolean };

const LABELS: Record<string, { name: string; hint: string }> = {
  BROWSER_EXTENSIONS: {
    name: 'Browser extensions',
    hint: 'Errors with chrome-extension://, moz-extension:// or safari-extension:// frames.',
  },
  LOCALHOST: { name: 'Localhost', hint: 'Errors from pages on localhost, 127.0.0.1 or ::1.' },
  LEGACY_BROWSERS: { name: 'Legacy browsers', hint: 'Errors from browsers older than the minimum versions below.' },
  WEB_CRAWLERS: {
    name: 'Web crawlers',
    hint: 'Errors whose User-Agent is a search engine, preview or monitoring bot.',
  },
  ERROR_MESSAGES: { name: 'Error messages', hint: 'Messages matching a pattern below.' },
  RELEASES: { name: 'Releases', hint: 'Releases matching a pattern below.' },
};

const BROWSER_NAMES: Record<string, string> = {
  CHROME: 'Chrome',
  EDGE: 'Edge',
  FIREFOX: 'Firefox',
  SAFARI: 'Safari',
  OPERA: 'Opera',
  SAMSUNG: 'Samsung Internet',
  IE: 'Internet Explorer',
};

/**
 * Inbound filters (issue 31): what the ingest edge drops before the quota is counted, and how
 * many events each filter dropped in the last 30 days. Members see them; owners and admins
 * change them (the API refuses anyone else, and its message is shown).
 */
export function InboundFiltersSection({ filters, busy }: Props) {
  const f = filters.data?.projectInboundFilters;
  return (
    <Section id="inbound-filters-heading" title="Inbound filters">
      <p className="muted">
        Error events these filters match are dropped at ingest: they are not stored and do not count toward the monthly
        quota.
      </p>
      {!f ? <p className="muted">{filters.reason}</p> : <FiltersBody f={f} busy={busy} />}
    </Section>
  );
}

function FiltersBody({ f, busy }: { f: Filters; busy: boolean }) {
  const toggles = [
    ['browserExtensions', 'BROWSER_EXTENSIONS', f.browserExtensions],
    ['localhost', 'LOCALHOST', f.localhost],
    ['legacyBrowsers', 'LEGACY_BROWSERS', f.legacyBrowsers],
    ['webCrawlers', 'WEB_CRAWLERS', f.webCrawlers],
  ] as const;
  return (
    <>
      <table className="data-table" aria-label="Events dropped by each filter">
        <caption className="visually-hidden">Events dropped by each inbound filter in the last 30 days</caption>
        <thead>
          <tr>
            <th scope="col">Filter</th>
            <th scope="col">Dropped (30 days)</th>
          </tr>
        </thead>
        <tbody>
          {f.dropped.map((d) => (
            <tr key={d.filter} data-filter={d.filter}>
              <th scope="row">{LABELS[d.filter]?.name ?? d.filter}</th>
              <td className="num">{d.dropped.toLocaleString('en-US')}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Form method="post" className="stack inbound-filters" aria-label="Inbound filters">
        <fieldset disabled={busy}>
          <legend>Drop errors from</legend>
          {toggles.map(([name, label, on]) => (
            <div className="checkbox-row" key={name}>
              <input
                type="checkbox"
                id={`filter-${name}`}
                name={name}
                defaultChecked={on}
                aria-describedby={`filter-${name}-hint`}
              />
              <label htmlFor={`filter-${name}`}>{LABELS[label].name}</label>
              <span id={`filter-${name}-hint`} className="hint">
                {LABELS[label].hint}
              </span>
            </div>
          ))}
        </fieldset>
        <fieldset disabled={busy}>
          <legend>Minimum browser versions (older ones are legacy)</legend>
          <div className="min-versions">
            {f.legacyBrowserMinVersions.map((v) => (
              <div className="field" key={v.browser}>
                <label htmlFor={`min-${v.browser}`}>{BROWSER_NAMES[v.browser] ?? v.browser}</label>
                <input
                  id={`min-${v.browser}`}
                  name={`minVersion-${v.browser}`}
                  type="number"
                  min={0}
                  max={1000}
                  step={1}
                  inputMode="numeric"
                  defaultValue={v.minVersion}
                />
              </div>
            ))}
          </div>
        </fieldset>
        <fieldset disabled={busy}>
          <legend>Patterns</legend>
          <GlobField
            name="errorMessages"
            label="Error messages to drop"
            value={f.errorMessages}
            example="*ResizeObserver loop*"
          />
          <GlobField name="releases" label="Releases to drop" value={f.releases} example="*-dev" />
          <div className="checkbox-row">
            <input
              type="checkbox"
              id="filter-confirmDropAll"
              name="confirmDropAll"
              aria-describedby="filter-confirmDropAll-hint"
            />
            <label htmlFor="filter-confirmDropAll">Save even if a pattern matches everything</label>
            <span id="filter-confirmDropAll-hint" className="hint">
              A pattern such as * would drop every error event; it is refused unless this is ticked.
            </span>
          </div>
        </fieldset>
        <button type="submit" name="intent" value={INBOUND_FILTERS_INTENT} className="button" disabled={busy}>
          Save inbound filters
        </button>
      </Form>
    </>
  );
}

function GlobField({ name, label, value, example }: { name: string; label: string; value: string[]; example: string }) {
  const id = `filter-${name}`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea id={id} name={name} rows={3} defaultValue={value.join('\n')} aria-describedby={`${id}-hint`} />
      <p id={`${id}-hint`} className="hint">
        One glob per line, e.g. <code>{example}</code>: <code>*</code> any text, <code>?</code> one character,{' '}
        <code>{'{a,b}'}</code> either. At most 50, each up to 200 characters.
      </p>
    </div>
  );
}
