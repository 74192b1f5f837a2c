import { Form } from '@remix-run/react';
import { RelativeTime } from '../../components/time';
import { graphql } from '../../graphql';
import type { UnregisteredReleasesQuery } from '../../graphql/graphql';
import { visibleText } from '../../lib/visible-text';

export const UNREGISTERED_RELEASES_QUERY = graphql(`
  query UnregisteredReleases($projectId: ID!) {
    unregisteredReleases(projectId: $projectId, first: 50) {
      version
      environments
      firstSeen
      lastSeen
      eventCount
    }
  }
`);

type Props = {
  releases: UnregisteredReleasesQuery['unregisteredReleases'];
  /** The plan has releases: each row gets a Register button (the page's Mark release action). */
  canRegister: boolean;
  busy: boolean;
  now: string;
};

/**
 * Versions error events carried that were never registered (issue 31): "seen, not registered".
 * Register marks the version in the environment its events came from (the first one listed).
 */
export function UnregisteredReleasesSection({ releases, canRegister, busy, now }: Props) {
  if (releases.length === 0) return null;
  return (
    <section className="card" aria-labelledby="unregistered-heading">
      <h2 id="unregistered-heading">Seen, not registered</h2>
      <p className="hint">
        Error events carried these versions, but no deploy registered them, so they do not count for regressions or
        release health.
      </p>
      <div className="table-scroll" tabIndex={0} role="region" aria-label="Versions seen, not registered">
        <table className="data-table">
          <caption className="visually-hidden">Versions seen on events but never registered, most recent first</caption>
          <thead>
            <tr>
              <th scope="col">Version</th>
              <th scope="col">Environments</th>
              <th scope="col" className="num">
                Events
              </th>
              <th scope="col">Last seen</th>
              {canRegister && (
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {releases.map((r) => (
              <tr key={r.version}>
                <th scope="row" className="mono break">
                  {visibleText(r.version)}
                </th>
                <td>{r.environments.map(visibleText).join(', ')}</td>
                <td className="num">{r.eventCount.toLocaleString('en-US')}</td>
                <td>
                  <RelativeTime iso={r.lastSeen} now={now} />
                </td>
                {canRegister && (
                  <td>
                    <Form method="post">
                      <input type="hidden" name="version" value={r.version} />
                      <input type="hidden" name="environment" value={r.environments[0] ?? 'production'} />
                      <button
                        type="submit"
                        className="button"
                        disabled={busy}
                        aria-label={`Register ${r.version} in ${r.environments[0] ?? 'production'}`}
                      >
                        Register
                      </button>
                    </Form>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
