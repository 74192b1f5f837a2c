import { Form, Link } from '@remix-run/react';
import { STATUSES, listQuery, type Filters, type Status } from './list-params';

/** The status tabs; a query that names the status itself (`is:`) leaves none of them current. */
export function StatusTabs({
  filters,
  current,
  statusFromQuery,
}: {
  filters: Filters;
  current: Status;
  statusFromQuery: boolean;
}) {
  return (
    <nav aria-label="Issue status" className="tabs tabs-secondary">
      {STATUSES.map((s) => (
        <Link
          key={s.param}
          to={listQuery(filters, s.param)}
          aria-current={s.param === current.param && !statusFromQuery ? 'page' : undefined}
        >
          {s.label}
        </Link>
      ))}
    </nav>
  );
}

/** Saved searches as tabs, each with its delete button. */
export function SavedSearchTabs({
  filters,
  current,
  savedSearches,
}: {
  filters: Filters;
  current: Status;
  savedSearches: Array<{ id: string; name: string; query: string }>;
}) {
  if (savedSearches.length === 0) return null;
  return (
    <nav aria-label="Saved searches" className="tabs tabs-secondary saved-searches">
      <Link
        to={listQuery({ ...filters, query: '' }, current.param)}
        aria-current={filters.query === '' ? 'page' : undefined}
      >
        All
      </Link>
      {savedSearches.map((s) => (
        <span key={s.id} className="saved-search">
          <Link
            to={listQuery({ ...filters, query: s.query }, current.param)}
            aria-current={filters.query === s.query ? 'page' : undefined}
            title={s.query}
          >
            {s.name}
          </Link>
          <Form method="post" className="saved-search-delete">
            <input type="hidden" name="id" value={s.id} />
            <button
              type="submit"
              name="intent"
              value="delete-saved-search"
              aria-label={`Delete the saved search ${s.name}`}
              title="Delete this saved search"
            >
              ×
            </button>
          </Form>
        </span>
      ))}
    </nav>
  );
}
