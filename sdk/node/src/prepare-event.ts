import { stripQuery, type CaptureOptions } from '@tracker/sdk-core';
import { readContextLines } from './context-lines';

/** What a server app may tell about the request an error happened in (docs/wire.md, `request`). */
export interface RequestData {
  method?: string;
  /** Sent without its query string (ids and tokens live there); pass `queryString` to send one. */
  url?: string;
  queryString?: string;
  headers?: Record<string, string>;
  data?: unknown;
}

/** `@tracker/node`'s capture options: the shared ones plus the request. */
export interface NodeCaptureOptions extends CaptureOptions {
  request?: RequestData;
}

// Credentials, never worth sending; the server scrubs personal data again on arrival.
const SECRET_HEADERS = /^(?:authorization|proxy-authorization|cookie|set-cookie|x-api-key)$/i;

function cleanRequest(request: RequestData): RequestData {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers || {})) {
    if (!SECRET_HEADERS.test(name) && typeof value == 'string') headers[name] = value;
  }
  return {
    method: typeof request.method == 'string' ? request.method : undefined,
    url: typeof request.url == 'string' ? stripQuery(request.url) : undefined,
    queryString: typeof request.queryString == 'string' ? request.queryString : undefined,
    headers: request.headers ? headers : undefined,
    data: request.data,
  };
}

/**
 * The Node platform's last step before an error event is sent: `request` from the call's
 * options, and the source lines of its in-app frames (at most `CONTEXT_LINES_TIMEOUT_MS`).
 * Never rejects: a failure only leaves the field out.
 */
export async function prepareEvent(event: Record<string, unknown>, options: NodeCaptureOptions): Promise<void> {
  try {
    if (options.request && typeof options.request == 'object') event.request = cleanRequest(options.request);
    const causes = (event.causes as { stack?: string }[] | undefined) || [];
    event.contextLines = await readContextLines([event.stack as string | undefined, ...causes.map((c) => c.stack)]);
  } catch {
    // sent as it is
  }
}
