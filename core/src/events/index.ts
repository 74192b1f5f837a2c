export { describeZodError, errorEventSchema, LEVELS, MAX_EVENT_MESSAGE_CHARS, MAX_STACK_CHARS, MAX_TAGS } from './error-event.schema';
export type { ErrorEvent, ErrorEventInput } from './error-event.schema';
export { decodeJob, encodeJob } from './job';
export type { ErrorJob, Job } from './job';
export { persistEvents } from './persist-events';
export type { PersistResult } from './persist-events';
export { prepareEvent, userKeyOf } from './prepare-event';
export type { PreparedEvent } from './prepare-event';
