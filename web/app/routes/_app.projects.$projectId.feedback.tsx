import type { MetaFunction } from '@remix-run/node';
import { ComingSoon } from '../components/coming-soon';

export const meta: MetaFunction = () => [{ title: 'User feedback · Tracker' }];

// TODO(issue 7): needs a project-level `feedback` query in api/schema.graphql (being added on another
// branch); then this becomes a loader plus the page described below.
export default function FeedbackPage() {
  return (
    <ComingSoon title="User feedback">
      Everything users wrote through the feedback widget, newest first. Feedback tied to an error is already shown on
      its issue page.
    </ComingSoon>
  );
}
