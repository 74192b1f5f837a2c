import { subscribe } from 'node:diagnostics_channel';
import { addBreadcrumb, instrumentConsole, isOwnRequest, type BreadcrumbLevel } from '@tracker/sdk-core';

let installed = false;

function levelOf(status: number): BreadcrumbLevel {
  return !status || status > 499 ? 'error' : status > 399 ? 'warning' : 'info';
}

/** One outgoing request: method, host, path (query cut by the core), status (0: no answer). */
function record(category: string, method: string, origin: string, path: string, status: number): void {
  try {
    const url = new URL(path, origin);
    if (isOwnRequest(url.href)) return;
    addBreadcrumb({ category, level: levelOf(status), data: { method, host: url.host, path: url.pathname, status } });
  } catch {
    // an unreadable origin or path: nothing worth recording
  }
}

interface HttpClientRequest {
  method: string;
  protocol?: string;
  /** The hostname only: the port is in the Host header. */
  host: string;
  path: string;
  getHeader(name: string): unknown;
}
interface UndiciRequest {
  method: string;
  origin: string;
  path: string;
}

/**
 * Console warnings and errors, and every outgoing HTTP request, as breadcrumbs. Requests are
 * read from `node:diagnostics_channel`, not by wrapping `http.request` or `fetch`:
 * - the channels see every caller: an ES module's `import { request } from 'node:http'` binding
 *   (a patch of the module object never reaches it), the `fetch` built into Node (its undici is
 *   internal; wrapping `globalThis.fetch` misses code that kept a reference, and undici used
 *   directly), and modules loaded before `init`;
 * - nothing of the app's is replaced: no wrapper frames in its stacks, no ordering fight with
 *   other instrumentation (OpenTelemetry patches the same functions), nothing to undo;
 * - a channel that this Node does not publish simply never fires (no version check needed):
 *   all four below are published by Node 20.20, where the tests run; an older 20.x without
 *   `http.client.request.error` only loses the breadcrumbs of requests that got no answer.
 * Installed once; the core's switch (`breadcrumbs: false`, `close()`) decides what is recorded.
 */
export function installNodeBreadcrumbs(): void {
  if (installed) return;
  installed = true;
  instrumentConsole();
  const origin = (r: HttpClientRequest) => (r.protocol || 'http:') + '//' + (r.getHeader('host') || r.host);
  subscribe('http.client.response.finish', (message) => {
    const { request, response } = message as { request: HttpClientRequest; response: { statusCode: number } };
    record('http', request.method, origin(request), request.path, response.statusCode);
  });
  subscribe('http.client.request.error', (message) => {
    const { request } = message as { request: HttpClientRequest };
    record('http', request.method, origin(request), request.path, 0);
  });
  // `fetch`: headers mean an answer (its status); an error before them means none.
  subscribe('undici:request:headers', (message) => {
    const { request, response } = message as { request: UndiciRequest; response: { statusCode: number } };
    record('fetch', request.method, request.origin, request.path, response.statusCode);
  });
  subscribe('undici:request:error', (message) => {
    const { request } = message as { request: UndiciRequest };
    record('fetch', request.method, request.origin, request.path, 0);
  });
}
