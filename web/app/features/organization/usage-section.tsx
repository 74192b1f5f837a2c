import { Link } from '@remix-run/react';
import { UsageMeter, type Usage } from '../../components/usage-meter';
import { formatDateTime } from '../../lib/format';
import { Section } from '../settings/settings-section';

/** This month's usage against the plan; plan changes live on Billing (under a project). */
export function UsageSection({ usage, plan, billingPath }: { usage: Usage; plan: string; billingPath: string | null }) {
  return (
    <Section id="org-usage-heading" title="Usage this month">
      <p className="muted">
        Plan <span className="plan-badge">{plan}</span>. Period {usage.period} (UTC); the counts reset{' '}
        {formatDateTime(usage.periodEnd)}.
      </p>
      <div className="usage-grid">
        <UsageMeter label="Events" hint="errors, messages and Web Vitals reports" meter={usage.events} />
        <UsageMeter label="Logs" hint="structured log entries" meter={usage.logs} />
      </div>
      {billingPath && (
        <p>
          <Link to={billingPath}>Plans and billing</Link>
        </p>
      )}
    </Section>
  );
}
