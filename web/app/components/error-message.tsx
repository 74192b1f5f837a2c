import { Link, isRouteErrorResponse, useRouteError } from '@remix-run/react';
import { errorTitle, SERVER_FAILED } from '../lib/user-messages';

/** Shared body of every ErrorBoundary: the API's message for expected failures, a generic one otherwise. */
export function ErrorMessage() {
  const error = useRouteError();
  // Only a failure with no answer at all (a bug in a page) lands here without a reason.
  let title = errorTitle(500);
  let message = SERVER_FAILED;
  if (isRouteErrorResponse(error)) {
    title = errorTitle(error.status);
    const data: unknown = error.data;
    if (data && typeof data === 'object' && 'message' in data && typeof data.message === 'string') {
      message = data.message;
    } else if (typeof data === 'string' && data) {
      message = data;
    }
  }
  return (
    <section className="error-panel" role="alert">
      <h1>{title}</h1>
      <p>{message}</p>
      <p>
        <Link to="/">Back to the dashboard</Link>
      </p>
    </section>
  );
}
