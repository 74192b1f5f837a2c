import { Form } from '@remix-run/react';
import { Field } from '../../components/field';
import { Section } from '../settings/settings-section';

/** Changes the password; every other session is signed out (this browser gets a fresh one). */
export function PasswordSection({ busy }: { busy: boolean }) {
  return (
    <Section id="password-heading" title="Password">
      <p className="muted">
        Changing it signs out every other session, on every device. API tokens keep working unless you tick the box.
      </p>
      <Form method="post" className="form">
        <Field
          id="password-current"
          label="Current password"
          name="currentPassword"
          type="password"
          required
          autoComplete="current-password"
        />
        <Field
          id="password-new"
          label="New password"
          name="newPassword"
          type="password"
          required
          minLength={8}
          autoComplete="new-password"
          hint="At least 8 characters."
        />
        <Field
          id="password-confirm"
          label="New password again"
          name="confirmPassword"
          type="password"
          required
          minLength={8}
          autoComplete="new-password"
        />
        <div className="checkbox-row">
          <label>
            <input type="checkbox" name="revokeApiTokens" /> Also revoke all my API tokens
          </label>
        </div>
        <button type="submit" name="intent" value="changePassword" className="button button-primary" disabled={busy}>
          Change password
        </button>
      </Form>
    </Section>
  );
}
