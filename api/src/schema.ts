import 'reflect-metadata';
import type { GraphQLSchema } from 'graphql';
import { buildSchema } from 'type-graphql';
import { AuthResolver } from './modules/auth/auth.resolver';
import { IssueResolver } from './modules/issue/issue.resolver';
import { OrganizationResolver } from './modules/organization/organization.resolver';
import { ProjectResolver } from './modules/project/project.resolver';

export const RESOLVERS = [AuthResolver, OrganizationResolver, ProjectResolver, IssueResolver] as const;

let cached: Promise<GraphQLSchema> | undefined;

/** Built once per process: type-graphql's metadata is global, and building is not free. */
export function getSchema(): Promise<GraphQLSchema> {
  cached ??= buildSchema({ resolvers: RESOLVERS, validate: true });
  return cached;
}
