export { createTracker } from './create-tracker';
export type { Tracker, TrackerOptions } from './create-tracker';
