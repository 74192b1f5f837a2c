import { toSafeHref } from './safe-url';

/** Hex ids as OpenTelemetry and Sentry write them (trace 32, span 16 digits); anything else is not shown as an id. */
const TRACE_ID = /^[0-9a-f]{32}$/i;
const SPAN_ID = /^[0-9a-f]{16}$/i;

/**
 * The trace an event belongs to: `trace_id`/`span_id` at the top of the context (OTLP, decision
 * 050) or Sentry's `contexts.trace`.
 */
export function traceOf(context: unknown): { traceId: string; spanId: string | null } | null {
  if (!isObject(context)) return null;
  const sentry = isObject(context.trace) ? context.trace : {};
  const traceId = [context.trace_id, sentry.trace_id].find((v) => typeof v === 'string' && TRACE_ID.test(v));
  if (typeof traceId !== 'string') return null;
  const spanId = [context.span_id, sentry.span_id].find((v) => typeof v === 'string' && SPAN_ID.test(v));
  return { traceId, spanId: typeof spanId === 'string' ? spanId : null };
}

/**
 * The project's template (validated as http(s) when saved: core/src/projects/trace-link.ts) with
 * the ids filled in, URL-encoded; the same rule as `traceUrl` there.
 */
export function fillTraceUrl(template: string, traceId: string, spanId: string | null): string | null {
  return toSafeHref(
    template.replace(/\{(traceId|spanId)\}/g, (_, name: string) =>
      encodeURIComponent(name === 'traceId' ? traceId : (spanId ?? '')),
    ),
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
