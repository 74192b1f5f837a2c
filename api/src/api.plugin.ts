import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import fastifyApollo, { fastifyApolloDrainPlugin } from '@as-integrations/fastify';
import { authenticate } from '@tracker/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createContext, type ApiDeps, type Context } from './context';
import { formatError } from './format-error';
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
    context: async (request: FastifyRequest) => createContext(deps, await principalOf(request, deps)),
  });
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
    plugins: options.plugins ?? [],
  });
  await apollo.start();
  return apollo;
}

async function principalOf(request: FastifyRequest, deps: ApiDeps) {
  const header = request.headers.authorization;
  if (!header?.startsWith('Bearer ')) return null;
  return authenticate(deps.ds, header.slice('Bearer '.length).trim());
}
