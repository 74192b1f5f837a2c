import {
  AppError,
  checkSignUpInput,
  confirmEmailAddress,
  emailConfirmationLink,
  isAppError,
  renderAlreadyRegisteredEmail,
  renderEmailConfirmationEmail,
  requestSignUp,
  requireSignUpOpen,
  resendEmailConfirmation,
  signUp,
  SIGN_UP_REFUSED,
  type AccountEmail,
  type SignUpInput,
} from '@tracker/core';
import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import { requireSession, type Context } from '../../context';
import { emailKey, throttled } from '../../auth/throttled';
import { sendInvitationEmail as sendEmail } from '../member/invitation-mailer';
import { toOrganizationType } from '../organization/organization.type';
import { adoptSession } from './auth.resolver';
import { toUserType } from './auth.type';
import { EmailConfirmationType, SignUpPayload } from './sign-up.type';

/** Sent after answering: the answer's time must not depend on which email goes out (decision 066). */
function sendLater(ctx: Context, to: string, message: AccountEmail, what: string): void {
  const smtp = ctx.config.smtp;
  if (!smtp) return;
  void sendEmail(smtp, to, message).catch((err: unknown) => ctx.log?.error({ err }, `${what} email failed`));
}

/** Makes the unverified account and emails its link, or emails "this address has an account". */
async function createOrTell(ctx: Context, input: SignUpInput, closed: boolean): Promise<void> {
  const r = await requestSignUp(ctx.ds, input, ctx.clock(), { closed });
  const base = ctx.config.publicUrl;
  const message =
    r.kind === 'created'
      ? renderEmailConfirmationEmail({ link: emailConfirmationLink(base, r.token), expiresAt: r.expiresAt })
      : renderAlreadyRegisteredEmail({ signInLink: `${base}/login`, resetLink: `${base}/forgot-password` });
  sendLater(ctx, r.user.email, message, r.kind === 'created' ? 'sign-up confirmation' : 'already registered');
}

@Resolver()
export class SignUpResolver {
  @Mutation(() => SignUpPayload, {
    description:
      'Creates an account. Without email (no SMTP): the account, its first organization and a session at once. ' +
      'With email: answers checkEmail for every address; a new address gets an unverified account (it can sign ' +
      'in) and a link that confirms it and creates the organization; an address with an account gets an email ' +
      'saying so. Throttled per email and client address, every request counted (docs/accounts.md).',
  })
  async signup(
    @Arg('email', () => String) email: string,
    @Arg('password', () => String) password: string,
    @Arg('organizationName', () => String) organizationName: string,
    @Ctx() ctx: Context,
  ): Promise<SignUpPayload> {
    const input = { email, password, organizationName };
    const closed = ctx.config.signupClosed;
    checkSignUpInput(input); // bad input: BAD_USER_INPUT, not counted
    if (!ctx.config.smtp) {
      const r = await throttled(
        ctx,
        'sign-up',
        emailKey(email),
        () => signUp(ctx.ds, input, ctx.config.defaultPlan, { closed }),
        { isFailure: (err) => isAppError(err) && err.message === SIGN_UP_REFUSED, clearOnSuccess: false },
      );
      adoptSession(ctx, r.user, r.sessionId);
      return {
        token: r.token,
        user: toUserType(r.user),
        organization: toOrganizationType(r.organization),
        checkEmail: false,
      };
    }
    await throttled(
      ctx,
      'sign-up',
      emailKey(email),
      async () => {
        await requireSignUpOpen(ctx.ds.manager, closed);
        // The account is made after answering, like the email: a new address costs two inserts that a
        // registered one does not, measured at ~60 ms on PGlite, and the answer must not show it.
        void createOrTell(ctx, input, closed).catch((err: unknown) => ctx.log?.error({ err }, 'sign-up failed'));
      },
      // Every sign-up counts, like reset requests: one address cannot be flooded with these emails.
      { countSuccess: true },
    );
    return { token: null, user: null, organization: null, checkEmail: true };
  }

  @Mutation(() => EmailConfirmationType, {
    description:
      'Confirms an address with the link from the sign-up email (single use, 24 hours; a newer link withdraws ' +
      'older ones) and creates the organization named at sign-up. Only a session of the account that signed up ' +
      'may use it (decision 066). Guessing is throttled.',
  })
  async confirmEmailAddress(
    @Arg('token', () => String) token: string,
    @Ctx() ctx: Context,
  ): Promise<EmailConfirmationType> {
    const { user } = requireSession(ctx);
    const r = await throttled(
      ctx,
      'sign-up',
      `link:${String(token).slice(0, 80)}`,
      () => confirmEmailAddress(ctx.ds, token, user.id, ctx.config.defaultPlan, ctx.clock()),
      { isFailure: (err) => isAppError(err) && err.code === 'NOT_FOUND', clearOnSuccess: false },
    );
    ctx.log?.info({ userId: r.user.id, organizationId: r.organization?.id }, 'email address confirmed');
    return { email: r.user.email, organizationSlug: r.organization?.slug ?? null };
  }

  @Mutation(() => Boolean, {
    description:
      'Sessions only. Emails a new confirmation link to the signed-in, unverified address (older links stop ' +
      'working). False when the address is confirmed already. UNAVAILABLE without SMTP.',
  })
  async resendEmailConfirmation(@Ctx() ctx: Context): Promise<boolean> {
    const { user } = requireSession(ctx);
    const smtp = ctx.config.smtp;
    if (!smtp) {
      throw new AppError('UNAVAILABLE', 'This Tracker sends no email (TRACKER_SMTP_URL is not set)');
    }
    const r = await throttled(
      ctx,
      'sign-up',
      emailKey(user.email),
      () => resendEmailConfirmation(ctx.ds, user.id, ctx.clock()),
      {
        countSuccess: true,
      },
    );
    if (!r) return false;
    const message = renderEmailConfirmationEmail({
      link: emailConfirmationLink(ctx.config.publicUrl, r.token),
      expiresAt: r.expiresAt,
    });
    await sendEmail(smtp, r.user.email, message);
    return true;
  }
}
