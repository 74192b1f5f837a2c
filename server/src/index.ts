export { createTracker } from './create-tracker';
export type { ShutdownReport, Tracker, TrackerOptions } from './create-tracker';
