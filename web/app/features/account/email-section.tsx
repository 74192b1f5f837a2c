import { Form } from '@remix-run/react';
import { Field } from '../../components/field';
import { visibleText } from '../../lib/visible-text';
import { Section } from '../settings/settings-section';

/** The account's email, and the form that changes it (the current password proves it is you). */
export function EmailSection({
  email,
  emailVerified,
  pendingEmail,
  busy,
}: {
  email: string;
  emailVerified: boolean;
  pendingEmail: string | null;
  busy: boolean;
}) {
  return (
    <Section id="email-heading" title="Email">
      <p>
        You sign in as <strong className="break">{visibleText(email)}</strong>.
      </p>
      {!emailVerified && (
        <Form method="post" className="form form-inline">
          <p className="notice">
            No email has confirmed this address yet. Where this Tracker sends email, you can create or join an
            organization once you open the link we send.
          </p>
          <button type="submit" name="intent" value="resendEmailConfirmation" className="button" disabled={busy}>
            Send a confirmation link
          </button>
        </Form>
      )}
      {pendingEmail && (
        <p className="notice" role="status">
          Waiting for confirmation: a link was sent to <span className="break">{visibleText(pendingEmail)}</span>. Until
          it is opened you keep signing in with your current email.
        </p>
      )}
      <Form method="post" className="form form-inline">
        <Field id="email-new" label="New email" name="newEmail" type="email" required autoComplete="email" />
        <Field
          id="email-current-password"
          label="Current password"
          name="currentPassword"
          type="password"
          required
          autoComplete="current-password"
        />
        <button type="submit" name="intent" value="changeEmail" className="button button-primary" disabled={busy}>
          Change email
        </button>
      </Form>
    </Section>
  );
}
