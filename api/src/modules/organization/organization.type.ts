import type { Organization } from '@tracker/core';
import { Field, ID, ObjectType } from 'type-graphql';

@ObjectType({ description: 'A tenant: owns projects, has members and a plan.' })
export class OrganizationType {
  @Field(() => ID)
  id: string;

  @Field(() => String)
  slug: string;

  @Field(() => String)
  name: string;

  @Field(() => String, { description: 'Plan id: free, pro or business.' })
  plan: string;

  @Field(() => Boolean, { description: 'Members must have two-factor on before they see its data (sessions).' })
  requireTwoFactor: boolean;
}

export const toOrganizationType = (o: Organization): OrganizationType => ({
  id: o.id,
  slug: o.slug,
  name: o.name,
  plan: o.plan,
  requireTwoFactor: o.requireTwoFactor ?? false,
});
