/**
 * A project's inbound filters (issue 31): which error events the ingest edge drops before the
 * quota is counted (docs/ingest.md, "Inbound filters"). Everything is off by default.
 */
export interface InboundFilterSettings {
  /** Errors thrown from browser extensions (`chrome-extension://`, `moz-extension://`, `safari-extension://` frames). */
  browserExtensions: boolean;
  /** Errors from pages served by localhost (the event's URL, its request's URL, or a loopback user IP). */
  localhost: boolean;
  /** Errors from browsers older than `legacyBrowserMinVersions` (by the event's User-Agent). */
  legacyBrowsers: boolean;
  /** The oldest major version kept per browser; older ones are dropped when `legacyBrowsers` is on. */
  legacyBrowserMinVersions: Record<LegacyBrowser, number>;
  /** Errors whose User-Agent is a web crawler's (search engines, link previews, monitors). */
  webCrawlers: boolean;
  /** Glob patterns matched against the error's message and against "Type: message" (case-insensitive). */
  errorMessages: string[];
  /** Glob patterns matched against the event's release. */
  releases: string[];
}

/** The filters, under the names used for counts, `/metrics` labels and the GraphQL enum. */
export const INBOUND_FILTERS = [
  'browser_extensions',
  'localhost',
  'legacy_browsers',
  'web_crawlers',
  'error_messages',
  'releases',
] as const;
export type InboundFilterName = (typeof INBOUND_FILTERS)[number];

/** The browsers whose minimum version can be set; any other browser is never "legacy". */
export const LEGACY_BROWSERS = ['chrome', 'edge', 'firefox', 'safari', 'opera', 'samsung', 'ie'] as const;
export type LegacyBrowser = (typeof LEGACY_BROWSERS)[number];

/**
 * Defaults that keep browsers released in the last four or so years (2021 and later) and drop
 * Internet Explorer altogether (no version of it reaches 12). A project changes them per browser.
 */
export const DEFAULT_LEGACY_BROWSER_MIN_VERSIONS: Readonly<Record<LegacyBrowser, number>> = Object.freeze({
  chrome: 90,
  edge: 90,
  firefox: 88,
  safari: 14,
  opera: 76,
  samsung: 14,
  ie: 12,
});

export const DEFAULT_INBOUND_FILTER_SETTINGS: Readonly<InboundFilterSettings> = Object.freeze({
  browserExtensions: false,
  localhost: false,
  legacyBrowsers: false,
  legacyBrowserMinVersions: { ...DEFAULT_LEGACY_BROWSER_MIN_VERSIONS },
  webCrawlers: false,
  errorMessages: [],
  releases: [],
});

/** Longest glob accepted: real patterns are short, and a long one is work on every event. */
export const MAX_INBOUND_GLOB_CHARS = 200;
/** Patterns per list (messages, releases). */
export const MAX_INBOUND_GLOBS = 50;
/** Highest minimum version accepted (no browser is near it; a typo like 9000 is refused). */
export const MAX_LEGACY_MIN_VERSION = 1_000;

/** The stored document, completed with the defaults for anything it lacks (older or hand-made rows). */
export function inboundFilterSettingsOf(stored: unknown): InboundFilterSettings {
  const s = (stored !== null && typeof stored === 'object' ? stored : {}) as Partial<InboundFilterSettings>;
  const versions = { ...DEFAULT_LEGACY_BROWSER_MIN_VERSIONS };
  for (const browser of LEGACY_BROWSERS) {
    const v = s.legacyBrowserMinVersions?.[browser];
    if (typeof v === 'number' && Number.isInteger(v)) versions[browser] = v;
  }
  const globs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((g): g is string => typeof g === 'string') : []);
  return {
    browserExtensions: s.browserExtensions === true,
    localhost: s.localhost === true,
    legacyBrowsers: s.legacyBrowsers === true,
    legacyBrowserMinVersions: versions,
    webCrawlers: s.webCrawlers === true,
    errorMessages: globs(s.errorMessages),
    releases: globs(s.releases),
  };
}

/** True when at least one filter is on: only then does the edge look at an event at all. */
export function hasInboundFilters(s: InboundFilterSettings): boolean {
  return (
    s.browserExtensions ||
    s.localhost ||
    s.legacyBrowsers ||
    s.webCrawlers ||
    s.errorMessages.length > 0 ||
    s.releases.length > 0
  );
}
