import { Form } from '@remix-run/react';
import { Field } from '../../components/field';
import { Section } from '../settings/settings-section';

/** The organization's name (owners and admins change it; the API says so to anyone else). */
export function NameSection({ name, slug, busy }: { name: string; slug: string; busy: boolean }) {
  return (
    <Section id="org-name-heading" title="Name">
      <Form method="post" className="form form-inline">
        <Field
          id="org-name"
          label="Organization name"
          name="name"
          required
          maxLength={100}
          defaultValue={name}
          autoComplete="organization"
          hint={`Links keep using its slug, ${slug}.`}
        />
        <button
          type="submit"
          name="intent"
          value="renameOrganization"
          className="button button-primary"
          disabled={busy}
        >
          Rename
        </button>
      </Form>
    </Section>
  );
}
