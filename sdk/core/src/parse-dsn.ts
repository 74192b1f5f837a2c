export interface ParsedDsn {
  /** `et_<key>`, sent as `Authorization: DSN et_<key>`. */
  key: string;
  /** The error-ingest URL. */
  endpoint: string;
}

const KEY_PATTERN = /^et_[\w-]+$/;

function isHttpUrl(url: URL): boolean {
  return url.protocol == 'https:' || url.protocol == 'http:';
}

/**
 * Reads a DSN (`https://et_<key>@<host>/<projectId>` or bare `et_<key>`) and an optional
 * explicit endpoint. Returns null for anything unusable, which turns the SDK into a no-op:
 * a typo in configuration must never break the host app.
 */
export function parseDsn(dsn: unknown, endpoint?: unknown): ParsedDsn | null {
  try {
    if (typeof dsn != 'string') return null;
    dsn = dsn.trim();
    let key: string;
    let derived: string | undefined;
    if (KEY_PATTERN.test(dsn as string)) {
      key = dsn as string;
    } else {
      const url = new URL(dsn as string);
      key = decodeURIComponent(url.username);
      if (!isHttpUrl(url) || !KEY_PATTERN.test(key) || url.pathname.length < 2) return null;
      derived = url.origin + '/ingest/error';
    }
    if (endpoint != null) {
      if (typeof endpoint != 'string' || !isHttpUrl(new URL(endpoint))) return null;
      derived = endpoint;
    }
    return derived ? { key, endpoint: derived } : null;
  } catch {
    return null;
  }
}
