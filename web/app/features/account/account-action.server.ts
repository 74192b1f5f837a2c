import type { ActionFunctionArgs } from '@remix-run/node';
import { readString } from '../../lib/form.server';
import { mutateApi } from '../../lib/graphql.server';
import { createSessionCookie } from '../../lib/session.server';
import { runSettingsAction, type SettingsActionResult } from '../settings/settings-action.server';
import {
  CHANGE_EMAIL,
  CHANGE_PASSWORD,
  RESEND_EMAIL_CONFIRMATION,
  REVOKE_OTHER_SESSIONS,
  REVOKE_SESSION,
} from './queries';

export type AccountActionResult = SettingsActionResult & { field?: string };

const ok = (done: string): AccountActionResult => ({ error: null, done, secret: null });
const fail = (error: string): AccountActionResult => ({ error, done: null, secret: null });

/**
 * The account page's forms, each one mutation. A password change signs out every session, this
 * one included, and answers a new one: its cookie is set here (`cookie`), or the next page load
 * would find the browser signed out.
 */
export async function runAccountAction(
  args: ActionFunctionArgs,
): Promise<{ result: AccountActionResult; cookie: string | null }> {
  const form = await args.request.formData();
  const intent = readString(form, 'intent');
  switch (intent) {
    case 'changeEmail': {
      const r = await mutateApi(args, CHANGE_EMAIL, {
        currentPassword: readString(form, 'currentPassword'),
        newEmail: readString(form, 'newEmail'),
      });
      if (!r.ok) return { result: { ...fail(r.error.message), field: 'email' }, cookie: null };
      const { changed, pendingEmail, user } = r.data.changeEmail;
      return {
        result: ok(
          changed
            ? `Your email is now ${user.email}.`
            : `We sent a link to ${pendingEmail}: open it within 24 hours to finish the change.`,
        ),
        cookie: null,
      };
    }
    case 'resendEmailConfirmation': {
      const r = await mutateApi(args, RESEND_EMAIL_CONFIRMATION);
      if (!r.ok) return { result: { ...fail(r.error.message), field: 'email' }, cookie: null };
      return {
        result: ok(
          r.data.resendEmailConfirmation
            ? 'We sent a new link: open it within 24 hours.'
            : 'Your address is confirmed already.',
        ),
        cookie: null,
      };
    }
    case 'changePassword': {
      const newPassword = readString(form, 'newPassword');
      if (newPassword !== readString(form, 'confirmPassword')) {
        return {
          result: { ...fail('The new password and its confirmation differ.'), field: 'password' },
          cookie: null,
        };
      }
      const r = await mutateApi(args, CHANGE_PASSWORD, {
        currentPassword: readString(form, 'currentPassword'),
        newPassword,
        revokeApiTokens: form.get('revokeApiTokens') === 'on',
      });
      if (!r.ok) return { result: { ...fail(r.error.message), field: 'password' }, cookie: null };
      const cookie = await createSessionCookie(args.request, args.context, r.data.changePassword.token);
      return { result: ok('Password changed. Every other session is signed out.'), cookie };
    }
    case 'revokeSession': {
      const r = await mutateApi(args, REVOKE_SESSION, { id: readString(form, 'id') });
      return { result: r.ok ? ok('That session is signed out.') : fail(r.error.message), cookie: null };
    }
    case 'revokeOtherSessions': {
      const r = await mutateApi(args, REVOKE_OTHER_SESSIONS);
      if (!r.ok) return { result: fail(r.error.message), cookie: null };
      const n = r.data.revokeOtherSessions;
      return { result: ok(n === 1 ? 'Signed out 1 other session.' : `Signed out ${n} other sessions.`), cookie: null };
    }
    case 'createApiToken':
    case 'revokeApiToken':
      // Personal tokens belong to no organization: the shared action ignores its argument for them.
      return { result: await runSettingsAction(args, '', form), cookie: null };
    default:
      return { result: fail('Unknown action.'), cookie: null };
  }
}
