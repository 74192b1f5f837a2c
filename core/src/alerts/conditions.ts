import type { AlertFilter } from '../entities';

/** What a rule's conditions look at, for an error event or a log line. */
export interface ConditionFacts {
  environment: string;
  /** Event levels (fatal, error, warning, info) or log levels (error, warn, info, debug). */
  level: string;
  tags: Record<string, string>;
  release: string | null;
  /** The assignee; undefined for a log line (rules with `assigned` never see logs). */
  assigned?: boolean;
}

const LEVEL_RANK: Record<string, number> = { debug: 0, info: 1, warning: 2, warn: 2, error: 3, fatal: 4 };

/** fatal > error > warning (= warn) > info > debug; an unknown level ranks as error. */
export function levelRank(level: string): number {
  return LEVEL_RANK[level] ?? LEVEL_RANK.error;
}

const globCache = new Map<string, RegExp>();

/** `*` any run of characters (also none), `?` one character; the rest is literal and case-sensitive. */
export function globMatches(glob: string, value: string): boolean {
  let re = globCache.get(glob);
  if (!re) {
    const body = [...glob]
      .map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&')))
      .join('');
    re = new RegExp(`^${body}$`, 's');
    if (globCache.size > 1000) globCache.clear();
    globCache.set(glob, re);
  }
  return re.test(value);
}

/** True when every condition the filter sets holds (docs/alerts.md, "Conditions"). */
export function matchesFilter(filter: AlertFilter, facts: ConditionFacts): boolean {
  if (filter.environments && filter.environments.length > 0 && !filter.environments.includes(facts.environment))
    return false;
  if (filter.minLevel && levelRank(facts.level) < levelRank(filter.minLevel)) return false;
  if (filter.tags) {
    for (const t of filter.tags) if (facts.tags[t.key] !== t.value) return false;
  }
  if (filter.release !== undefined && (facts.release === null || !globMatches(filter.release, facts.release)))
    return false;
  if (filter.assigned !== undefined && facts.assigned !== undefined && facts.assigned !== filter.assigned) return false;
  return true;
}

/** LOG_MATCH: the message contains the query, ignoring case (as the logs search does). */
export function logMatches(query: string, message: string): boolean {
  return message.toLocaleLowerCase('en').includes(query.toLocaleLowerCase('en'));
}
