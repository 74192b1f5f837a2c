import { Field, ID, ObjectType } from 'type-graphql';
import { UserType } from '../auth/auth.type';

@ObjectType('Session', { description: 'One of your signed-in sessions. Never shows the token.' })
export class SessionType {
  @Field(() => ID)
  id: string;

  @Field(() => String)
  createdAt: string;

  @Field(() => String)
  expiresAt: string;

  @Field(() => Boolean, { description: 'The session this request was made with.' })
  current: boolean;
}

@ObjectType('EmailChangeResult')
export class EmailChangeResultType {
  @Field(() => UserType, {
    description: 'You, with the email as it is now (unchanged while a confirmation is pending).',
  })
  user: UserType;

  @Field(() => Boolean, {
    description:
      'True: the email changed at once (no SMTP on this instance). False: a link was emailed to the new address and the change waits for it.',
  })
  changed: boolean;

  @Field(() => String, { nullable: true, description: 'The address waiting for confirmation, when not changed yet.' })
  pendingEmail: string | null;
}
