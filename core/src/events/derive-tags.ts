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
 * names so that people who know Sentry find them:
 * - from `context.userAgent` (the browser SDK, or the request header for browser SDK events
 *   that lack it): `browser` ("Chrome 131"), `browser.name`, `os` ("Windows 10"), `os.name`, and
 *   `device` ("iPhone") only when the parser names a model;
 * - from `context.runtime` / `context.os` (`{name, version}`, the Node SDK and Sentry's
 *   contexts): `runtime` ("node 20.20.2"), `runtime.name`, `os.name`; these win over the
 *   User-Agent's.
 */
export function deriveTags(context: Record<string, unknown> | null | undefined): Record<string, string> {
  const derived: Record<string, string> = {};
  if (!context) return derived;
  const ua = context.userAgent;
  if (typeof ua === 'string' && ua.trim() !== '' && ua.length <= MAX_USER_AGENT_CHARS) {
    Object.assign(derived, tagsOfUserAgent(ua));
  }
  const runtime = nameAndVersion(context.runtime);
  if (runtime) {
    derived.runtime = runtime.version ? `${runtime.name} ${runtime.version}` : runtime.name;
    derived['runtime.name'] = runtime.name;
  }
  const os = nameAndVersion(context.os);
  if (os) derived['os.name'] = os.name;
  return derived;
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
