export { mapSentrySession, sessionUserHash } from './map-sentry-session';
export { persistSessions, type PreparedSession, type SessionsResult } from './persist-sessions';
export {
  MAX_AGGREGATE_BUCKETS,
  MAX_BUCKET_SESSIONS,
  sessionBodySchema,
  type SessionAggregate,
  type SessionBody,
  type SessionUpdate,
} from './session.schema';
export { purgeSessionStates, SESSION_STATE_DAYS } from './purge-session-states';
