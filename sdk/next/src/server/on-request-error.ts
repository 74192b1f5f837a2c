/**
 * What Next passes to `onRequestError` in `instrumentation.ts` (Next 15+). Declared here rather
 * than imported from `next` so the package needs no dependency on it; the fields are a subset
 * of Next's `Instrumentation.onRequestError` parameters, so that function type accepts ours.
 */
export interface RequestErrorRequest {
  path: string;
  method: string;
  /** Never read: request headers carry cookies and authorization, and are not sent. */
  headers?: unknown;
}

export interface RequestErrorContext {
  routerKind: string;
  routePath: string;
  routeType: string;
  renderSource?: string;
  revalidateReason?: string;
  renderType?: string;
}

/** `?` and `#` parts of a path carry ids and tokens and split one route into many. */
function stripQuery(path: unknown): string | undefined {
  return typeof path == 'string' ? path.split(/[?#]/, 1)[0] : undefined;
}

function text(v: unknown): string | undefined {
  return typeof v == 'string' && v ? v : undefined;
}

/**
 * The event's `context.next`, tags and `request` for a request error. Only named fields are
 * copied, so whatever Next adds to `request` later (headers today) never reaches the event.
 * The method and path go both to `context.next` (where servers before the `request` field read
 * them) and to `request` (docs/wire.md); never the headers, never the query.
 */
export function describeRequestError(error: unknown, request: RequestErrorRequest, context: RequestErrorContext) {
  const digest = error != null && typeof error == 'object' ? text((error as { digest?: unknown }).digest) : undefined;
  const next = {
    routerKind: text(context?.routerKind),
    routePath: text(context?.routePath),
    routeType: text(context?.routeType),
    renderSource: text(context?.renderSource),
    renderType: text(context?.renderType),
    revalidateReason: text(context?.revalidateReason),
    method: text(request?.method),
    path: stripQuery(request?.path),
    digest,
  };
  const tags: Record<string, string> = {};
  if (next.routeType) tags['next.route_type'] = next.routeType;
  if (next.routerKind) tags['next.router_kind'] = next.routerKind;
  if (next.routePath) tags['next.route'] = next.routePath;
  return {
    context: { next: JSON.parse(JSON.stringify(next)) as Record<string, string> },
    tags,
    request: { method: next.method, url: next.path },
  };
}
