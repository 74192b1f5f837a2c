import { Link, useLocation, useParams } from '@remix-run/react';
import type { EventDetailFieldsFragment } from '../../graphql/graphql';
import { withParams } from '../../lib/filters';
import { eventJsonPath } from '../../lib/paths';

type Navigation = EventDetailFieldsFragment['navigation'];

/**
 * Oldest, older, newer and latest events of the issue, as `?event=` links (the page's other
 * parameters kept), plus the stored event as raw JSON, to view or to download. Plain links:
 * they work without JavaScript and survive a reload.
 */
export function EventNavigation({ eventId, navigation }: { eventId: string; navigation: Navigation }) {
  const location = useLocation();
  const { projectId = '', issueId = '' } = useParams();
  const to = (id: string) => `${withParams(location, { event: id })}#event-detail`;
  const step = (label: string, id: string | null, rel?: string) =>
    id ? (
      <Link className="button button-small" to={to(id)} rel={rel} preventScrollReset>
        {label}
      </Link>
    ) : (
      <span className="button button-small is-disabled" aria-disabled="true">
        {label}
      </span>
    );
  const json = eventJsonPath(projectId, issueId, eventId);
  return (
    <nav className="event-nav" aria-label="Events of this issue">
      {step('Oldest event', navigation.oldest)}
      {step('Older event', navigation.older, 'prev')}
      {step('Newer event', navigation.newer, 'next')}
      {step('Latest event', navigation.latest)}
      <a className="button button-small" href={json}>
        Raw JSON
      </a>
      <a className="button button-small" href={`${json}?download=1`} download>
        Download JSON
      </a>
    </nav>
  );
}
