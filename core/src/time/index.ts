export { systemClock } from './clock';
export type { Clock } from './clock';
export { DAY_MS, parseInstant, resolveTimeRange } from './time-range';
export type { TimeRange } from './time-range';
