import { AppError } from '../errors';
import { compileGlob } from './compile';
import {
  LEGACY_BROWSERS,
  MAX_INBOUND_GLOB_CHARS,
  MAX_INBOUND_GLOBS,
  MAX_LEGACY_MIN_VERSION,
  type InboundFilterSettings,
} from './settings';

/** Texts that any real message filter leaves some of: a pattern matching all of them drops every error. */
// No empty text: picomatch's `*` needs one character, and an event with an empty message is rare.
const MESSAGE_PROBES = [
  'x',
  'Error',
  "TypeError: Cannot read properties of undefined (reading 'id')",
  'Failed to fetch https://api.example.com/v1/orders',
  'line one\nline two',
  '.hidden',
  '0',
  'Ünïcödé 🙂',
];
const RELEASE_PROBES = ['1.0.0', 'web@2.3.4+build.7', 'a1b2c3d4e5f6', 'x/y', 'v1', '2026.11.27', '_'];

/**
 * The settings with `changes` applied, checked: each glob trimmed, 1 to 200 characters, at most
 * 50 per list, duplicates dropped; minimum versions whole numbers 0 to 1,000. A message or
 * release pattern that matches everything (`*`) would drop every error event (or every one
 * with a release), so it is refused unless `confirmDropAll`: a mistake there silently empties
 * the project. Throws BAD_USER_INPUT naming the field; nothing is saved then.
 */
export function applyInboundFilterChanges(
  current: InboundFilterSettings,
  changes: Partial<InboundFilterSettings>,
  confirmDropAll: boolean,
): InboundFilterSettings {
  const next: InboundFilterSettings = {
    ...current,
    legacyBrowserMinVersions: { ...current.legacyBrowserMinVersions },
  };
  for (const flag of ['browserExtensions', 'localhost', 'legacyBrowsers', 'webCrawlers'] as const) {
    if (changes[flag] !== undefined) next[flag] = changes[flag];
  }
  if (changes.legacyBrowserMinVersions !== undefined) {
    for (const [browser, version] of Object.entries(changes.legacyBrowserMinVersions)) {
      if (!(LEGACY_BROWSERS as readonly string[]).includes(browser)) {
        throw new AppError(
          'BAD_USER_INPUT',
          `legacyBrowserMinVersions: unknown browser "${browser.slice(0, 40)}" (one of ${LEGACY_BROWSERS.join(', ')})`,
        );
      }
      if (!Number.isInteger(version) || version < 0 || version > MAX_LEGACY_MIN_VERSION) {
        throw new AppError(
          'BAD_USER_INPUT',
          `legacyBrowserMinVersions.${browser}: must be a whole number from 0 to ${MAX_LEGACY_MIN_VERSION}`,
        );
      }
      next.legacyBrowserMinVersions[browser as (typeof LEGACY_BROWSERS)[number]] = version;
    }
  }
  if (changes.errorMessages !== undefined) next.errorMessages = globList('errorMessages', changes.errorMessages);
  if (changes.releases !== undefined) next.releases = globList('releases', changes.releases);
  if (!confirmDropAll) {
    refuseDropAll('errorMessages', next.errorMessages, MESSAGE_PROBES, true, 'every error event');
    refuseDropAll('releases', next.releases, RELEASE_PROBES, false, 'every error event that has a release');
  }
  return next;
}

function globList(field: string, globs: readonly string[]): string[] {
  if (globs.length > MAX_INBOUND_GLOBS) {
    throw new AppError('BAD_USER_INPUT', `${field}: at most ${MAX_INBOUND_GLOBS} patterns (got ${globs.length})`);
  }
  const out: string[] = [];
  for (const raw of globs) {
    const glob = raw.trim();
    if (glob.length === 0) throw new AppError('BAD_USER_INPUT', `${field}: a pattern must not be empty`);
    if (glob.length > MAX_INBOUND_GLOB_CHARS) {
      throw new AppError(
        'BAD_USER_INPUT',
        `${field}: a pattern may have at most ${MAX_INBOUND_GLOB_CHARS} characters (one has ${glob.length.toLocaleString('en-US')}); nothing was changed`,
      );
    }
    try {
      compileGlob(glob, true);
    } catch {
      throw new AppError('BAD_USER_INPUT', `${field}: "${glob}" is not a valid glob pattern`);
    }
    if (!out.includes(glob)) out.push(glob);
  }
  return out;
}

function refuseDropAll(field: string, globs: string[], probes: string[], nocase: boolean, what: string): void {
  for (const glob of globs) {
    const re = compileGlob(glob, nocase);
    if (probes.every((p) => re.test(p))) {
      throw new AppError(
        'BAD_USER_INPUT',
        `${field}: the pattern "${glob}" matches everything, so ${what} would be dropped; ` +
          'nothing was changed. Confirm (confirmDropAll: true) to save it anyway',
      );
    }
  }
}
