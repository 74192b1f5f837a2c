import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from '@remix-run/react';
import { Field, FormError } from '../../components/field';
import { safeRedirectPath } from '../../lib/safe-redirect';
import type { TwoFactorActionData } from './two-factor-action.server';
import type { TwoFactorLoaderData } from './two-factor-loader.server';

const CODE_HINT = 'The 6-digit code your authenticator app shows now.';

/** `/account/two-factor`: enrol (QR code, confirm, recovery codes), or regenerate codes and turn it off. */
export function TwoFactorPage() {
  const { twoFactor, viewer } = useLoaderData<TwoFactorLoaderData>();
  const action = useActionData<TwoFactorActionData>();
  const busy = useNavigation().state === 'submitting';
  const [searchParams] = useSearchParams();
  const next = safeRedirectPath(searchParams.get('redirectTo'));
  const enrolling = action && (action.intent === 'start' || action.intent === 'confirm') ? action : null;
  return (
    <section className="page-narrow" aria-labelledby="two-factor-heading">
      <h1 id="two-factor-heading">Two-factor authentication</h1>
      {viewer?.twoFactorEnrolmentRequired && (
        <p className="card" role="status">
          An organization you belong to requires two-factor authentication. Set it up to see its data.
        </p>
      )}
      {action?.intent === 'codes' ? (
        <div className="card" role="status">
          <h2>Your recovery codes</h2>
          <p>
            Each code signs you in once when you do not have your phone. Keep them somewhere safe: they are shown only
            now.
          </p>
          <ul className="recovery-codes mono">
            {action.recoveryCodes.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ul>
          <p>
            <Link to={next}>Done</Link>
          </p>
        </div>
      ) : twoFactor.enabled ? (
        <>
          <p className="card" role="status">
            Two-factor authentication is <strong>on</strong> for {viewer?.email}. {twoFactor.recoveryCodesLeft} of 10
            recovery codes left.
          </p>
          <Form method="post" className="card form">
            <h2>New recovery codes</h2>
            <input type="hidden" name="intent" value="regenerate" />
            <Field label="Code" name="code" id="regenerate-code" autoComplete="one-time-code" required hint={CODE_HINT} />
            <button type="submit" className="button" disabled={busy}>
              Replace my recovery codes
            </button>
          </Form>
          <Form method="post" className="card form">
            <h2>Turn off</h2>
            <input type="hidden" name="intent" value="disable" />
            <Field
              label="Code or recovery code"
              name="code"
              id="disable-code"
              autoComplete="one-time-code"
              required
              hint="A current code from your app, or one of your recovery codes."
            />
            <button type="submit" className="button button-danger" disabled={busy}>
              Turn off two-factor
            </button>
          </Form>
          <FormError message={action?.error} />
        </>
      ) : enrolling ? (
        <Form method="post" className="card form">
          <h2>Scan the code</h2>
          <p>Scan this QR code with an authenticator app (any app for TOTP codes), then type the code it shows.</p>
          <img src={enrolling.qrCodeDataUrl} alt="QR code of your two-factor secret" width={220} height={220} className="qr-code" />
          <p>
            Cannot scan? Type this secret into the app: <code className="mono">{enrolling.secret}</code>
          </p>
          <input type="hidden" name="intent" value="confirm" />
          <input type="hidden" name="secret" value={enrolling.secret} />
          <input type="hidden" name="qrCodeDataUrl" value={enrolling.qrCodeDataUrl} />
          <Field label="Code" name="code" autoComplete="one-time-code" inputMode="numeric" required autoFocus hint={CODE_HINT} />
          <FormError message={enrolling.error} />
          <button type="submit" className="button button-primary" disabled={busy}>
            {busy ? 'Checking…' : 'Turn on two-factor'}
          </button>
        </Form>
      ) : (
        <Form method="post" className="card form">
          <p>
            Two-factor authentication is <strong>off</strong>. With it on, signing in asks for a code from an app on
            your phone after the password. API tokens keep working as they are.
          </p>
          <input type="hidden" name="intent" value="start" />
          <FormError message={action?.error} />
          <button type="submit" className="button button-primary" disabled={busy}>
            Set up two-factor
          </button>
        </Form>
      )}
    </section>
  );
}
