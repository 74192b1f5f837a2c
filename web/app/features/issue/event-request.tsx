import type { EventDetailFieldsFragment } from '../../graphql/graphql';
import { JsonTree } from '../../components/json-tree';
import { visibleText } from '../../lib/visible-text';

type Request = NonNullable<EventDetailFieldsFragment['request']>;

/** The HTTP request the error happened in: method and URL, query, headers, body; all as text. */
export function EventRequest({ request }: { request: Request | null }) {
  if (!request) return null;
  return (
    <div className="event-section" role="region" aria-labelledby="request-heading">
      <h4 id="request-heading">Request</h4>
      <p className="mono request-line">
        {request.method ? `${visibleText(request.method)} ` : ''}
        {request.url ? visibleText(request.url) : ''}
      </p>
      {request.queryString && (
        <p>
          <span className="muted">Query</span> <span className="mono">{visibleText(request.queryString)}</span>
        </p>
      )}
      {request.headers.length > 0 && (
        <div className="table-scroll" tabIndex={0}>
          <table className="data-table request-headers">
            <caption className="visually-hidden">Request headers</caption>
            <tbody>
              {request.headers.map((h, i) => (
                <tr key={i}>
                  <th scope="row" className="mono">
                    {visibleText(h.name)}
                  </th>
                  <td className="mono">{visibleText(h.value)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {request.data !== null && request.data !== undefined && (
        <>
          <h5>Body</h5>
          {typeof request.data === 'object' ? (
            <JsonTree value={request.data as Record<string, unknown>} label="Request body" />
          ) : (
            <pre className="mono">{visibleText(String(request.data))}</pre>
          )}
        </>
      )}
    </div>
  );
}

/** React's component stack (Sentry's React SDK), as sent. */
export function EventComponentStack({ componentStack }: { componentStack: string | null }) {
  if (!componentStack || componentStack.trim() === '') return null;
  return (
    <div className="event-section" role="region" aria-labelledby="component-stack-heading">
      <h4 id="component-stack-heading">React component stack</h4>
      <pre className="component-stack mono" tabIndex={0}>
        {visibleText(componentStack.replace(/^\n+/, ''))}
      </pre>
    </div>
  );
}
