// What the dashboard says when the API cannot answer, in the words of someone using it: no
// protocol names (GraphQL, HTTP bodies), no "unexpected error" when the reason is known.

/** The API did not answer at all (refused, timed out, name not resolved). */
export const API_UNREACHABLE = 'Tracker’s server is not answering right now. Try again in a moment.';

/** The API answered, but not with data this page can use: its status says why. */
export function describeApiStatus(status: number, retryAfterSeconds: number | null): string {
  if (status === 429) {
    const wait = retryAfterSeconds && retryAfterSeconds > 0 ? `${retryAfterSeconds} seconds` : 'a moment';
    return `Too many requests from this session: wait ${wait} and try again.`;
  }
  if (status === 413) return 'That request was too large for the server.';
  if (status === 502 || status === 503 || status === 504) {
    return 'Tracker’s server is starting, stopping or overloaded. Try again in a moment.';
  }
  return `Tracker’s server could not answer this page (status ${status}). Try again in a moment.`;
}

/** An error the server did not expect: it is logged there; the user can only retry. */
export const SERVER_FAILED = 'Something failed on Tracker’s server (it is logged there). Try again in a moment.';

/** The title of an error page for a status, in words. */
export function errorTitle(status: number): string {
  if (status === 404) return 'Not found';
  if (status === 403) return 'Not allowed';
  if (status === 402) return 'Not included in this plan';
  if (status === 429) return 'Too many requests';
  if (status === 400 || status === 409 || status === 413) return 'That did not work';
  if (status >= 500) return 'Tracker is not available';
  return 'That did not work';
}
