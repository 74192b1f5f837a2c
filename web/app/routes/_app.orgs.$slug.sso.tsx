import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { SsoSettingsForm } from '../features/sso/sso-settings-form';
import {
  DELETE_SSO_MUTATION,
  SAVE_SSO_MUTATION,
  SSO_PAGE_QUERY,
  SSO_SETTINGS_QUERY,
} from '../features/sso/sso-queries';
import { readString } from '../lib/form.server';
import { createErrorResponse, mutateApi, queryApi } from '../lib/graphql.server';
import type { MemberRole } from '../graphql/graphql';

export const meta: MetaFunction = () => [{ title: 'Single sign-on · Tracker' }];

type Args = LoaderFunctionArgs | ActionFunctionArgs;

async function requireOrganization(args: Args) {
  const { viewer } = await queryApi(args, SSO_PAGE_QUERY);
  const org = viewer?.organizations.find((o) => o.slug === args.params.slug);
  // Not a member (or no such organization): the same answer either way.
  if (!org) throw new Response('Not found', { status: 404 });
  return org;
}

export async function loader(args: LoaderFunctionArgs) {
  const org = await requireOrganization(args);
  const result = await mutateApi(args, SSO_SETTINGS_QUERY, { organizationId: org.id });
  if (!result.ok) throw createErrorResponse(result.error);
  const url = new URL(args.request.url);
  return {
    organization: org,
    settings: result.data.ssoSettings,
    callbackUrl: result.data.ssoSettings?.callbackUrl ?? `${url.origin}/sso/callback`,
  };
}

export async function action(args: ActionFunctionArgs) {
  const org = await requireOrganization(args);
  const form = await args.request.formData();
  if (readString(form, 'intent') === 'delete') {
    const r = await mutateApi(args, DELETE_SSO_MUTATION, { organizationId: org.id });
    return r.ok ? { saved: true, error: null } : data({ saved: false, error: r.error.message }, { status: 400 });
  }
  const role: MemberRole = readString(form, 'defaultRole') === 'ADMIN' ? 'ADMIN' : 'MEMBER';
  const secret = readString(form, 'clientSecret');
  const r = await mutateApi(args, SAVE_SSO_MUTATION, {
    organizationId: org.id,
    input: {
      issuerUrl: readString(form, 'issuerUrl'),
      clientId: readString(form, 'clientId'),
      clientSecret: secret === '' ? null : secret,
      emailDomains: readString(form, 'emailDomains')
        .split(/[\s,]+/)
        .filter(Boolean)
        .slice(0, 50),
      defaultRole: role,
      requireSso: form.get('requireSso') === 'on',
    },
  });
  if (!r.ok)
    return data({ saved: false, error: r.error.message }, { status: r.error.code === 'FORBIDDEN' ? 403 : 400 });
  return { saved: true, error: null };
}

export default function SsoSettingsPage() {
  const { organization, settings, callbackUrl } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <>
      <h1>Single sign-on · {organization.name}</h1>
      <SsoSettingsForm
        settings={settings}
        callbackUrl={callbackUrl}
        error={actionData?.error}
        saved={actionData?.saved}
      />
    </>
  );
}
