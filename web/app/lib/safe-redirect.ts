// Resolved against a host nobody can own (RFC 2606 `.invalid`) instead of the request's own
// origin: the Host header is the client's to choose, and a link this app makes is always a path,
// so an absolute URL, even one naming our public host, is refused rather than trusted.
const PLACEHOLDER_ORIGIN = 'http://same-origin.invalid';

/**
 * A same-origin path (path, query and fragment) to send the browser to, or `fallback`.
 * The target is parsed with the WHATWG URL parser, as the browser will parse the Location
 * header, never matched as a string: browsers drop tabs and newlines and read `\` as `/`, so
 * `/\t/evil.example` and `/\evil.example` are `//evil.example`, another host. The answer is
 * the parsed URL written out again, which parses back to the same URL.
 */
export function safeRedirectPath(to: FormDataEntryValue | string | null, fallback = '/'): string {
  if (typeof to !== 'string' || !to.startsWith('/')) return fallback;
  let parsed: URL;
  try {
    parsed = new URL(to, PLACEHOLDER_ORIGIN);
  } catch {
    return fallback;
  }
  if (parsed.origin !== PLACEHOLDER_ORIGIN) return fallback;
  const path = parsed.pathname + parsed.search + parsed.hash;
  // Dot segments can leave a path that starts with `//` (`/.//evil.example` → `//evil.example`),
  // which a browser reads as another host: the round trip catches it and any case like it.
  if (new URL(path, PLACEHOLDER_ORIGIN).href !== parsed.href) return fallback;
  return path;
}
