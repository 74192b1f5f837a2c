import picomatch from 'picomatch';
import type { InboundFilterSettings, LegacyBrowser } from './settings';

/** A project's filters made ready for the edge: built once when its DSN key is loaded, then only run. */
export interface CompiledInboundFilters {
  readonly browserExtensions: boolean;
  readonly localhost: boolean;
  readonly webCrawlers: boolean;
  /** Minimum major versions, when the legacy browser filter is on. */
  readonly legacyMinVersions: Readonly<Record<LegacyBrowser, number>> | undefined;
  /** One regular expression for all message globs (or undefined): one test per text, not one per glob. */
  readonly errorMessages: RegExp | undefined;
  /** Some message glob has a colon, so "Type: message" is worth testing too. */
  readonly messageGlobsHaveColon: boolean;
  readonly releases: RegExp | undefined;
}

/**
 * Globs are picomatch's (`*`, `?`, `[a-z]`, `{a,b}`, `!(…)`) with bash's rule that `*` also
 * crosses `/` (a message or a release is not a path) and `.` in the result matching line
 * breaks too, so `*timeout*` matches a message on several lines.
 */
export function compileGlob(glob: string, caseInsensitive: boolean): RegExp {
  const re = picomatch.makeRe(glob, { bash: true, dot: true, nocase: caseInsensitive, strictSlashes: true });
  return new RegExp(re.source, re.flags.includes('s') ? re.flags : `${re.flags}s`);
}

function anyOf(globs: readonly string[], caseInsensitive: boolean): RegExp | undefined {
  // Saved globs were checked (validate.ts); one that still fails (a row written by hand) is
  // skipped rather than failing the key's lookup, which would refuse every event.
  const compiled = globs.flatMap((g) => {
    try {
      return [compileGlob(g, caseInsensitive)];
    } catch {
      return [];
    }
  });
  if (compiled.length === 0) return undefined;
  if (compiled.length === 1) return compiled[0];
  // Each glob's expression is anchored on its own (^…$): an alternation of them is the union.
  const parts = compiled.map((re) => `(?:${re.source})`);
  return new RegExp(parts.join('|'), caseInsensitive ? 'is' : 's');
}

/** The settings as the edge runs them; undefined when no filter is on (the edge then skips them). */
export function compileInboundFilters(s: InboundFilterSettings): CompiledInboundFilters | undefined {
  const compiled: CompiledInboundFilters = {
    browserExtensions: s.browserExtensions,
    localhost: s.localhost,
    webCrawlers: s.webCrawlers,
    legacyMinVersions: s.legacyBrowsers ? { ...s.legacyBrowserMinVersions } : undefined,
    errorMessages: anyOf(s.errorMessages, true),
    messageGlobsHaveColon: s.errorMessages.some((g) => g.includes(':')),
    releases: anyOf(s.releases, false),
  };
  const on =
    compiled.browserExtensions ||
    compiled.localhost ||
    compiled.webCrawlers ||
    compiled.legacyMinVersions !== undefined ||
    compiled.errorMessages !== undefined ||
    compiled.releases !== undefined;
  return on ? compiled : undefined;
}
