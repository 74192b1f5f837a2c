export { mapSentryEvent } from './map-sentry-event';
export { mapSentryFeedback, mapSentryLogs } from './map-sentry-items';
export { isObject, isoTimestampOf, sentryIdOf, uuidOfEventId } from './sentry-values';
export type { JsonObject } from './sentry-values';
