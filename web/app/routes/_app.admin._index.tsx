import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node';
import { Link, useActionData, useLoaderData, useNavigation, useSearchParams } from '@remix-run/react';
import { FormError } from '../components/field';
import { ADMIN_ORGANIZATIONS, ADMIN_SET_PLAN } from '../features/admin/queries';
import { OrganizationsTable } from '../features/admin/organizations-table';
import { readString } from '../lib/form.server';
import { mutateApi, queryApi } from '../lib/graphql.server';

export async function loader(args: LoaderFunctionArgs) {
  const after = new URL(args.request.url).searchParams.get('after');
  return queryApi(args, ADMIN_ORGANIZATIONS, { after: after || null });
}

/** One plan change per submit: the API validates the plan and refuses a live subscription unless forced. */
export async function action(args: ActionFunctionArgs) {
  const form = await args.request.formData();
  const result = await mutateApi(args, ADMIN_SET_PLAN, {
    organizationId: readString(form, 'organizationId'),
    plan: readString(form, 'plan'),
    force: readString(form, 'force') === 'on',
  });
  if (!result.ok) {
    return data(
      { error: result.error.message, done: null },
      { status: result.error.code === 'FORBIDDEN' ? 403 : result.error.code === 'CONFLICT' ? 409 : 400 },
    );
  }
  const { organization, planBefore, overrodeSubscription } = result.data.adminSetOrganizationPlan;
  const over = overrodeSubscription ? `, over its ${overrodeSubscription} Stripe subscription` : '';
  return { error: null, done: `${organization.slug} moved from ${planBefore} to ${organization.plan}${over}.` };
}

export default function AdminOrganizations() {
  const { adminOrganizations: orgs, plans } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const [params] = useSearchParams();
  return (
    <section className="card" aria-labelledby="admin-orgs-heading">
      <h2 id="admin-orgs-heading">Organizations ({orgs.totalCount})</h2>
      <p className="muted">
        Plans, members and this month&apos;s usage: counts only. A plan change applies at once and is recorded in the
        billing log; an organization that pays through Stripe keeps Stripe&apos;s plan unless you force it.
      </p>
      <div aria-live="polite">
        <FormError message={result?.error} />
        {result?.done && (
          <p className="notice" role="status">
            {result.done}
          </p>
        )}
      </div>
      <OrganizationsTable organizations={orgs.nodes} plans={plans} busy={busy} />
      {(params.get('after') || orgs.pageInfo.hasNextPage) && (
        <p className="pager">
          {params.get('after') && <Link to="/admin">First page</Link>}{' '}
          {orgs.pageInfo.hasNextPage && orgs.pageInfo.endCursor && (
            <Link to={`/admin?after=${encodeURIComponent(orgs.pageInfo.endCursor)}`}>Next page</Link>
          )}
        </p>
      )}
    </section>
  );
}
