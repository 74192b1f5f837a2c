export { sentryApiPlugin, sentryApiErrorHandler } from './sentry-api.plugin';
export { createSentryApi, sentryApiPaths } from './sentry-api-route';
export type {
  SentryApi,
  SentryApiCall,
  SentryApiDeps,
  SentryApiRouteOptions,
  SentryApiRoutes,
} from './sentry-api-route';
