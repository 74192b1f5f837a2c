import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import fastifyApollo, { fastifyApolloDrainPlugin } from '@as-integrations/fastify';
import { authenticateBearer } from '@tracker/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createContext, type ApiDeps, type Context } from './context';
import { formatError } from './format-error';
import { stripeWebhookPlugin } from './billing/stripe-webhook.plugin';
import { getSchema } from './schema';

export interface ApiOptions extends ApiDeps {
  /** Schema introspection; on by default so integrations can explore the API. */
  introspection?: boolean;
}

/** Mounts GraphQL at `/graphql`. Call `stop` (returned) on shutdown. */
export async function apiPlugin(app: FastifyInstance, options: ApiOptions): Promise<{ stop(): Promise<void> }> {
  const apollo = await createApollo({ introspection: options.introspection, plugins: [fastifyApolloDrainPlugin(app)] });
  const deps: ApiDeps = { ds: options.ds, config: options.config };
  await app.register(fastifyApollo(apollo), {
    path: '/graphql',
    context: (request: FastifyRequest, reply: FastifyReply) => contextOf(request, reply, deps),
  });
  // Stripe webhooks, in their own scope (raw body); answers BILLING_NOT_CONFIGURED without Stripe.
  await app.register(stripeWebhookPlugin, deps);
  return { stop: () => apollo.stop() };
}

/** The Apollo server, configured once for HTTP and for tests (`executeOperation`). */
export async function createApollo(
  options: { introspection?: boolean; plugins?: ApolloServerPlugin<Context>[] } = {},
): Promise<ApolloServer<Context>> {
  const apollo = new ApolloServer<Context>({
    schema: await getSchema(),
    formatError,
    introspection: options.introspection ?? true,
    // CSRF prevention is on by default in Apollo 5; said here so nobody turns it off by accident.
    csrfPrevention: true,
    // Apollo's cache-control plugin is on unless disabled, and it runs a hook for every resolved
    // field; this API sets no cache hints (answers are per user), so it was pure cost: about a
    // third of the CPU of a 50-issue page (docs/issue-queries.md).
    plugins: [ApolloServerPluginCacheControlDisabled(), ...(options.plugins ?? [])],
  });
  await apollo.start();
  return apollo;
}

/**
 * `Authorization: Bearer <ets_ session | eta_ API token>` to the request's context. With an API
 * token, the request's logger (and so fastify's "request completed" line) carries its id,
 * `apiTokenId`; the secret itself is never logged.
 */
async function contextOf(request: FastifyRequest, reply: FastifyReply, deps: ApiDeps): Promise<Context> {
  const header = request.headers.authorization;
  if (!header?.startsWith('Bearer ')) return createContext(deps, null, { log: request.log });
  const auth = await authenticateBearer(deps.ds, header.slice('Bearer '.length).trim());
  if (auth.principal?.apiTokenId) {
    const log = request.log.child({ apiTokenId: auth.principal.apiTokenId, userId: auth.principal.user.id });
    request.log = log;
    reply.log = log;
  }
  return createContext(deps, auth.principal, { authProblem: auth.principal ? null : auth.problem, log: request.log });
}
