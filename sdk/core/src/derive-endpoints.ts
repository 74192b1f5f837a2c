export interface Endpoints {
  error: string;
  log: string;
  vitals: string;
  /** Absent when the error endpoint does not end in `/ingest/error`: feedback is then not sent. */
  feedback?: string;
}

const ERROR_PATH = '/ingest/error';

/**
 * docs/wire.md: logs and vitals go to the endpoint's origin (a proxy prefix is dropped, since
 * proxies are set up for the error path); feedback replaces the trailing `/ingest/error` and
 * keeps the prefix, because it belongs with the error it comments on.
 */
export function deriveEndpoints(error: string): Endpoints {
  const url = new URL(error);
  const endpoints: Endpoints = {
    error,
    log: url.origin + '/ingest/log',
    vitals: url.origin + '/ingest/vitals',
  };
  const path = url.pathname;
  if (path.endsWith(ERROR_PATH)) {
    url.pathname = path.slice(0, -ERROR_PATH.length) + '/ingest/feedback';
    endpoints.feedback = url.href;
  }
  return endpoints;
}
