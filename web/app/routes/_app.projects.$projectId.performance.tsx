import type { MetaFunction } from '@remix-run/node';
import { ComingSoon } from '../components/coming-soon';

export const meta: MetaFunction = () => [{ title: 'Performance · Tracker' }];

// TODO(issue 7): needs a project-level `vitals` query in api/schema.graphql (being added on another
// branch); then this becomes a loader plus the page described below.
export default function PerformancePage() {
  return (
    <ComingSoon title="Performance">
      Web Vitals p75 cards (LCP, INP, CLS, FCP, TTFB), their good / needs-improvement / poor distribution, a per-page
      table and a trend, as reported by the browser SDK.
    </ComingSoon>
  );
}
