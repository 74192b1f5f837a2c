import type { User } from '@tracker/core';
import { Field, ID, ObjectType } from 'type-graphql';
import { OrganizationType } from '../organization/organization.type';

@ObjectType()
export class UserType {
  @Field(() => ID)
  id: string;

  @Field(() => String)
  email: string;
}

export const toUserType = (u: User): UserType => ({ id: u.id, email: u.email });

@ObjectType({ description: 'A new session. The token is shown once; send it as Authorization: Bearer <token>.' })
export class AuthPayload {
  @Field(() => String)
  token: string;

  @Field(() => UserType)
  user: UserType;

  @Field(() => OrganizationType, {
    nullable: true,
    description: "The user's first organization; null when they belong to none (they can accept an invitation).",
  })
  organization: OrganizationType | null;
}
