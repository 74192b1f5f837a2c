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
