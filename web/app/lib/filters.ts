// Filters read from GET query parameters. Anything can arrive in a URL: values are trimmed and
// bounded here, and the API validates them again (it is the authority; this keeps URLs tidy).

/** The API's own bound for environment and release names. */
const MAX_FILTER_LENGTH = 200;

/** A trimmed, non-empty parameter, or null (the API then does not filter on it). */
export function readFilter(url: URL, name: string): string | null {
  const value = url.searchParams.get(name)?.trim();
  return value ? value.slice(0, MAX_FILTER_LENGTH) : null;
}

/**
 * The same page with some parameters changed; null or '' removes one. Takes a URL (loaders) or
 * Remix's location (components).
 */
export function withParams(url: { pathname: string; search: string }, changes: Record<string, string | null>): string {
  const params = new URLSearchParams(url.search);
  for (const [name, value] of Object.entries(changes)) {
    if (value === null || value === '') params.delete(name);
    else params.set(name, value);
  }
  const search = params.toString();
  return search ? `${url.pathname}?${search}` : url.pathname;
}
