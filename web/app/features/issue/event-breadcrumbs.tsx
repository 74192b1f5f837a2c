import type { EventDetailFieldsFragment } from '../../graphql/graphql';
import { formatDateTime } from '../../lib/format';
import { visibleText } from '../../lib/visible-text';

type Breadcrumb = EventDetailFieldsFragment['breadcrumbs'][number];

/** "-2.3 s", "-1 min 5 s", "-2 h 3 min" before the error; "+0.4 s" for a breadcrumb dated after it. */
export function formatOffset(crumbIso: string, errorIso: string): string {
  const ms = Date.parse(crumbIso) - Date.parse(errorIso);
  if (Number.isNaN(ms)) return '';
  const sign = ms > 0 ? '+' : '-';
  const abs = Math.abs(ms);
  if (abs < 60_000) return `${sign}${(abs / 1000).toFixed(1)} s`;
  const s = Math.round(abs / 1000);
  if (s < 3600) return `${sign}${Math.floor(s / 60)} min ${s % 60} s`;
  return `${sign}${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

/**
 * What happened before the error, oldest first so the newest is last, next to the stack: each
 * with its time relative to the error (the exact time as a tooltip), its category, level (as a
 * colour and as text) and message; its data as `key: value` text. Event text only.
 */
export function EventBreadcrumbs({ breadcrumbs, errorAt }: { breadcrumbs: Breadcrumb[]; errorAt: string }) {
  if (breadcrumbs.length === 0) return null;
  return (
    <div className="event-section" role="region" aria-labelledby="breadcrumbs-heading">
      <h4 id="breadcrumbs-heading">
        Breadcrumbs <span className="muted">({breadcrumbs.length})</span>
      </h4>
      <ol className="breadcrumbs">
        {breadcrumbs.map((b, i) => {
          const level = b.level ?? 'info';
          return (
            <li key={i} className={`crumb crumb-level-${level}`}>
              <time className="crumb-time mono" dateTime={b.timestamp} title={formatDateTime(b.timestamp)}>
                {formatOffset(b.timestamp, errorAt)}
              </time>
              <span className="crumb-category tag">{visibleText(b.category)}</span>
              <span className="crumb-level">{level}</span>
              <span className="crumb-message">
                {b.message ? visibleText(b.message) : null}
                {b.data && Object.keys(b.data).length > 0 && (
                  <span className="crumb-data mono">
                    {Object.entries(b.data).map(([k, v]) => (
                      <span key={k}>
                        {visibleText(k)}: {visibleText(typeof v === 'string' ? v : JSON.stringify(v))}{' '}
                      </span>
                    ))}
                  </span>
                )}
              </span>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
