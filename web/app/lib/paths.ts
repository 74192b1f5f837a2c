// Ids come from the API (and from the URL); always encoded before they go into a path.

export function projectPath(projectId: string, section?: string): string {
  const base = `/projects/${encodeURIComponent(projectId)}`;
  return section ? `${base}/${section}` : base;
}

export function issuePath(projectId: string, issueId: string): string {
  return `${projectPath(projectId, 'issues')}/${encodeURIComponent(issueId)}`;
}
