import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { fastifyApolloDrainPlugin, fastifyApolloHandler } from '@as-integrations/fastify';
import {
  AppError,
  authenticateBearer,
  createAuthThrottle,
  createDatabaseThrottleStore,
  createDatabaseUsageReader,
  type Principal,
} from '@tracker/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createContext, type ApiDeps, type Context } from './context';
import { forbiddenStatusPlugin } from './forbidden-status.plugin';
import { formatError, rateLimitedError } from './format-error';
import { createMemoryRateLimiter, type GraphqlRateLimiter } from './rate-limit/graphql-rate-limiter';
import { createClientAddressReader } from './rate-limit/client-address';
import { requestOriginOf } from './audit/request-origin';
import { stripeWebhookPlugin } from './billing/stripe-webhook.plugin';
import { getSchema } from './schema';
import { MAX_QUERY_TOKENS, queryLimitsPlugin } from './limits/query-limits.plugin';
import { storableInputPlugin } from './limits/storable-input.plugin';
import { refuseOutsizedDocument } from './limits/document-shape.hook';

export interface ApiOptions extends ApiDeps {
  /** Schema introspection; default: `config.graphqlIntrospection` (TRACKER_GRAPHQL_INTROSPECTION, on). */
  introspection?: boolean;
  /**
   * GraphQL requests per token (docs/quotas.md). The server passes a Redis-backed one when
   * REDIS_URL is set, so every api process shares the budget; default: in memory, from
   * `config.graphqlRateLimit`.
   */
  rateLimiter?: GraphqlRateLimiter;
  /**
   * The secret the web role signs browsers' addresses with (TRACKER_SESSION_SECRET, or the one in
   * the data folder when web runs in this process). A signed-out request carrying a valid
   * X-Tracker-Client-Address is rate-limited by that address; without the secret, or with a bad
   * signature, the header is ignored and the connection's address counts.
   */
  clientAddressSecret?: string;
}

/** Mounts GraphQL at `/graphql`. Call `stop` (returned) on shutdown. */
export async function apiPlugin(app: FastifyInstance, options: ApiOptions): Promise<{ stop(): Promise<void> }> {
  const apollo = await createApollo({
    introspection: options.introspection ?? options.config.graphqlIntrospection,
    plugins: [fastifyApolloDrainPlugin(app)],
  });
  const deps: ApiDeps = {
    ds: options.ds,
    config: options.config,
    usage: options.usage ?? createDatabaseUsageReader(options.ds),
    onProjectChanged: options.onProjectChanged,
    clock: options.clock,
    sendAlert: options.sendAlert,
    enqueueReplay: options.enqueueReplay,
    instanceVersion: options.instanceVersion,
    throttle: options.throttle ?? createAuthThrottle(createDatabaseThrottleStore(options.ds), { clock: options.clock }),
  };
  const limiter = options.rateLimiter ?? createMemoryRateLimiter(options.config.graphqlRateLimit);
  const refusals = createRefusalLog();
  const clientAddressOf = createClientAddressReader(options.clientAddressSecret);
  // Apollo's own route handler on a route of ours: the plugin form takes no hooks, and the
  // document's shape is checked before Apollo parses and validates it (docs/decisions/036).
  app.route({
    method: ['GET', 'POST', 'OPTIONS'],
    url: '/graphql',
    preHandler: refuseOutsizedDocument,
    handler: fastifyApolloHandler<Context>(apollo, {
      context: async (request: FastifyRequest, reply: FastifyReply) => {
        const clientAddress = clientAddressOf(request);
        const context = await contextOf(request, reply, deps, clientAddress);
        context.origin = requestOriginOf(request, clientAddress, options.clientAddressSecret);
        await enforceRateLimit(limiter, request, context, refusals, clientAddress);
        return context;
      },
    }),
  });
  // Stripe webhooks, in their own scope (raw body); answers BILLING_NOT_CONFIGURED without Stripe.
  await app.register(stripeWebhookPlugin, deps);
  return { stop: () => apollo.stop() };
}

/** The Apollo server, configured once for HTTP and for tests (`executeOperation`). */
export async function createApollo(
  options: { introspection?: boolean; plugins?: ApolloServerPlugin<Context>[] } = {},
): Promise<ApolloServer<Context>> {
  const schema = await getSchema();
  const apollo = new ApolloServer<Context>({
    schema,
    formatError,
    // Apollo adds stack traces unless NODE_ENV=production; internals never go to clients.
    includeStacktraceInErrorResponses: false,
    // The server owns shutdown (drain, close, exit 0 within 10 s). Left on, Apollo stops itself
    // on SIGTERM and re-sends the signal, killing an api-only process mid-request (exit 143).
    stopOnTerminationSignals: false,
    introspection: options.introspection ?? true,
    // CSRF prevention is on by default in Apollo 5; said here so nobody turns it off by accident.
    csrfPrevention: true,
    // Parsing is the one step before the limits below; a bound on tokens keeps it cheap.
    parseOptions: { maxTokens: MAX_QUERY_TOKENS },
    // Apollo's cache-control plugin is on unless disabled, and it runs a hook for every resolved
    // field; this API sets no cache hints (answers are per user), so it was pure cost: about a
    // third of the CPU of a 50-issue page (docs/issue-queries.md).
    plugins: [
      ApolloServerPluginCacheControlDisabled(),
      queryLimitsPlugin<Context>(schema),
      storableInputPlugin<Context>(),
      forbiddenStatusPlugin<Context>(),
      ...(options.plugins ?? []),
    ],
  });
  await apollo.start();
  return apollo;
}

/**
 * `Authorization: Bearer <ets_ session | eta_ API token>` to the request's context. With an API
 * token, the request's logger (and so fastify's "request completed" line) carries its id,
 * `apiTokenId`; the secret itself is never logged.
 */
async function contextOf(request: FastifyRequest, reply: FastifyReply, deps: ApiDeps, ip: string): Promise<Context> {
  const header = request.headers.authorization;
  if (!header?.startsWith('Bearer ')) return createContext(deps, null, { log: request.log, clientAddress: ip });
  const auth = await authenticateBearer(deps.ds, header.slice('Bearer '.length).trim());
  if (auth.principal?.apiTokenId) {
    const log = request.log.child({ apiTokenId: auth.principal.apiTokenId, userId: auth.principal.user.id });
    request.log = log;
    reply.log = log;
  }
  return createContext(deps, auth.principal, {
    authProblem: auth.principal ? null : auth.problem,
    log: request.log,
    clientAddress: ip,
  });
}

/** Who a request counts against: its session or API token, else the client's address. */
function rateLimitSubject(principal: Principal | null, ip: string): string {
  if (principal?.apiTokenId) return `token:${principal.apiTokenId}`;
  if (principal?.sessionId) return `session:${principal.sessionId}`;
  return `ip:${ip}`;
}

/**
 * Refuses the request with RATE_LIMITED (HTTP 429, `Retry-After`) when its subject is over the
 * limit. Runs after authentication, so a valid token is limited by its id whatever address it
 * comes from, and an unknown or missing one by address (random bearer strings do not get a
 * fresh budget each). A limiter that fails (Redis down) lets the request through: the limit
 * protects the service, it must not take the API down with Redis.
 */
async function enforceRateLimit(
  limiter: GraphqlRateLimiter,
  request: FastifyRequest,
  context: Context,
  refusals: ReturnType<typeof createRefusalLog>,
  ip: string,
): Promise<void> {
  const subject = rateLimitSubject(context.principal, ip);
  let decision;
  try {
    decision = await limiter.hit(subject);
  } catch (err) {
    request.log.error({ err }, 'graphql rate limiter failed; request let through');
    return;
  }
  if (decision.allowed) return;
  if (refusals.shouldLog(subject)) {
    // The token's id (or the session's, or the address): never the secret.
    request.log.warn(
      {
        apiTokenId: context.principal?.apiTokenId ?? undefined,
        sessionId: context.principal?.sessionId ?? undefined,
        userId: context.principal?.user.id,
        ip,
        retryAfter: decision.retryAfter,
      },
      'graphql rate limit exceeded',
    );
  }
  throw rateLimitedError(
    new AppError(
      'RATE_LIMITED',
      `Too many GraphQL requests from this token (or address, without one): try again in ${decision.retryAfter} s`,
      decision.retryAfter,
    ),
  );
}

/** One warning per subject per minute per process: a client hammering past its limit must not flood the log. */
function createRefusalLog(intervalMs = 60_000) {
  const last = new Map<string, number>();
  return {
    shouldLog(subject: string): boolean {
      const now = Date.now();
      if (last.size > 10_000) for (const [k, t] of last) if (now - t >= intervalMs) last.delete(k);
      const previous = last.get(subject);
      if (previous !== undefined && now - previous < intervalMs) return false;
      last.set(subject, now);
      return true;
    },
  };
}
