import { Form, useNavigation } from '@remix-run/react';
import { ConfirmButton } from '../../components/confirm-button';
import { CopyButton } from '../../components/copy-button';
import { Field, FormError } from '../../components/field';

export interface SsoSettingsView {
  issuer: string;
  clientId: string;
  clientSecretHint: string;
  emailDomains: string[];
  defaultRole: string;
  requireSso: boolean;
  callbackUrl: string;
}

/**
 * The organization's OpenID Connect provider. The client secret is write-only: once saved, the
 * page shows its last characters and an empty field that keeps it unless something is typed.
 */
export function SsoSettingsForm(props: {
  settings: SsoSettingsView | null;
  callbackUrl: string;
  error?: string | null;
  saved?: boolean;
}) {
  const s = props.settings;
  const busy = useNavigation().state === 'submitting';
  return (
    <>
      <section className="card" aria-labelledby="sso-provider">
        <h2 id="sso-provider">Identity provider</h2>
        <p className="muted">
          Register Tracker at your provider as a confidential web client with this redirect URI, then enter what it
          gives you. Tracker reads the provider&apos;s discovery document when you save.
        </p>
        <div className="field">
          <div className="copy-row">
            <code className="mono break" id="sso-callback">
              {props.callbackUrl}
            </code>
            <CopyButton text={props.callbackUrl} label="Copy the redirect URI" />
          </div>
        </div>
        <Form method="post" className="form">
          <Field
            label="Issuer URL"
            name="issuerUrl"
            type="url"
            required
            defaultValue={s?.issuer}
            placeholder="https://login.example.com/realms/acme"
            hint="The address before /.well-known/openid-configuration."
          />
          <Field label="Client ID" name="clientId" required autoComplete="off" defaultValue={s?.clientId} />
          <Field
            label="Client secret"
            name="clientSecret"
            type="password"
            autoComplete="new-password"
            required={!s}
            hint={s ? `Saved (${s.clientSecretHint}); leave empty to keep it.` : 'Shown only while you type it.'}
          />
          <Field
            label="Allowed email domains"
            name="emailDomains"
            required
            autoComplete="off"
            defaultValue={s?.emailDomains.join(', ')}
            placeholder="acme.com, acme.co.uk"
            hint="Comma-separated. People with a verified address in these domains join on their first sign-in."
          />
          <div className="field">
            <label htmlFor="sso-role">Role of new members</label>
            <select id="sso-role" name="defaultRole" defaultValue={s?.defaultRole ?? 'MEMBER'}>
              <option value="MEMBER">Member (triage)</option>
              <option value="ADMIN">Admin (members, projects, keys, alerts)</option>
            </select>
          </div>
          <div className="checkbox-row">
            <label>
              <input type="checkbox" name="requireSso" defaultChecked={s?.requireSso ?? false} /> Require SSO: members
              and admins cannot sign in with a password (owners still can, and it is recorded)
            </label>
          </div>
          <FormError message={props.error} />
          {props.saved && (
            <p role="status" className="muted">
              Saved.
            </p>
          )}
          <button type="submit" name="intent" value="save" className="button button-primary" disabled={busy}>
            {s ? 'Save changes' : 'Turn on single sign-on'}
          </button>
        </Form>
      </section>
      {s && (
        <section className="card" aria-labelledby="sso-off">
          <h2 id="sso-off">Turn off</h2>
          <p className="muted">People who signed in with SSO keep their accounts and memberships.</p>
          <Form method="post">
            <ConfirmButton intent="delete" label="Turn off single sign-on" confirmLabel="Yes, turn it off" />
          </Form>
        </section>
      )}
    </>
  );
}
