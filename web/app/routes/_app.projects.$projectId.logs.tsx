import type { MetaFunction } from '@remix-run/node';
import { ComingSoon } from '../components/coming-soon';

export const meta: MetaFunction = () => [{ title: 'Logs · Tracker' }];

// TODO(issue 7): needs a project-level `logs` query in api/schema.graphql (being added on another
// branch); then this becomes a loader plus the page described below.
export default function LogsPage() {
  return (
    <ComingSoon title="Logs">
      Structured logs sent with the SDKs, searchable by text and level, with a live tail.
    </ComingSoon>
  );
}
