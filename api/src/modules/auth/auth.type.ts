import type { User } from '@tracker/core';
import { Field, ID, ObjectType } from 'type-graphql';
import { OrganizationType } from '../organization/organization.type';

@ObjectType()
export class UserType {
  @Field(() => ID)
  id: string;

  @Field(() => String)
  email: string;

  @Field(() => Boolean, {
    description: 'Whether an email to this address confirmed it (docs/accounts.md, email ownership).',
  })
  emailVerified: boolean;

  @Field(() => Boolean, { description: 'Whether two-factor authentication is on.' })
  twoFactorEnabled: boolean;
}

export const toUserType = (u: User): UserType => ({
  id: u.id,
  email: u.email,
  emailVerified: !!u.emailVerifiedAt,
  twoFactorEnabled: !!u.totpSecret,
});

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

@ObjectType({ description: 'The answer of signIn: a session, or the code step for an account with two-factor on.' })
export class SignInResultType {
  @Field(() => AuthPayload, { nullable: true })
  session: AuthPayload | null;

  @Field(() => String, {
    nullable: true,
    description: 'Set when a code is needed: pass it to signInWithTwoFactor within 10 minutes.',
  })
  twoFactorChallenge: string | null;

  @Field(() => Boolean, {
    description: 'An organization of the user requires two-factor and the user has none: enrol before seeing it.',
  })
  twoFactorEnrolmentRequired: boolean;
}
