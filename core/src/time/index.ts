export { DAY_MS, parseInstant, resolveTimeRange } from './time-range';
export type { TimeRange } from './time-range';
