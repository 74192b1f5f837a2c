import type { AuditLogQuery } from '../../graphql/graphql';
import { visibleText } from '../../lib/visible-text';
import { actionLabel } from './audit-actions';

type Entry = AuditLogQuery['auditLog']['nodes'][number];

/** `{before, after}` as "key: before → after" lines; the API never puts a secret in it. */
function describeChanges(changes: Entry['changes']): string[] {
  if (!changes || typeof changes !== 'object') return [];
  const before = (changes.before ?? {}) as Record<string, unknown>;
  const after = (changes.after ?? {}) as Record<string, unknown>;
  const show = (v: unknown) => (v === undefined ? '—' : typeof v === 'string' ? v : JSON.stringify(v));
  return [...new Set([...Object.keys(before), ...Object.keys(after)])].map((key) =>
    key in before && key in after
      ? `${key}: ${show(before[key])} → ${show(after[key])}`
      : key in after
        ? `${key}: ${show(after[key])}`
        : `${key} was ${show(before[key])}`,
  );
}

function Actor({ actor }: { actor: Entry['actor'] }) {
  if (actor.type === 'SYSTEM') return <span className="muted">{visibleText(actor.label)}</span>;
  return (
    <>
      <span className="break">{visibleText(actor.label)}</span>
      {actor.type === 'API_TOKEN' && (
        <span className="muted">
          {' '}
          via token {actor.apiTokenName ? visibleText(actor.apiTokenName) : ''}{' '}
          {actor.apiTokenPrefix && <span className="mono">{actor.apiTokenPrefix}…</span>}
        </span>
      )}
    </>
  );
}

export function AuditTable({ entries, time }: { entries: Entry[]; time: (iso: string) => React.ReactNode }) {
  if (entries.length === 0) return <p className="muted">No entries match.</p>;
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label="Audit log entries">
      <table className="data-table audit-table">
        <caption className="visually-hidden">Audit log, newest first</caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">What</th>
            <th scope="col">Change</th>
            <th scope="col">From</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e) => (
            <tr key={e.id} data-action={e.action}>
              <td data-label="When">{time(e.time)}</td>
              <td data-label="Who">
                <Actor actor={e.actor} />
              </td>
              <th scope="row">
                {actionLabel(e.action)}
                {e.target.label && <span className="muted break"> · {visibleText(e.target.label)}</span>}
              </th>
              <td className="break" data-label="Change">
                {describeChanges(e.changes).map((line) => (
                  <div key={line}>{visibleText(line)}</div>
                ))}
              </td>
              <td data-label="From">
                <div className="mono">{e.clientAddress ?? '—'}</div>
                {e.userAgent && <div className="muted break">{visibleText(e.userAgent.slice(0, 80))}</div>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
