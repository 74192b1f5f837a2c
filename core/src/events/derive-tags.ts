import { cutText } from './normalize';
import { MAX_TAGS } from './wire-fields';

/** What `derive-tags.ts` reads of ua-parser-js's answer. */
interface UAResult {
  browser: { name?: string; version?: string; major?: string };
  os: { name?: string; version?: string };
  device: { vendor?: string; model?: string; type?: string };
}
// ua-parser-js 1.x ships no types (its 2.x does, under the AGPL: docs/dependencies.md), and an
// ambient declaration would have to reach every package that type-checks core's sources.
const UAParser = require('ua-parser-js') as (userAgent: string) => UAResult;

/** The longest User-Agent parsed; real ones are under 500 characters, the rest is not parsed. */
export const MAX_USER_AGENT_CHARS = 1_024;
const MAX_TAG_VALUE_CHARS = 200;
const MAX_CACHED_USER_AGENTS = 1_000;

/**
 * Tags the worker derives from what SDKs send (docs/ingest.md, "Derived tags"), under Sentry's
 * names so that people who know Sentry find them, for any SDK (decision 046):
 * - from a User-Agent: `context.userAgent` (our browser SDK, or the ingest request's header for a
 *   browser SDK's event that lacks one), else the event's request header `User-Agent` (Sentry's
 *   browser SDKs put the browser's there; server SDKs the header of the request they served):
 *   `browser` ("Chrome 131"), `browser.name`, `os` ("Windows 10"), `os.name`, and `device`
 *   ("iPhone") only when the parser names a model;
 * - from the contexts the event already has (`context.browser`, `context.os`, `context.device`:
 *   Sentry's contexts; `context.runtime`, our Node SDK's and Sentry's): `runtime` ("node 20.20.2"),
 *   `runtime.name`, and `browser`, `os`, `device` with their names. These win over the User-Agent's:
 *   the SDK saw its own platform (a server SDK's `os` is the server's).
 */
export function deriveTags(
  context: Record<string, unknown> | null | undefined,
  request?: { headers?: Record<string, string> } | null,
): Record<string, string> {
  const derived: Record<string, string> = {};
  const ua = typeof context?.userAgent === 'string' ? context.userAgent : userAgentHeaderOf(request?.headers);
  if (typeof ua === 'string' && ua.trim() !== '' && ua.length <= MAX_USER_AGENT_CHARS) {
    Object.assign(derived, tagsOfUserAgent(ua));
  }
  if (!context) return derived;
  const runtime = nameAndVersion(context.runtime);
  if (runtime) {
    derived.runtime = runtime.version ? `${runtime.name} ${runtime.version}` : runtime.name;
    derived['runtime.name'] = runtime.name;
  }
  const browser = nameAndVersion(context.browser);
  if (browser) {
    derived.browser = browser.version ? `${browser.name} ${browser.version.split('.')[0]}` : browser.name;
    derived['browser.name'] = browser.name;
  }
  const os = nameAndVersion(context.os);
  if (os) {
    derived.os = os.version ? `${os.name} ${os.version}` : os.name;
    derived['os.name'] = os.name;
  }
  const device = context.device;
  if (device !== null && typeof device === 'object' && !Array.isArray(device)) {
    const model = (device as Record<string, unknown>).model;
    if (typeof model === 'string' && model.trim() !== '') derived.device = model.trim();
  }
  return derived;
}

/** The `User-Agent` of a stored request's headers, whatever its case. */
function userAgentHeaderOf(headers: Record<string, string> | undefined): string | undefined {
  if (!headers) return undefined;
  if (typeof headers['User-Agent'] === 'string') return headers['User-Agent'];
  for (const [name, value] of Object.entries(headers)) if (name.toLowerCase() === 'user-agent') return value;
  return undefined;
}

/**
 * `tags` plus the `derived` ones it does not already have: the event's own tags always win and
 * are never pushed out, and the total stays within MAX_TAGS (the wire's limit), values cut
 * with … like the event's own.
 */
export function withDerivedTags(tags: Record<string, string>, derived: Record<string, string>): Record<string, string> {
  let count = Object.keys(tags).length;
  let out: Record<string, string> | undefined;
  for (const key of Object.keys(derived)) {
    if (count >= MAX_TAGS) break;
    if (Object.prototype.hasOwnProperty.call(tags, key)) continue;
    (out ??= { ...tags })[key] = cutText(derived[key], MAX_TAG_VALUE_CHARS);
    count += 1;
  }
  return out ?? tags;
}

function nameAndVersion(value: unknown): { name: string; version: string | null } | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const { name, version } = value as Record<string, unknown>;
  if (typeof name !== 'string' || name.trim() === '') return null;
  const v = typeof version === 'string' || typeof version === 'number' ? String(version).trim() : '';
  return { name: name.trim(), version: v || null };
}

// A site's events come from a few hundred distinct User-Agents, and parsing one costs tens of
// µs (dozens of regexes): remember recent answers. Bounded, like `normalizeFilename`'s cache.
const parsed = new Map<string, Readonly<Record<string, string>>>();

function tagsOfUserAgent(ua: string): Readonly<Record<string, string>> {
  let tags = parsed.get(ua);
  if (tags === undefined) {
    tags = parseUserAgent(ua);
    if (parsed.size >= MAX_CACHED_USER_AGENTS) parsed.clear();
    parsed.set(ua, tags);
  }
  return tags;
}

function parseUserAgent(ua: string): Record<string, string> {
  const { browser, os, device } = UAParser(ua);
  const tags: Record<string, string> = {};
  if (browser.name) {
    tags.browser = browser.major ? `${browser.name} ${browser.major}` : browser.name;
    tags['browser.name'] = browser.name;
  }
  if (os.name) {
    tags.os = os.version ? `${os.name} ${os.version}` : os.name;
    tags['os.name'] = os.name;
  }
  // Sentry's `device` is the model ("iPhone", "Pixel 7"); a desktop UA names none, and a
  // vendor alone ("Apple" for every Mac) says nothing the os tag does not.
  if (device.model) tags.device = device.model;
  return tags;
}
