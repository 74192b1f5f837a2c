import { data, type ActionFunctionArgs } from '@remix-run/node';
import { readString } from '../../lib/form.server';
import { mutateApi } from '../../lib/graphql.server';
import { CONFIRM_ENROLMENT, DISABLE, REGENERATE, START_ENROLMENT } from './queries';

export type TwoFactorActionData =
  | { intent: 'start'; secret: string; qrCodeDataUrl: string; error: null }
  | { intent: 'confirm'; secret: string; qrCodeDataUrl: string; error: string }
  | { intent: 'codes'; recoveryCodes: string[]; error: null }
  | { intent: 'disabled'; error: null }
  | { intent: 'failed'; error: string };

/** Every form of the page posts here with an `intent`; each maps to one mutation. */
export async function runTwoFactorAction(args: ActionFunctionArgs) {
  const form = await args.request.formData();
  const intent = readString(form, 'intent');
  const code = readString(form, 'code');
  const failed = (error: string, status = 400) => data<TwoFactorActionData>({ intent: 'failed', error }, { status });
  if (intent === 'start') {
    const r = await mutateApi(args, START_ENROLMENT);
    if (!r.ok) return failed(r.error.message);
    return data<TwoFactorActionData>({ intent: 'start', ...r.data.startTwoFactorEnrolment, error: null });
  }
  if (intent === 'confirm') {
    const r = await mutateApi(args, CONFIRM_ENROLMENT, { code });
    if (!r.ok) {
      // Keep the QR code on screen: the secret is still pending, and the page posts it back to show it again.
      return data<TwoFactorActionData>(
        {
          intent: 'confirm',
          secret: readString(form, 'secret'),
          qrCodeDataUrl: readString(form, 'qrCodeDataUrl'),
          error: r.error.message,
        },
        { status: 400 },
      );
    }
    return data<TwoFactorActionData>({ intent: 'codes', recoveryCodes: r.data.confirmTwoFactor, error: null });
  }
  if (intent === 'regenerate') {
    const r = await mutateApi(args, REGENERATE, { code });
    if (!r.ok) return failed(r.error.message);
    return data<TwoFactorActionData>({ intent: 'codes', recoveryCodes: r.data.regenerateRecoveryCodes, error: null });
  }
  if (intent === 'disable') {
    const r = await mutateApi(args, DISABLE, { code });
    if (!r.ok) return failed(r.error.message);
    return data<TwoFactorActionData>({ intent: 'disabled', error: null });
  }
  return failed('Unknown action');
}
