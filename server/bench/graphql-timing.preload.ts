import { performance } from 'node:perf_hooks';

/**
 * Bench only, loaded with `--import` into the Tracker process that dashboard-render.bench.ts
 * forks (never part of the server): times every GraphQL request the dashboard's loaders send
 * (web/app/lib/graphql.server.ts posts JSON with an `operationName`), from the call to the
 * response headers. Apollo writes its answer in one piece once the operation has run, so that is
 * the operation's time as the loader waits for it, transport over loopback included; reading the
 * body and parsing it stays with the loader.
 *
 * Times are epoch milliseconds (`timeOrigin + now()`), comparable with the bench process's, which
 * assigns each operation to the page request whose window holds its start (requests are sent one
 * at a time). The bench asks for them over the fork's IPC channel.
 */
export type GraphQLTiming = [operation: string, startEpochMs: number, ms: number];

const timings: GraphQLTiming[] = [];
const original = globalThis.fetch;

globalThis.fetch = async function timedFetch(input: any, init?: any): Promise<Response> {
  const body = init?.body;
  const operation = typeof body === 'string' ? /"operationName":"(\w+)"/.exec(body)?.[1] : undefined;
  if (!operation) return original(input, init);
  const start = performance.now();
  const response = await original(input, init);
  timings.push([operation, performance.timeOrigin + start, performance.now() - start]);
  return response;
};

process.on('message', (message) => {
  if (message === 'graphql-timings') process.send?.({ graphqlTimings: timings.splice(0) });
});
