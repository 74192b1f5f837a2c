import { CopyBlock } from '../../components/copy-button';
import type { PlanInfo } from '../../lib/plans';

/**
 * Billing without Stripe keys: no checkout to offer, so the page says who changes a plan and
 * with which command (server/src/cli.ts `org:set-plan <org-slug> <plan>`), for each other plan
 * of the catalogue, ready to copy. A dead end ("not configured") helps nobody.
 */
export function OperatorPlanChange({ slug, current, plans }: { slug: string; current: string; plans: PlanInfo[] }) {
  const others = plans.filter((p) => p.id !== current);
  return (
    <div className="notice operator-plan">
      <p>
        Payments are not configured on this installation (no Stripe keys), so plans are changed by whoever runs it, with
        the operator command on the server:
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
