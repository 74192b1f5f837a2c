import { SNOOZE_DURATIONS } from '../../lib/snooze';

/** What the bulk form can do to the checked issues: resolve and snooze open ones, reopen closed ones, merge any two or more. */
export function BulkToolbar({
  count,
  listLabel,
  discardedTab,
  showsOpen,
  showsClosed,
  busy,
}: {
  count: number;
  listLabel: string;
  discardedTab: boolean;
  showsOpen: boolean;
  showsClosed: boolean;
  busy: boolean;
}) {
  if (discardedTab) {
    return (
      <p className="muted toolbar-count">
        {count} discarded {count === 1 ? 'issue' : 'issues'}: their new events are dropped at ingest. Open one to stop
        discarding it.
      </p>
    );
  }
  return (
    <div className="toolbar">
      <p className="muted toolbar-count">
        {count} {listLabel} {count === 1 ? 'issue' : 'issues'}
      </p>
      {showsOpen && (
        <>
          <button type="submit" name="intent" value="resolve" className="button" disabled={busy}>
            Resolve selected
          </button>
          <label className="inline-field">
            <span className="visually-hidden">Snooze for</span>
            <select name="duration" defaultValue="24h">
              {SNOOZE_DURATIONS.map((d) => (
                <option key={d.value} value={d.value}>
                  {d.label}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" name="intent" value="snooze" className="button" disabled={busy}>
            Snooze selected
          </button>
        </>
      )}
      {showsClosed && (
        <button type="submit" name="intent" value="reopen" className="button" disabled={busy}>
          Reopen selected
        </button>
      )}
      {/* Into the first selected issue; the server says so when fewer than two are checked. */}
      <button
        type="submit"
        name="intent"
        value="merge"
        className="button"
        disabled={busy}
        title="Merge the selected issues into the first one selected"
      >
        Merge selected
      </button>
    </div>
  );
}
