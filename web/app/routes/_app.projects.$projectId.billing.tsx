import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { FormError } from '../components/field';
import { UsageMeter } from '../components/usage-meter';
import { readString } from '../lib/form.server';
import { formatDateTime, formatNumber } from '../lib/format';
import { mutateApi, queryApi } from '../lib/graphql.server';
import { planName, type PlanInfo } from '../lib/plans';
import { visibleText } from '../lib/visible-text';
import { graphql } from '../graphql';
import { OperatorPlanChange } from '../features/billing/operator-plan-change';

const BILLING_QUERY = graphql(`
  query Billing($projectId: ID!) {
    project(id: $projectId) {
      organizationId
    }
  }
`);
const BILLING_DETAILS = graphql(`
  query BillingDetails($organizationId: ID!) {
    organization(id: $organizationId) {
      id
      name
      slug
      usage {
        period
        periodEnd
        events {
          used
          limit
          remaining
        }
        logs {
          used
          limit
          remaining
        }
      }
    }
    billing(organizationId: $organizationId) {
      configured
      plan
      availablePlans
      status
      currentPeriodEnd
      cancelAtPeriodEnd
      pastDueSince
      graceEndsAt
      hasBillingAccount
    }
    plans {
      ...PlanFields
    }
  }
`);
const CHECKOUT = graphql(`
  mutation CreateCheckoutSession($organizationId: ID!, $plan: String!) {
    createCheckoutSession(organizationId: $organizationId, plan: $plan) {
      url
    }
  }
`);
const PORTAL = graphql(`
  mutation CreateBillingPortalSession($organizationId: ID!) {
    createBillingPortalSession(organizationId: $organizationId) {
      url
    }
  }
`);

/** What the comparison lists for a plan, from the API's catalogue (core's plan table); prices live in Stripe. */
function planFeatures(plan: PlanInfo): string[] {
  return [
    `${formatNumber(plan.eventsPerMonth)} events a month`,
    `${formatNumber(plan.logsPerMonth)} log entries a month`,
    `${formatNumber(plan.retentionDays)} days retention`,
    plan.releaseHealth ? 'Releases and release health' : 'No release health',
  ];
}

async function requireOrganizationId(args: LoaderFunctionArgs): Promise<string> {
  const { project } = await queryApi(args, BILLING_QUERY, {
    projectId: args.params.projectId ?? '',
  });
  if (!project) throw data({ message: 'This project does not exist or is not yours.' }, { status: 404 });
  return project.organizationId;
}

export const meta: MetaFunction = () => [{ title: 'Billing · Tracker' }];

export async function loader(args: LoaderFunctionArgs) {
  const organizationId = await requireOrganizationId(args);
  const result = await queryApi(args, BILLING_DETAILS, { organizationId });
  return { organization: result.organization, billing: result.billing, plans: result.plans };
}

/** Only Stripe's own https pages are followed: the URL comes from the API, but a redirect is a redirect. */
function isStripeUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && (url.hostname === 'stripe.com' || url.hostname.endsWith('.stripe.com'));
  } catch {
    return false;
  }
}

export async function action(args: ActionFunctionArgs) {
  const organizationId = await requireOrganizationId(args);
  const form = await args.request.formData();
  const intent = readString(form, 'intent');
  const result =
    intent === 'portal'
      ? await mutateApi(args, PORTAL, { organizationId })
      : await mutateApi(args, CHECKOUT, {
          organizationId,
          plan: readString(form, 'plan'),
        });
  if (!result.ok)
    return data({ error: result.error.message }, { status: result.error.code === 'FORBIDDEN' ? 403 : 400 });
  const url =
    'createBillingPortalSession' in result.data
      ? result.data.createBillingPortalSession.url
      : result.data.createCheckoutSession.url;
  if (!isStripeUrl(url))
    return data({ error: 'The billing provider answered with an unexpected address.' }, { status: 502 });
  return redirect(url);
}

export default function BillingPage() {
  const { organization, billing, plans } = useLoaderData<typeof loader>();
  const currentIndex = plans.findIndex((p) => p.id === billing.plan);
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  return (
    <div className="stack">
      <section className="card" aria-labelledby="plan-heading">
        <h2 id="plan-heading">
          Plan: {planName(plans, billing.plan)}
          {organization && <span className="muted"> · {visibleText(organization.name)}</span>}
        </h2>
        {billing.status && (
          <p>
            Subscription {billing.status.replace(/_/g, ' ')}
            {billing.currentPeriodEnd && (
              <>
                {billing.cancelAtPeriodEnd ? ', ends ' : ', renews '}
                {formatDateTime(billing.currentPeriodEnd)}
              </>
            )}
            .
          </p>
        )}
        {billing.pastDueSince && (
          <p className="form-error" role="alert">
            A payment failed on {formatDateTime(billing.pastDueSince)}. Update the payment method before{' '}
            {formatDateTime(billing.graceEndsAt)} or the organization returns to the Free plan.
          </p>
        )}
        {!billing.configured && organization && (
          <OperatorPlanChange slug={organization.slug} current={billing.plan} plans={plans} />
        )}
        {billing.configured && billing.hasBillingAccount && (
          <Form method="post">
            <button type="submit" name="intent" value="portal" className="button" disabled={busy}>
              Manage billing in Stripe
            </button>
          </Form>
        )}
        <FormError message={actionData?.error} />
      </section>

      {organization && (
        <section className="card" aria-labelledby="usage-heading">
          <h2 id="usage-heading">Usage this month</h2>
          <p className="muted">
            Period {organization.usage.period} (UTC); the counts reset {formatDateTime(organization.usage.periodEnd)}.
            Over a limit, ingest answers 429 until then or until an upgrade.
          </p>
          <div className="usage-grid">
            <UsageMeter
              label="Events"
              hint="errors, messages and Web Vitals reports"
              meter={organization.usage.events}
            />
            <UsageMeter label="Logs" hint="structured log entries" meter={organization.usage.logs} />
          </div>
        </section>
      )}

      <section className="card" aria-labelledby="plans-heading">
        <h2 id="plans-heading">Plans</h2>
        <div className="plan-grid">
          {plans.map((plan, index) => (
            <div key={plan.id} className="plan-card" aria-current={plan.id === billing.plan ? 'true' : undefined}>
              <h3>
                {plan.name} {plan.id === billing.plan && <span className="tag tag-accent">current</span>}
              </h3>
              <ul>
                {planFeatures(plan).map((f) => (
                  <li key={f}>{f}</li>
                ))}
              </ul>
              {plan.id !== billing.plan && billing.configured && billing.availablePlans.includes(plan.id) && (
                <Form method="post">
                  <input type="hidden" name="plan" value={plan.id} />
                  <button
                    type="submit"
                    name="intent"
                    value="checkout"
                    className="button button-primary"
                    disabled={busy}
                  >
                    {/* The catalogue is cheapest first: a later plan is an upgrade. */}
                    {index > currentIndex ? 'Upgrade' : 'Switch'} to {plan.name}
                  </button>
                </Form>
              )}
            </div>
          ))}
        </div>
      </section>
    </div>
  );
}
