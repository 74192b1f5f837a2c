// Ids come from the API (and from the URL); always encoded before they go into a path.

export function projectPath(projectId: string, section?: string): string {
  const base = `/projects/${encodeURIComponent(projectId)}`;
  return section ? `${base}/${section}` : base;
}

export function issuePath(projectId: string, issueId: string): string {
  return `${projectPath(projectId, 'issues')}/${encodeURIComponent(issueId)}`;
}

/** The stored event as JSON (`?download=1` for a file): a resource route, not a page. */
export function eventJsonPath(projectId: string, issueId: string, eventId: string): string {
  return `${issuePath(projectId, issueId)}/events/${encodeURIComponent(eventId)}.json`;
}

/**
 * A release's detail page. Versions may hold `@`, `/` and `+`: encoded as one path segment
 * (`/` as `%2F`), which the router decodes back into the `$version` param.
 */
export function releasePath(projectId: string, version: string): string {
  return `${projectPath(projectId, 'releases')}/${encodeURIComponent(version)}`;
}
