import { data, redirect, type ActionFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, useActionData, useNavigation, useRouteLoaderData } from '@remix-run/react';
import { Field, FormError } from '../components/field';
import { mutateApi } from '../lib/graphql.server';
import type { loader as appLoader } from './_app';
import { graphql } from '../graphql';

const CREATE_PROJECT_MUTATION = graphql(`
  mutation CreateProject($organizationId: ID!, $name: String!) {
    createProject(organizationId: $organizationId, name: $name) {
      id
    }
  }
`);

export const meta: MetaFunction = () => [{ title: 'New project · Tracker' }];

export async function action(args: ActionFunctionArgs) {
  const form = await args.request.formData();
  const organizationId = String(form.get('organizationId') ?? '');
  const name = String(form.get('name') ?? '').trim();
  const result = await mutateApi(args, CREATE_PROJECT_MUTATION, { organizationId, name });
  if (!result.ok) return data({ error: result.error.message, name }, { status: 400 });
  return redirect(`/projects/${encodeURIComponent(result.data.createProject.id)}`);
}

export default function NewProjectPage() {
  const app = useRouteLoaderData<typeof appLoader>('routes/_app');
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const organizations = app?.viewer.organizations ?? [];
  return (
    <div className="page-narrow">
      <h1>Create a project</h1>
      <p className="muted">A project receives the errors of one application. It gets its own DSN.</p>
      <Form method="post" className="card form">
        <div className="field">
          <label htmlFor="field-organizationId">Organization</label>
          <select id="field-organizationId" name="organizationId" required>
            {organizations.map((org) => (
              <option key={org.id} value={org.id}>
                {org.name}
              </option>
            ))}
          </select>
        </div>
        <Field label="Project name" name="name" type="text" required defaultValue={actionData?.name} />
        <FormError message={actionData?.error} />
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Creating…' : 'Create project'}
        </button>
      </Form>
    </div>
  );
}
