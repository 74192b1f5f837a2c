import { Field, Int, ObjectType } from 'type-graphql';

@ObjectType()
export class TwoFactorStatusType {
  @Field(() => Boolean)
  enabled: boolean;

  @Field(() => String, { nullable: true, description: 'ISO 8601.' })
  enabledAt: string | null;

  @Field(() => Int, { description: 'Unused recovery codes left (0 when two-factor is off).' })
  recoveryCodesLeft: number;
}

@ObjectType({
  description: 'A pending two-factor secret, for the authenticator app. Shown to the signed-in user only.',
})
export class TwoFactorEnrolmentType {
  @Field(() => String, { description: 'Base32, for typing into an app that cannot scan.' })
  secret: string;

  @Field(() => String, { description: 'The otpauth:// URI the QR code holds.' })
  uri: string;

  @Field(() => String, { description: 'The QR code as an SVG data URL, rendered by the server.' })
  qrCodeDataUrl: string;
}
