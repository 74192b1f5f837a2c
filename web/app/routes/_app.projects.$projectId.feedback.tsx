import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData, useParams } from '@remix-run/react';
import { CursorPager } from '../components/cursor-pager';
import { ExternalLink } from '../components/external-link';
import { RelativeTime } from '../components/time';
import { withParams } from '../lib/filters';
import { formatNumber } from '../lib/format';
import { queryApi } from '../lib/graphql.server';
import { issuePath } from '../lib/paths';
import { visibleText } from '../lib/visible-text';
import { graphql } from '../graphql';

export const meta: MetaFunction = () => [{ title: 'Feedback · Tracker' }];

const FEEDBACK_PAGE_SIZE = 25;

const FEEDBACK_QUERY = graphql(`
  query ProjectFeedback($projectId: ID!, $first: Int!, $after: String) {
    feedback(projectId: $projectId, first: $first, after: $after) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      nodes {
        id
        message
        email
        name
        url
        eventId
        receivedAt
        issue {
          id
          title
        }
        event {
          eventId
          release
          environment
          url
        }
      }
    }
  }
`);

type FeedbackRow = {
  id: string;
  message: string;
  email: string | null;
  name: string | null;
  url: string | null;
  eventId: string | null;
  receivedAt: string;
  issue: { id: string; title: string } | null;
  event: { eventId: string; release: string | null; environment: string; url: string | null } | null;
};

export async function loader(args: LoaderFunctionArgs) {
  const url = new URL(args.request.url);
  const after = url.searchParams.get('after') || null;
  const { feedback } = await queryApi(args, FEEDBACK_QUERY, {
    projectId: args.params.projectId ?? '',
    first: FEEDBACK_PAGE_SIZE,
    after,
  });
  return {
    feedback,
    olderPath:
      feedback.pageInfo.hasNextPage && feedback.pageInfo.endCursor
        ? withParams(url, { after: feedback.pageInfo.endCursor })
        : null,
    newestPath: after ? withParams(url, { after: null }) : null,
    now: new Date().toISOString(),
  };
}

/** The event a piece of feedback names: its issue link, release and page, or why there is none. */
function AboutEvent({ projectId, row }: { projectId: string; row: FeedbackRow }) {
  if (!row.eventId) return <span className="muted">Not about an event</span>;
  if (!row.event || !row.issue) {
    return (
      <span className="muted">
        Event <span className="mono">{visibleText(row.eventId)}</span> (not stored yet, or purged)
      </span>
    );
  }
  return (
    <span className="feedback-about">
      <Link to={issuePath(projectId, row.issue.id)} className="issue-title">
        {visibleText(row.issue.title)}
      </Link>
      <span className="muted">
        Event <span className="mono">{visibleText(row.event.eventId)}</span> · {visibleText(row.event.environment)}
        {row.event.release && <> · {visibleText(row.event.release)}</>}
      </span>
      {row.event.url && <ExternalLink url={row.event.url} />}
    </span>
  );
}

/** Who wrote it: the name they gave, then their email; either may be missing. */
function Writer({ name, email }: { name: string | null; email: string | null }) {
  if (!name && !email) return <span className="muted">No name or email</span>;
  if (!email) return <>{visibleText(name ?? '')}</>;
  if (!name) return <>{visibleText(email)}</>;
  return (
    <>
      {visibleText(name)} <span className="muted">({visibleText(email)})</span>
    </>
  );
}

export default function FeedbackPage() {
  const { feedback, olderPath, newestPath, now } = useLoaderData<typeof loader>();
  const projectId = useParams().projectId ?? '';
  return (
    <section className="card" aria-labelledby="feedback-heading">
      <h2 id="feedback-heading">
        User feedback <span className="muted">({formatNumber(feedback.totalCount)})</span>
      </h2>
      {feedback.nodes.length === 0 ? (
        <p className="empty">
          {newestPath
            ? 'No older feedback.'
            : 'No feedback yet. Collect it with the SDK: Tracker.captureFeedback({ message, email, eventId }).'}
        </p>
      ) : (
        <ul className="feedback-list feedback-page">
          {feedback.nodes.map((row) => (
            <li key={row.id}>
              <p className="feedback-message">{visibleText(row.message)}</p>
              <p className="feedback-meta">
                <span>
                  <Writer name={row.name} email={row.email} />
                </span>
                <RelativeTime iso={row.receivedAt} now={now} />
              </p>
              {row.url && (
                <p className="feedback-page-url">
                  <span className="muted">Written on</span> <ExternalLink url={row.url} />
                </p>
              )}
              <AboutEvent projectId={projectId} row={row} />
            </li>
          ))}
        </ul>
      )}
      <CursorPager newestPath={newestPath} olderPath={olderPath} />
    </section>
  );
}
