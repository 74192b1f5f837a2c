import { formatNumber } from './format';

// How a release's health figure compares with the previous deploy in its environment. The API
// gives both figures (Release.health.previous*); this only words the difference and says
// whether it is good news. Fewer new issues, regressions and events per hour are better; a
// higher crash-free share is better.

export type ReleaseHealth = {
  /** Where the crash-free figures come from: Sentry sessions, or the error events that name users. */
  basis?: 'SESSIONS' | 'EVENTS';
  crashFreeSessions?: number | null;
  sessions?: { started: number } | null;
  issuesIntroduced: number;
  regressions: number;
  usersSeen: number;
  crashedUsers: number;
  crashFreeUsers: number | null;
  windowEvents: number;
  /** False below the API's minimum sample (30 minutes and 20 events): no rate, no trend. */
  enoughData: boolean;
  eventsPerHour: number | null;
  previousVersion: string | null;
  previousIssuesIntroduced: number | null;
  previousRegressions: number | null;
  previousCrashFreeUsers: number | null;
  previousEventsPerHour: number | null;
  eventsPerHourRatio: number | null;
};

export type Direction = 'better' | 'worse' | 'same';

/** A figure as shown, and the line under it (null for the first release of an environment). */
export type HealthFigure = {
  value: string;
  /** "+2 vs 1.4.0", "−1.5 pts vs 1.4.0", "+12 % vs 1.4.0"; null when there is nothing to compare. */
  change: string | null;
  /** "was 1", "was 98.7 %": the previous release's figure. */
  previous: string | null;
  direction: Direction | null;
};

const MINUS = '\u2212';

/** Rounded as shown, so the colour never disagrees with the text ("±0" is never "worse"). */
function round(value: number, digits: number): number {
  const rounded = Number(value.toFixed(digits));
  return rounded === 0 ? 0 : rounded;
}

/** "+2", "−1.5", "±0" for a value already rounded. */
function signed(rounded: number): string {
  if (rounded === 0) return '±0';
  return `${rounded > 0 ? '+' : MINUS}${Math.abs(rounded).toLocaleString('en', { maximumFractionDigits: 1 })}`;
}

function direction(rounded: number, lowerIsBetter: boolean): Direction {
  if (rounded === 0) return 'same';
  return rounded < 0 === lowerIsBetter ? 'better' : 'worse';
}

/** "97.5 %": one decimal, so 99.9 % and 100 % stay apart. */
export function formatShare(share: number): string {
  return `${Number((share * 100).toFixed(1)).toLocaleString('en')} %`;
}

/** Events per hour: one decimal under 100, whole numbers above. */
export function formatRate(rate: number): string {
  return rate < 100 ? rate.toLocaleString('en', { maximumFractionDigits: 1 }) : formatNumber(Math.round(rate));
}

function vs(text: string, version: string): string {
  return `${text} vs ${version}`;
}

export function compareCount(current: number, previous: number | null, version: string | null): HealthFigure {
  const value = formatNumber(current);
  if (version === null || previous === null) return { value, change: null, previous: null, direction: null };
  const delta = current - previous;
  return {
    value,
    change: vs(signed(delta), version),
    previous: `was ${formatNumber(previous)}`,
    direction: direction(delta, true),
  };
}

/** Crash-free users differ in percentage points: 97 % after 99 % is "−2 pts", not "−2 %". */
export function compareCrashFree(
  current: number | null,
  previous: number | null,
  version: string | null,
): HealthFigure {
  const value = current === null ? '—' : formatShare(current);
  if (version === null) return { value, change: null, previous: null, direction: null };
  // Neither named a user: saying so twice in one cell helps nobody.
  if (previous === null && current === null) return { value, change: null, previous: null, direction: null };
  if (previous === null) return { value, change: `${version} named no users`, previous: null, direction: null };
  if (current === null)
    return { value, change: null, previous: `${version}: ${formatShare(previous)}`, direction: null };
  const points = round((current - previous) * 100, 1);
  return {
    value,
    change: vs(`${signed(points)} pts`, version),
    previous: `was ${formatShare(previous)}`,
    direction: direction(points, false),
  };
}

/** Events per hour differ as a ratio: "+12 %" is 1.12 times the previous release's rate. */
export function compareRate(health: ReleaseHealth): HealthFigure {
  const { eventsPerHour: current, previousEventsPerHour: previous, eventsPerHourRatio: ratio } = health;
  const version = health.previousVersion;
  const value = current === null ? '—' : formatRate(current);
  if (version === null || previous === null || current === null)
    return { value, change: null, previous: null, direction: null };
  const was = `was ${formatRate(previous)}`;
  if (ratio === null) {
    // The previous release had no events in its window: a percentage of zero means nothing.
    const delta = round(current - previous, Math.abs(current - previous) < 100 ? 1 : 0);
    return { value, change: vs(signed(delta), version), previous: was, direction: direction(delta, true) };
  }
  const percent = round((ratio - 1) * 100, 0);
  return {
    value,
    change: vs(`${signed(percent)} %`, version),
    previous: was,
    direction: direction(percent, true),
  };
}

/** Said in place of every rate and trend while a release's window is too small a sample. */
export const NOT_ENOUGH_DATA = 'not enough data yet';

/**
 * The four figures (HEALTH_COLUMNS order) of a release whose window is below the minimum
 * sample: raw counts only, no share, no rate and no comparison, because one event a minute
 * after a deploy reads as "94.9 events/h" and a green "−100 %".
 */
export function rawHealthFigures(health: ReleaseHealth): HealthFigure[] {
  const plain = (value: string, previous: string | null = null): HealthFigure => ({
    value,
    change: null,
    previous,
    direction: null,
  });
  const users = health.usersSeen === 1 ? 'user' : 'users';
  return [
    plain(formatNumber(health.issuesIntroduced)),
    plain(formatNumber(health.regressions)),
    health.usersSeen === 0
      ? plain('—', 'no users named')
      : plain(`${formatNumber(health.crashedUsers)} crashed`, `of ${formatNumber(health.usersSeen)} ${users}`),
    plain(`${formatNumber(health.windowEvents)} ${health.windowEvents === 1 ? 'event' : 'events'}`, NOT_ENOUGH_DATA),
  ];
}

/** Said under the crash-free figures: which data they come from (decision 045). */
export function healthBasisLabel(health: ReleaseHealth): string {
  return health.basis === 'SESSIONS' ? 'from sessions' : 'from error events';
}

/**
 * The crash-free cell on the sessions basis: the users' share, then the sessions' share. Shown
 * whatever the window's size: these are counts the SDKs made, not a rate read into a short window.
 */
export function sessionsCrashFree(health: ReleaseHealth, compare: boolean): { figure: HealthFigure; detail: string } {
  const version = compare ? health.previousVersion : null;
  const figure = compareCrashFree(health.crashFreeUsers, health.previousCrashFreeUsers, version);
  const started = health.sessions?.started ?? 0;
  const users = health.usersSeen
    ? `of ${formatNumber(health.usersSeen)} ${health.usersSeen === 1 ? 'user' : 'users'}`
    : 'no users named';
  const sessions =
    health.crashFreeSessions === null || health.crashFreeSessions === undefined
      ? ''
      : ` · ${formatShare(health.crashFreeSessions)} of ${formatNumber(started)} ${started === 1 ? 'session' : 'sessions'} crash-free`;
  return { figure, detail: `${users}${sessions}` };
}
