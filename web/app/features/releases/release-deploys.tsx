import { HEALTH_COLUMNS, ReleaseHealthCells } from '../../components/release-health';
import { RelativeTime } from '../../components/time';
import { formatDateTime } from '../../lib/format';
import type { ReleaseHealth } from '../../lib/release-health';
import { visibleText } from '../../lib/visible-text';

export type Deploy = { id: string; environment: string; deployedAt: string; health?: ReleaseHealth | null };

type Props = {
  deploys: Deploy[];
  /** The plan has release health: the figures were asked for (the Releases page's rule). */
  healthIncluded: boolean;
  healthPlans: string;
  now: string;
};

/**
 * One row per environment the version is registered for (its deploy, moved by a redeploy), with
 * the Releases page's health figures against the deploy before it in that environment.
 */
export function ReleaseDeploysSection({ deploys, healthIncluded, healthPlans, now }: Props) {
  return (
    <section className="card" aria-labelledby="release-deploys-heading">
      <h2 id="release-deploys-heading">Deploys and health</h2>
      <div className="table-scroll" tabIndex={0} role="region" aria-label="Deploys per environment">
        <table className="data-table releases-table">
          <caption className="visually-hidden">
            Deploys per environment, newest first{healthIncluded && ', each compared with the deploy before it'}
          </caption>
          <thead>
            <tr>
              <th scope="col">Environment</th>
              <th scope="col">Deployed</th>
              {healthIncluded &&
                HEALTH_COLUMNS.map((c) => (
                  <th key={c} scope="col" className="num">
                    {c}
                  </th>
                ))}
            </tr>
          </thead>
          <tbody>
            {deploys.map((d) => (
              <tr key={d.id}>
                <th scope="row" className="break">
                  {visibleText(d.environment)}
                </th>
                <td>
                  <RelativeTime iso={d.deployedAt} now={now} />
                  <span className="health-previous">{formatDateTime(d.deployedAt)}</span>
                </td>
                {healthIncluded && <ReleaseHealthCells health={d.health ?? null} />}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {!healthIncluded && (
        <p className="hint">
          Release health (crash-free sessions and users, events per hour against the previous release) is part of the{' '}
          {healthPlans} plans.
        </p>
      )}
    </section>
  );
}
