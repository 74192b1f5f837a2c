export { apiPlugin, createApollo } from './api.plugin';
export type { ApiOptions } from './api.plugin';
export { getSchema } from './schema';
export { createMemoryRateLimiter, createRedisRateLimiter } from './rate-limit/graphql-rate-limiter';
export type {
  GraphqlRateLimiter,
  RateLimitDecision,
  RateLimitRedisCommands,
  RateLimitSettings,
} from './rate-limit/graphql-rate-limiter';
