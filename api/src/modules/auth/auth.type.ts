import { Field, ID, ObjectType } from 'type-graphql';
import { OrganizationType } from '../organization/organization.type';

@ObjectType()
export class UserType {
  @Field(() => ID)
  id: string;

  @Field(() => String)
  email: string;
}

@ObjectType({ description: 'A new session. The token is shown once; send it as Authorization: Bearer <token>.' })
export class AuthPayload {
  @Field(() => String)
  token: string;

  @Field(() => UserType)
  user: UserType;

  @Field(() => OrganizationType)
  organization: OrganizationType;
}
