import type { AlertSender, AuthThrottle, Caller, Clock, Config, Principal, RequestOrigin, UsageReader } from '@tracker/core';
import type { FastifyBaseLogger } from 'fastify';
import type { DataSource } from 'typeorm';
import {
  AppError,
  callerOf,
  createAuthThrottle,
  createDatabaseThrottleStore,
  createDatabaseUsageReader,
  systemClock,
} from '@tracker/core';
import { createLoaders, type Loaders } from './loaders';

export interface ApiDeps {
  ds: DataSource;
  config: Config;
  /**
   * Where the ingest edge's monthly usage counters are read: Redis in production (the server
   * passes a reader over its client), else the `org_usage` table, the default.
   */
  usage?: UsageReader;
  /**
   * Called after a project setting the ingest edge caches (privacy) changed. The all-in-one
   * server forgets the project's DSN keys in its own edge, so the change applies at once there;
   * other ingest processes see it when their cached keys expire (a minute).
   */
  onProjectChanged?: (projectId: string) => void;
  /** What time-dependent rules read as now (snooze in the future, charts, release health); tests hold it. */
  clock?: Clock;
  /**
   * The alert channel code (ingest's `createAlertSender`), handed in by the server so that
   * `testAlertRule` sends through exactly what real alerts use; without it test sends are refused.
   */
  sendAlert?: AlertSender;
  /**
   * The admin screen's dead-letter replay: queues payloads again on the server's queue of their
   * topic (the server hands it in, as it does `sendAlert`: the api never imports ingest).
   * Without it replay answers UNAVAILABLE.
   */
  enqueueReplay?: (topic: string, payloads: string[]) => Promise<void>;
  /** Tracker's version as the admin screen shows it (the server's package); default `unknown`. */
  instanceVersion?: string;
  /**
   * Failed sign-ins, 2FA codes, reset requests and invitation acceptances, counted per account and
   * per client address across processes: the server passes one over Redis when there is Redis;
   * default: over the `auth_throttle` table.
   */
  throttle?: AuthThrottle;
}

/** Per request: who is calling, and request-scoped DataLoaders. */
export interface Context extends ApiDeps {
  usage: UsageReader;
  principal: Principal | null;
  /** Why the request's bearer token was refused (unknown, revoked, expired), if it was. */
  authProblem: string | null;
  loaders: Loaders;
  clock: Clock;
  /** The request's logger (carrying `apiTokenId` when an API token made the request); absent in tests. */
  log: FastifyBaseLogger | null;
  /** The client's address and user agent, for the audit log (audit/request-origin.ts); empty in tests. */
  origin: RequestOrigin;
  throttle: AuthThrottle;
  /** The client's address (the browser's, when the web role vouched for it): the throttle's per-address key. */
  clientAddress: string;
}

export function createContext(
  deps: ApiDeps,
  principal: Principal | null,
  extra: { authProblem?: string | null; log?: FastifyBaseLogger | null; origin?: RequestOrigin; clientAddress?: string } = {},
): Context {
  return {
    throttle: deps.throttle ?? createAuthThrottle(createDatabaseThrottleStore(deps.ds), { clock: deps.clock }),
    clientAddress: extra.clientAddress ?? 'unknown',
    ...deps,
    usage: deps.usage ?? createDatabaseUsageReader(deps.ds),
    principal,
    authProblem: extra.authProblem ?? null,
    clock: deps.clock ?? systemClock,
    loaders: createLoaders(deps.ds, deps.clock ?? systemClock),
    log: extra.log ?? null,
    origin: extra.origin ?? { clientAddress: null, userAgent: null },
  };
}

export function requirePrincipal(ctx: Context): Principal {
  if (!ctx.principal) {
    throw new AppError('UNAUTHENTICATED', ctx.authProblem ?? 'Sign in first: send Authorization: Bearer <token>');
  }
  return ctx.principal;
}

/** The signed-in caller, as core's access checks take it (UNAUTHENTICATED when signed out). */
export function requireCaller(ctx: Context): Caller {
  return callerOf(requirePrincipal(ctx), ctx.origin);
}

/** For what only a person at the dashboard may do (scope checks are in auth/scope-guard.ts). */
export function requireSession(ctx: Context): Principal & { sessionId: string } {
  const principal = requirePrincipal(ctx);
  if (!principal.sessionId) {
    throw new AppError('FORBIDDEN', 'This needs a signed-in session: API tokens cannot do it');
  }
  return principal as Principal & { sessionId: string };
}

/** Now, by the context's clock. */
export function nowOf(ctx: Context): Date {
  return new Date(ctx.clock());
}
