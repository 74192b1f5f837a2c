/**
 * An href for a URL that came from event data, or null when it must stay text. Only absolute
 * http(s) URLs qualify: `javascript:`, `data:`, `vbscript:` and relative or protocol-relative
 * forms (which would resolve against the dashboard's own origin) never become links. The URL is
 * re-serialised by the URL parser, so tabs, newlines and odd casing in the scheme cannot sneak
 * past the check.
 */
export function toSafeHref(value: string | null | undefined): string | null {
  if (!value) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (!/^https?:\/\//i.test(value.trim())) return null;
  return url.href;
}
