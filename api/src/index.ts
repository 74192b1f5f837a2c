export { apiPlugin, createApollo } from './api.plugin';
export type { ApiOptions } from './api.plugin';
export { getSchema } from './schema';
