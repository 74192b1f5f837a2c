import { Link, isRouteErrorResponse, useRouteError } from '@remix-run/react';

/** Shared body of every ErrorBoundary: the API's message for expected failures, a generic one otherwise. */
export function ErrorMessage() {
  const error = useRouteError();
  let title = 'Something went wrong';
  let message = 'An unexpected error occurred. Try again in a moment.';
  if (isRouteErrorResponse(error)) {
    title = error.status === 404 ? 'Not found' : error.status === 403 ? 'Not allowed' : `Error ${error.status}`;
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
