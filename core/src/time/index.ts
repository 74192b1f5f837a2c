export { systemClock } from './clock';
export type { Clock } from './clock';
export { parseClientTime } from './parse-client-time';
export { DAY_MS, resolveTimeRange } from './time-range';
export type { TimeRange } from './time-range';
