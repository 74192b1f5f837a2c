import { Form } from '@remix-run/react';
import type { AdminOrganizationsQuery } from '../../graphql/graphql';
import { formatNumber } from '../../lib/format';

type Organization = AdminOrganizationsQuery['adminOrganizations']['nodes'][number];
type Plan = AdminOrganizationsQuery['plans'][number];

/** Every organization with its counts and a plan form per row; the table scrolls in its own box on a phone. */
export function OrganizationsTable({
  organizations,
  plans,
  busy,
}: {
  organizations: Organization[];
  plans: Plan[];
  busy: boolean;
}) {
  if (organizations.length === 0) return <p className="muted">No organizations yet.</p>;
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label="Organizations">
      <table className="data-table">
        <caption className="visually-hidden">Organizations by slug</caption>
        <thead>
          <tr>
            <th scope="col">Organization</th>
            <th scope="col">Members</th>
            <th scope="col">Projects</th>
            <th scope="col">Events this month</th>
            <th scope="col">Logs this month</th>
            <th scope="col">Plan</th>
          </tr>
        </thead>
        <tbody>
          {organizations.map((o) => (
            <tr key={o.id}>
              <th scope="row">
                {o.name} <span className="muted mono">{o.slug}</span>
              </th>
              <td>{formatNumber(o.memberCount)}</td>
              <td>{formatNumber(o.projectCount)}</td>
              <td>
                {formatNumber(o.events.used)} / {formatNumber(o.events.limit)}
              </td>
              <td>
                {formatNumber(o.logs.used)} / {formatNumber(o.logs.limit)}
              </td>
              <td>
                <PlanForm organization={o} plans={plans} busy={busy} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function PlanForm({ organization: o, plans, busy }: { organization: Organization; plans: Plan[]; busy: boolean }) {
  const selectId = `plan-${o.id}`;
  const forceId = `force-${o.id}`;
  return (
    <Form method="post" className="inline-form">
      <input type="hidden" name="organizationId" value={o.id} />
      <label htmlFor={selectId} className="visually-hidden">
        Plan of {o.slug}
      </label>
      <select id={selectId} name="plan" defaultValue={o.plan}>
        {plans.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
      </select>
      {o.liveSubscription && (
        <label htmlFor={forceId} className="checkbox-label">
          <input id={forceId} type="checkbox" name="force" /> Force over its {o.liveSubscription} Stripe subscription
        </label>
      )}
      <button type="submit" className="button" disabled={busy} aria-label={`Set plan of ${o.slug}`}>
        Set plan
      </button>
    </Form>
  );
}
