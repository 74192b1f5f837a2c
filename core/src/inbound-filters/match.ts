import { isbot } from 'isbot';
import type { QueuedErrorEvent } from '../events/error-event.schema';
import { MAX_USER_AGENT_CHARS } from '../events/derive-tags';
import type { CompiledInboundFilters } from './compile';
import type { InboundFilterName, LegacyBrowser } from './settings';

interface UABrowser {
  browser: { name?: string; major?: string };
}
// ua-parser-js 1.x ships no types (docs/dependencies.md; derive-tags.ts does the same).
const UAParser = require('ua-parser-js') as (userAgent: string) => UABrowser;

const EXTENSION_SCHEMES = ['chrome-extension://', 'moz-extension://', 'safari-extension://', 'safari-web-extension://'];
const LOCAL_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]', '::1', '0.0.0.0']);
const LOOPBACK_IPS: ReadonlySet<string> = new Set(['127.0.0.1', '::1']);

/**
 * The first filter that drops this event, or undefined to keep it. Cheap tests first (a
 * release, a message, substrings of the stack), the User-Agent's last: parsing one costs tens
 * of µs, so its answers are cached, as in derive-tags.ts.
 */
export function inboundFilterFor(f: CompiledInboundFilters, event: QueuedErrorEvent): InboundFilterName | undefined {
  if (f.releases !== undefined && event.release !== undefined && f.releases.test(event.release)) return 'releases';
  if (f.errorMessages !== undefined && matchesMessage(f.errorMessages, event)) return 'error_messages';
  if (f.browserExtensions && fromExtension(event)) return 'browser_extensions';
  if (f.localhost && fromLocalhost(event)) return 'localhost';
  if (!f.webCrawlers && f.legacyMinVersions === undefined) return undefined;
  const ua = userAgentOf(event);
  if (ua === undefined) return undefined;
  if (f.webCrawlers && isbot(ua)) return 'web_crawlers';
  if (f.legacyMinVersions !== undefined && isLegacy(ua, f.legacyMinVersions)) return 'legacy_browsers';
  return undefined;
}

function matchesMessage(re: RegExp, event: QueuedErrorEvent): boolean {
  if (re.test(event.message)) return true;
  if (event.logMessage !== undefined && re.test(event.logMessage)) return true;
  // As Sentry writes an exception: "TypeError: x is undefined".
  return re.test(`${event.type}: ${event.message}`);
}

function fromExtension(event: QueuedErrorEvent): boolean {
  if (event.stack !== undefined && EXTENSION_SCHEMES.some((s) => event.stack!.includes(s))) return true;
  if (event.frames?.some((fr) => typeof fr.filename === 'string' && isExtensionUrl(fr.filename))) return true;
  return false;
}

function isExtensionUrl(filename: string): boolean {
  for (const s of EXTENSION_SCHEMES) if (filename.startsWith(s)) return true;
  return false;
}

function fromLocalhost(event: QueuedErrorEvent): boolean {
  if (event.url !== undefined && isLocalUrl(event.url)) return true;
  if (event.request?.url !== undefined && isLocalUrl(event.request.url)) return true;
  const ip = event.user?.ip_address;
  return typeof ip === 'string' && LOOPBACK_IPS.has(ip);
}

function isLocalUrl(url: string): boolean {
  if (!url.includes('://')) return false;
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  return LOCAL_HOSTS.has(host) || host.endsWith('.localhost');
}

/** As derive-tags.ts reads it: `context.userAgent`, else the event's request header. */
function userAgentOf(event: QueuedErrorEvent): string | undefined {
  const own = event.context?.userAgent;
  let ua: unknown = own;
  if (typeof ua !== 'string') {
    const headers = event.request?.headers;
    if (headers) {
      ua = headers['User-Agent'];
      if (typeof ua !== 'string') {
        for (const [name, value] of Object.entries(headers)) if (name.toLowerCase() === 'user-agent') ua = value;
      }
    }
  }
  return typeof ua === 'string' && ua.trim() !== '' && ua.length <= MAX_USER_AGENT_CHARS ? ua : undefined;
}

/** ua-parser-js's browser names → the browsers a minimum can be set for. */
const BROWSER_OF: Readonly<Record<string, LegacyBrowser>> = {
  Chrome: 'chrome',
  'Chrome WebView': 'chrome',
  'Mobile Chrome': 'chrome',
  Chromium: 'chrome',
  Edge: 'edge',
  Firefox: 'firefox',
  'Mobile Firefox': 'firefox',
  Safari: 'safari',
  'Mobile Safari': 'safari',
  Opera: 'opera',
  'Opera Mobi': 'opera',
  'Samsung Browser': 'samsung',
  IE: 'ie',
  IEMobile: 'ie',
};

const MAX_CACHED = 1_000;
const browsers = new Map<string, { browser: LegacyBrowser; major: number } | null>();

function browserOf(ua: string): { browser: LegacyBrowser; major: number } | null {
  let hit = browsers.get(ua);
  if (hit !== undefined) return hit;
  const parsed = UAParser(ua).browser;
  const browser = parsed.name === undefined ? undefined : BROWSER_OF[parsed.name];
  const major = Number.parseInt(parsed.major ?? '', 10);
  hit = browser !== undefined && Number.isFinite(major) ? { browser, major } : null;
  if (browsers.size >= MAX_CACHED) browsers.delete(browsers.keys().next().value!);
  browsers.set(ua, hit);
  return hit;
}

function isLegacy(ua: string, min: Readonly<Record<LegacyBrowser, number>>): boolean {
  const b = browserOf(ua);
  return b !== null && b.major < min[b.browser];
}
