import { RelativeTime } from '../../components/time';
import { formatNumber } from '../../lib/format';
import { visibleText } from '../../lib/visible-text';
import type { IssueData } from './types';

/** The releases (per environment) the issue's events named, with their counts and first/last seen. */
export function IssueReleases({ releases, now }: { releases: IssueData['releases']; now: string }) {
  return (
    <section className="card" aria-labelledby="releases-heading">
      <h3 id="releases-heading">Releases it appeared in</h3>
      {releases.length === 0 ? (
        <p className="muted">Its events carried no release.</p>
      ) : (
        <div className="table-scroll" tabIndex={0}>
          <table className="data-table">
            <caption className="visually-hidden">Releases this issue appeared in</caption>
            <thead>
              <tr>
                <th scope="col">Release</th>
                <th scope="col">Environment</th>
                <th scope="col" className="num">
                  Events
                </th>
                <th scope="col">First seen</th>
                <th scope="col">Last seen</th>
              </tr>
            </thead>
            <tbody>
              {releases.map((r) => (
                <tr key={`${r.version}\u0000${r.environment}`}>
                  <th scope="row" className="mono break">
                    {visibleText(r.version)}
                  </th>
                  <td>{visibleText(r.environment)}</td>
                  <td className="num">{formatNumber(r.eventCount)}</td>
                  <td>
                    <RelativeTime iso={r.firstSeen} now={now} />
                  </td>
                  <td>
                    <RelativeTime iso={r.lastSeen} now={now} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
