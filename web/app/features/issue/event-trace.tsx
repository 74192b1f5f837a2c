import { CopyButton } from '../../components/copy-button';
import { fillTraceUrl, traceOf } from '../../lib/trace-link';

/** A row of the event's facts: the trace id, a copy button, and the project's trace viewer link when set. */
export function EventTrace({ context, template }: { context: unknown; template: string | null }) {
  const trace = traceOf(context);
  if (!trace) return null;
  const href = template ? fillTraceUrl(template, trace.traceId, trace.spanId) : null;
  return (
    <div className="fact-wide">
      <dt>Trace</dt>
      <dd className="event-trace">
        <span className="mono break">{trace.traceId}</span> <CopyButton text={trace.traceId} label="Copy trace id" />{' '}
        {href ? (
          <a className="button button-small" href={href} target="_blank" rel="noopener noreferrer nofollow">
            Open trace
          </a>
        ) : (
          <span className="muted">Set a trace viewer link in Settings to open it.</span>
        )}
      </dd>
    </div>
  );
}
