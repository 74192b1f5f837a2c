import { PLAN_IDS, planOf } from '@tracker/core';
import { Ctx, Query, Resolver } from 'type-graphql';
import { requirePrincipal, type Context } from '../../context';
import { PlanInfoType, toPlanInfoType } from './plan.type';

@Resolver()
export class PlanResolver {
  // Read from core's table on every call, never copied: the dashboard's plan comparison and its
  // "needs Pro" explanations then change with the limits ingest and the API enforce. Any
  // signed-in caller, and API tokens of every scope (a query: `read`, scope-policy.ts); the
  // catalogue is the same for everyone and names no organization.
  @Query(() => [PlanInfoType], {
    description: 'The plan catalogue, cheapest first. Any signed-in user or API token (read scope).',
  })
  plans(@Ctx() ctx: Context): PlanInfoType[] {
    requirePrincipal(ctx);
    return PLAN_IDS.map((id) => toPlanInfoType(planOf(id)));
  }
}
