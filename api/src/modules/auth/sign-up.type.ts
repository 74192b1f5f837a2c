import { Field, ObjectType } from 'type-graphql';
import { OrganizationType } from '../organization/organization.type';
import { UserType } from './auth.type';

@ObjectType({
  description:
    'The answer of signup. Without email (no SMTP): the new session, user and organization. With email: only ' +
    'checkEmail, the same for every address (a new one gets a confirmation link, one with an account is told so by email).',
})
export class SignUpPayload {
  @Field(() => String, { nullable: true, description: 'The new session (shown once); null when checkEmail.' })
  token: string | null;

  @Field(() => UserType, { nullable: true })
  user: UserType | null;

  @Field(() => OrganizationType, { nullable: true })
  organization: OrganizationType | null;

  @Field(() => Boolean, {
    description: 'True: an email went to the address; the account (and its organization) waits for its link.',
  })
  checkEmail: boolean;
}

@ObjectType({ description: 'A confirmed address.' })
export class EmailConfirmationType {
  @Field(() => String)
  email: string;

  @Field(() => String, {
    nullable: true,
    description: 'The slug of the organization named at sign-up, created now; null when there was none.',
  })
  organizationSlug: string | null;
}
