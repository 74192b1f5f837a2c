import { Field, ObjectType, registerEnumType } from 'type-graphql';
import { ChannelTypeEnum } from './alert.type';

export enum AlertTargetEnum {
  URL = 'URL',
  EMAIL = 'EMAIL',
}
registerEnumType(AlertTargetEnum, { name: 'AlertChannelTarget' });

@ObjectType('AlertChannelInfo', {
  description: 'A channel type as this instance offers it: whether it can deliver to it, and what it accepts.',
})
export class AlertChannelInfoType {
  @Field(() => ChannelTypeEnum)
  type: ChannelTypeEnum;

  @Field(() => String, { description: 'Its name for people: "Microsoft Teams".' })
  name: string;

  @Field(() => AlertTargetEnum, { description: 'What a rule of this type is given: channel.url or channel.email.' })
  target: AlertTargetEnum;

  @Field(() => Boolean, { description: 'False: rules of this type are refused (e.g. email without a mail server).' })
  available: boolean;

  @Field(() => String, { nullable: true, description: 'Why it is not available, in users’ words.' })
  unavailableReason: string | null;

  @Field(() => String, {
    description:
      'What to enter and where it may point, true to this instance (e.g. whether private addresses are allowed).',
  })
  help: string;

  @Field(() => Boolean, {
    description:
      'URL channels: whether this instance sends to private, local and loopback addresses (TRACKER_ALLOW_PRIVATE_TARGETS).',
  })
  privateTargetsAllowed: boolean;
}
