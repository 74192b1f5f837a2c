import type { SentryApi } from './sentry-api-route';

/** Releases, deploys and commits as sentry-cli's `releases` and `deploys` commands call them. */
export function registerReleaseRoutes(_api: SentryApi): void {}
