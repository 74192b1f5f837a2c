// The issues list's URL: status tab, filters, sort and cursor, read from and written to links.

// Discarded issues (their new events are dropped) are only listed under their own tab, whatever
// their status: the other tabs leave them out (docs/decisions/023-unmerge-snooze-discard.md).
export const STATUSES = [
  { param: 'open', value: 'OPEN', label: 'Open' },
  { param: 'resolved', value: 'RESOLVED', label: 'Resolved' },
  { param: 'snoozed', value: 'SNOOZED', label: 'Snoozed' },
  { param: 'discarded', value: null, label: 'Discarded' },
] as const;

export type Status = (typeof STATUSES)[number];

export const SORTS = [
  { param: 'last-seen', value: 'LAST_SEEN', label: 'Last seen' },
  { param: 'first-seen', value: 'FIRST_SEEN', label: 'First seen' },
  { param: 'events', value: 'EVENTS', label: 'Events' },
  { param: 'users', value: 'USERS', label: 'Users affected' },
] as const;

/** "Assigned to me" and "unassigned" (issue 19): the API's `assigned` filter. */
export const ASSIGNED = [
  { param: '', value: null, label: 'Anyone or no one' },
  { param: 'me', value: 'ME', label: 'Assigned to me' },
  { param: 'none', value: 'NONE', label: 'Unassigned' },
] as const;

/**
 * The list's GET parameters besides status and cursor: kept across tabs and pages. `query` is
 * the search language (docs/api.md); `q` is the older plain-text search, still read from links.
 */
export type Filters = {
  query: string;
  q: string;
  environment: string;
  release: string;
  sort: (typeof SORTS)[number]['param'];
  assigned: (typeof ASSIGNED)[number]['param'];
};

/** The API's limit on a query string. */
export const MAX_QUERY_CHARS = 1000;

/** A query that says `is:` (or `!is:`) chooses the status itself: the status tab then steps aside. */
export function queryNamesStatus(query: string): boolean {
  return /(^|\s)!?is:/.test(query);
}

/** Free-text parameters are trimmed and bounded (the API takes at most 200 characters of search). */
export function readFilters(url: URL): Filters {
  const text = (name: string, max: number) => (url.searchParams.get(name) ?? '').trim().slice(0, max);
  const sort = SORTS.find((s) => s.param === url.searchParams.get('sort'))?.param ?? 'last-seen';
  const assigned = ASSIGNED.find((a) => a.param && a.param === url.searchParams.get('assigned'))?.param ?? '';
  return {
    query: text('query', MAX_QUERY_CHARS),
    q: text('q', 200),
    environment: text('environment', 100),
    release: text('release', 200),
    sort,
    assigned,
  };
}

/** A list URL's query string with the given status and cursor and the current filters. */
export function listQuery(filters: Filters, status: string, after?: string | null): string {
  const params = new URLSearchParams({ status });
  if (filters.query) params.set('query', filters.query);
  if (filters.q) params.set('q', filters.q);
  if (filters.environment) params.set('environment', filters.environment);
  if (filters.release) params.set('release', filters.release);
  if (filters.sort !== 'last-seen') params.set('sort', filters.sort);
  if (filters.assigned) params.set('assigned', filters.assigned);
  if (after) params.set('after', after);
  return `?${params}`;
}

/** `?status=` takes the tab name in any case; anything else shows open issues. */
export function parseStatus(param: string | null): Status {
  return STATUSES.find((s) => s.param === param?.toLowerCase()) ?? STATUSES[0];
}
