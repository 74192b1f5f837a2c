export { mapSentryEvent } from './map-sentry-event';
export { mapSentryFeedback, mapSentryLogs } from './map-sentry-items';
export { isObject, isoTimestampOf, sentryIdOf, uuidOfEventId } from './sentry-values';
export type { JsonObject } from './sentry-values';
export { mapSentryVitals, MAX_CLS, MAX_VITAL_MS, reportIdOf } from './map-sentry-vitals';
export type { SentryVitals } from './map-sentry-vitals';
