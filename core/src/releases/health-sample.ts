/**
 * The least a release must have seen before its health is shown as a rate or compared with
 * the deploy before it. One event a minute after a deploy is "60 events/h" and "−100 %" against
 * a release that ran for a week: true arithmetic, and a lie to whoever reads it. Below this,
 * the API answers no rate and no ratio, and the dashboard shows the raw counts with "not enough
 * data yet".
 */
export const MIN_HEALTH_WINDOW_MS = 30 * 60_000;
export const MIN_HEALTH_EVENTS = 20;

export interface HealthWindow {
  windowStart: Date;
  /** The next deploy in the environment, or now for the newest release. */
  windowEnd: Date;
  windowEvents: number;
}

/**
 * Whether a release's window is a large enough sample: at least MIN_HEALTH_WINDOW_MS long
 * (measured up to `now` at most, which the caller passes) and at least MIN_HEALTH_EVENTS events.
 * Both, because a busy minute and a quiet week each mislead on their own.
 */
export function hasEnoughHealthSample(window: HealthWindow, now: Date): boolean {
  const end = Math.min(window.windowEnd.getTime(), now.getTime());
  return end - window.windowStart.getTime() >= MIN_HEALTH_WINDOW_MS && window.windowEvents >= MIN_HEALTH_EVENTS;
}
