import { Form, Link } from '@remix-run/react';
import { FormError } from '../../components/field';
import { ASSIGNED, MAX_QUERY_CHARS, SORTS, type Filters, type Status } from './list-params';

/** The search box and filters (a GET form: the URL is the state). */
export function IssueFilters({
  filters,
  current,
  filtered,
  queryError,
}: {
  filters: Filters;
  current: Status;
  filtered: boolean;
  queryError: string | null;
}) {
  return (
    <Form method="get" className="filters" aria-label="Filter issues">
      <input type="hidden" name="status" value={current.param} />
      {filters.q && <input type="hidden" name="q" value={filters.q} />}
      <label className="inline-field search-field">
        <span>Search</span>
        <input
          type="search"
          name="query"
          defaultValue={filters.query}
          maxLength={MAX_QUERY_CHARS}
          placeholder='is:unresolved level:error browser.name:Chrome "card declined"'
          aria-invalid={queryError ? true : undefined}
          aria-describedby={queryError ? 'query-error query-hint' : 'query-hint'}
        />
      </label>
      {/* On a phone these fold under "Filters" (open when one is set) so the first issue shows
          without scrolling; on a wider screen the CSS lays them out inline, folded or not. */}
      <details className="filter-more" open={filtered || filters.sort !== 'last-seen' || undefined}>
        <summary>Filters</summary>
        <div className="filter-more-fields">
          <label className="inline-field">
            <span>Environment</span>
            <input type="text" name="environment" defaultValue={filters.environment} maxLength={100} />
          </label>
          <label className="inline-field">
            <span>Release</span>
            <input type="text" name="release" defaultValue={filters.release} maxLength={200} />
          </label>
          <label className="inline-field">
            <span>Assignee</span>
            <select name="assigned" defaultValue={filters.assigned}>
              {ASSIGNED.map((a) => (
                <option key={a.param} value={a.param}>
                  {a.label}
                </option>
              ))}
            </select>
          </label>
          <label className="inline-field">
            <span>Sort by</span>
            <select name="sort" defaultValue={filters.sort}>
              {SORTS.map((s) => (
                <option key={s.param} value={s.param}>
                  {s.label}
                </option>
              ))}
            </select>
          </label>
        </div>
      </details>
      <button type="submit" className="button">
        Apply
      </button>
      {(filtered || filters.sort !== 'last-seen') && <Link to={`?status=${current.param}`}>Clear</Link>}
      <p id="query-hint" className="hint search-hint">
        Words match the type and message. Keys: is:, level:, release:, environment:, assigned:me|none|email,
        user.email:, user.id:, first-seen:-24h, last-seen:-1h, times-seen:&gt;100, any tag as key:value; ! negates,
        &quot;quotes&quot; keep spaces.
      </p>
      {queryError && (
        <p id="query-error" className="form-error search-error" role="alert">
          {queryError}
        </p>
      )}
    </Form>
  );
}

/** Saves the current search as a tab. */
export function SaveSearchForm({ query, error }: { query: string; error: string | null | undefined }) {
  return (
    <Form method="post" className="save-search" aria-label="Save this search">
      <input type="hidden" name="query" value={query} />
      <label className="inline-field">
        <span>Name</span>
        <input type="text" name="name" required maxLength={64} placeholder="Chrome regressions" />
      </label>
      <button type="submit" name="intent" value="save-search" className="button">
        Save this search
      </button>
      <FormError message={error} />
    </Form>
  );
}
