import { Link } from '@remix-run/react';
import { CopyBlock } from '../../components/copy-button';
import type { PlanInfo } from '../../lib/plans';

/**
 * Billing without Stripe keys: no checkout to offer, so the page says who changes a plan: an
 * instance admin on the admin screen, or the operator command (server/src/cli.ts `org:set-plan
 * <org-slug> <plan>`, which a running embedded server takes over its control socket), for each
 * other plan of the catalogue, ready to copy. A dead end ("not configured") helps nobody.
 */
export function OperatorPlanChange({ slug, current, plans }: { slug: string; current: string; plans: PlanInfo[] }) {
  const others = plans.filter((p) => p.id !== current);
  return (
    <div className="notice operator-plan">
      <p>
        Payments are not configured on this installation (no Stripe keys), so plans are changed by whoever runs it: an
        instance admin on the <Link to="/admin">admin screen</Link> (Organizations), or the operator command on the
        server, which works while Tracker runs. Either takes effect at once.
      </p>
      {others.map((plan) => (
        <CopyBlock
          key={plan.id}
          text={`npm run tracker -- org:set-plan ${slug} ${plan.id}`}
          label={`Copy the command that moves this organization to ${plan.name}`}
        />
      ))}
    </div>
  );
}
