import type { SentryApi } from './sentry-api-route';

/**
 * What an upload token may do, in Sentry's scope names: it registers releases and uploads for
 * one project. sentry-cli prints them under "Scopes" and never checks them itself.
 */
export const UPLOAD_TOKEN_SCOPES = ['project:releases', 'project:read', 'org:read'] as const;

/**
 * `GET /api/0/`: what `sentry-cli info` prints. An upload token belongs to a project, not a user,
 * so `user` is null (sentry-cli then prints no "User" line); the token's project and
 * organization are added for people reading the JSON.
 */
export function registerInfoRoute(api: SentryApi): void {
  api.route('GET', '/', async ({ token }) => ({
    version: '0',
    user: null,
    auth: {
      scopes: [...UPLOAD_TOKEN_SCOPES],
      organization: { slug: token.organization.slug, name: token.organization.name },
      project: { slug: token.project.slug, id: String(token.project.number), name: token.project.name },
    },
  }));
}
