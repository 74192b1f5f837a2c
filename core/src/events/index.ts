export { EventSymbolicator } from './symbolicate-events';
export { applyLifecycle } from './apply-lifecycle';
export type { LifecycleEvent } from './apply-lifecycle';
export {
  describeZodError,
  errorEventSchema,
  framesSchema,
  LEVELS,
  MAX_STRUCTURED_FRAMES,
  MAX_EVENT_MESSAGE_CHARS,
  MAX_FINGERPRINT_ENTRIES,
  MAX_FINGERPRINT_ENTRY_CHARS,
  MAX_STACK_CHARS,
  MAX_TAGS,
  queuedErrorEventSchema,
} from './error-event.schema';
export type { ErrorEvent, ErrorEventInput, QueuedErrorEvent } from './error-event.schema';
export { feedbackSchema, MAX_FEEDBACK_CHARS } from './feedback.schema';
export type { FeedbackBody } from './feedback.schema';
export { findFeedbackForIssues, MAX_FEEDBACK_PER_ISSUE } from './find-feedback';
export { decodeJob, encodeJob, encodeJobBytes, jobProjectId } from './job';
export type { ErrorJob, FeedbackJob, Job, LogJob, SessionJob, VitalsJob } from './job';
export { LOG_LEVELS, logSchema, MAX_LOG_MESSAGE_CHARS } from './log.schema';
export type { LogBody, LogLevel } from './log.schema';
export { EVENT_COLUMNS, IssuesChangedError, persistEvents } from './persist-events';
export { discardKeyOf, matchesDiscardKeys, type DiscardCandidate } from './discard-keys';
export type { DiscardedUsage, PersistOptions, PersistResult } from './persist-events';
export { persistFeedback } from './persist-feedback';
export type { FeedbackResult } from './persist-feedback';
export { persistLogs, type LogsResult } from './persist-logs';
export type { RecordsResult } from './persist-records';
export { persistVitals } from './persist-vitals';
export { deriveTags, MAX_USER_AGENT_CHARS, withDerivedTags } from './derive-tags';
export { prepareEvent, userKeyOf } from './prepare-event';
export type { PreparedEvent } from './prepare-event';
export { prepareFeedback } from './prepare-feedback';
export type { PreparedFeedback } from './prepare-feedback';
export { prepareLog } from './prepare-log';
export type { PreparedLog } from './prepare-log';
export { prepareVitals } from './prepare-vitals';
export type { PreparedVitals } from './prepare-vitals';
export { queuedVitalsSchema, VITAL_NAMES, vitalsSchema } from './vitals.schema';
export type { QueuedVitals, VitalName, VitalsBody } from './vitals.schema';
export {
  clampTimestamp,
  cutText,
  DEPTH_MARKER,
  isCutByDepth,
  isPlainJsonText,
  MAX_JSON_DEPTH,
  MAX_TIMESTAMP_AGE_MS,
  MAX_TIMESTAMP_AHEAD_MS,
  MAX_VALUE_DEPTH,
  normalizeJson,
  storableText,
} from './normalize';
export { limitTags } from './wire-fields';
export * from './evidence';
export { createDebugIdLookup, limitDebugImages, MAX_DEBUG_IMAGES, type DebugImage } from './debug-images';
export { parseBody } from './parse-body';
