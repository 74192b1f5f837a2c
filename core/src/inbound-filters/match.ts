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

/** One pass over the stack text instead of one per scheme. */
const EXTENSION_URL = /(?:chrome|moz|safari|safari-web)-extension:\/\//;
/** The host of an absolute URL without building a URL object (a few µs each): `[::1]` keeps its brackets. */
const URL_HOST = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?(\[[^\]]*\]|[^:/?#]*)/i;
const LOCAL_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]', '::1', '0.0.0.0']);
const LOOPBACK_IPS: ReadonlySet<string> = new Set(['127.0.0.1', '::1']);

/**
 * The first filter that drops this event, or undefined to keep it. Cheap tests first (a
 * release, a message, substrings of the stack), the User-Agent's last: parsing one costs tens
 * of µs, so its answers are cached, as in derive-tags.ts.
 */
export function inboundFilterFor(f: CompiledInboundFilters, event: QueuedErrorEvent): InboundFilterName | undefined {
  if (f.releases !== undefined && event.release !== undefined && f.releases.test(event.release)) return 'releases';
  if (f.errorMessages !== undefined && matchesMessage(f, f.errorMessages, event)) return 'error_messages';
  if (f.browserExtensions && fromExtension(event)) return 'browser_extensions';
  if (f.localhost && fromLocalhost(event)) return 'localhost';
  if (!f.webCrawlers && f.legacyMinVersions === undefined) return undefined;
  const ua = userAgentOf(event);
  if (ua === undefined) return undefined;
  const seen = userAgentFacts(ua);
  if (f.webCrawlers && seen.bot) return 'web_crawlers';
  if (
    f.legacyMinVersions !== undefined &&
    seen.browser !== null &&
    seen.browser.major < f.legacyMinVersions[seen.browser.name]
  ) {
    return 'legacy_browsers';
  }
  return undefined;
}

function matchesMessage(f: CompiledInboundFilters, re: RegExp, event: QueuedErrorEvent): boolean {
  if (re.test(event.message)) return true;
  if (event.logMessage !== undefined && re.test(event.logMessage)) return true;
  // As Sentry writes an exception, "TypeError: x is undefined": only a glob with a colon can match that.
  return f.messageGlobsHaveColon && re.test(`${event.type}: ${event.message}`);
}

function fromExtension(event: QueuedErrorEvent): boolean {
  if (event.stack !== undefined && EXTENSION_URL.test(event.stack)) return true;
  return event.frames?.some((fr) => typeof fr.filename === 'string' && EXTENSION_URL.test(fr.filename)) === true;
}

function fromLocalhost(event: QueuedErrorEvent): boolean {
  if (event.url !== undefined && isLocalUrl(event.url)) return true;
  if (event.request?.url !== undefined && isLocalUrl(event.request.url)) return true;
  const ip = event.user?.ip_address;
  return typeof ip === 'string' && LOOPBACK_IPS.has(ip);
}

function isLocalUrl(url: string): boolean {
  const match = URL_HOST.exec(url);
  if (match === null) return false;
  const host = match[1].toLowerCase();
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
interface UserAgentFacts {
  bot: boolean;
  browser: { name: LegacyBrowser; major: number } | null;
}
/**
 * A site's errors come from a few hundred distinct User-Agents, and isbot's pattern and
 * ua-parser-js's dozens of regexes cost tens of µs per string: the answers are kept, bounded.
 */
const facts = new Map<string, UserAgentFacts>();

function userAgentFacts(ua: string): UserAgentFacts {
  let hit = facts.get(ua);
  if (hit !== undefined) return hit;
  const parsed = UAParser(ua).browser;
  const name = parsed.name === undefined ? undefined : BROWSER_OF[parsed.name];
  const major = Number.parseInt(parsed.major ?? '', 10);
  hit = { bot: isbot(ua), browser: name !== undefined && Number.isFinite(major) ? { name, major } : null };
  if (facts.size >= MAX_CACHED) facts.delete(facts.keys().next().value!);
  facts.set(ua, hit);
  return hit;
}
