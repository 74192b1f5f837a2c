import type { Config, Principal } from '@tracker/core';
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
  loaders: Loaders;
}

export function createContext(deps: ApiDeps, principal: Principal | null): Context {
  return { ...deps, principal, loaders: createLoaders(deps.ds) };
}

export function requirePrincipal(ctx: Context): Principal {
  if (!ctx.principal) throw new AppError('UNAUTHENTICATED', 'Sign in first: send Authorization: Bearer <token>');
  return ctx.principal;
}
