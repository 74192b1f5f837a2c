import type { Breadcrumb } from './types';

/** Breadcrumbs kept per page or process, the oldest forgotten first (issue 29; the server keeps 100). */
export const MAX_BREADCRUMBS = 50;
const MAX_MESSAGE_CHARS = 1_024;

// Recorded history (what the page or process did), never application state: see
// docs/decisions/039-breadcrumbs.md. Module-level like the client: one buffer per bundle.
let buffer: Breadcrumb[] = [];
let on = false;

/** `false` empties the buffer and stops recording (the `breadcrumbs: false` option). */
export function setBreadcrumbsOn(value: boolean): void {
  on = value;
  if (!value) buffer = [];
}

/** `?query` carries ids and tokens: cut from every URL a breadcrumb holds (the fragment stays). */
export function stripQuery(url: string): string {
  return url.replace(/\?[^#]*/, '');
}

/**
 * Records one breadcrumb, stamped now. Data values are flat; every string value is a URL, a
 * path or a word of ours, and loses its query string; texts are cut at 1,024 characters (50
 * breadcrumbs stay far below the ingest's 1 MB body limit). Never throws.
 */
export function addBreadcrumb(crumb: Omit<Breadcrumb, 'timestamp'>): void {
  if (!on) return;
  try {
    const data = crumb.data;
    if (data)
      for (const k in data)
        if (typeof data[k] == 'string') data[k] = stripQuery(data[k] as string).slice(0, MAX_MESSAGE_CHARS);
    buffer.push({
      timestamp: new Date().toISOString(),
      ...crumb,
      message: crumb.message && crumb.message.slice(0, MAX_MESSAGE_CHARS),
    });
    if (buffer.length > MAX_BREADCRUMBS) buffer.shift();
  } catch {
    // a breadcrumb is never worth an exception in the host app
  }
}

/** A copy of the buffer, oldest first; undefined when empty (the field is then left out). */
export function readBreadcrumbs(): Breadcrumb[] | undefined {
  return buffer.length ? buffer.slice() : undefined;
}
