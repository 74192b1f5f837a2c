import type { Config, Principal } from '@tracker/core';
import type { FastifyBaseLogger } from 'fastify';
import type { DataSource } from 'typeorm';
import { AppError } from '@tracker/core';
import { createLoaders, type Loaders } from './loaders';

export interface ApiDeps {
  ds: DataSource;
  config: Config;
}

/** Per request: who is calling, and request-scoped DataLoaders. */
export interface Context extends ApiDeps {
  principal: Principal | null;
  /** Why the request's bearer token was refused (unknown, revoked, expired), if it was. */
  authProblem: string | null;
  loaders: Loaders;
  /** The request's logger (carrying `apiTokenId` when an API token made the request); absent in tests. */
  log: FastifyBaseLogger | null;
}

export function createContext(
  deps: ApiDeps,
  principal: Principal | null,
  extra: { authProblem?: string | null; log?: FastifyBaseLogger | null } = {},
): Context {
  return {
    ...deps,
    principal,
    authProblem: extra.authProblem ?? null,
    loaders: createLoaders(deps.ds),
    log: extra.log ?? null,
  };
}

export function requirePrincipal(ctx: Context): Principal {
  if (!ctx.principal) {
    throw new AppError('UNAUTHENTICATED', ctx.authProblem ?? 'Sign in first: send Authorization: Bearer <token>');
  }
  return ctx.principal;
}

/** For what only a person at the dashboard may do (scope checks are in auth/scope-guard.ts). */
export function requireSession(ctx: Context): Principal & { sessionId: string } {
  const principal = requirePrincipal(ctx);
  if (!principal.sessionId) {
    throw new AppError('FORBIDDEN', 'This needs a signed-in session: API tokens cannot do it');
  }
  return principal as Principal & { sessionId: string };
}
