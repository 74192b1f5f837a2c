import { Form } from '@remix-run/react';
import type { IssueStatus } from '../../graphql/graphql';
import { ConfirmButton } from '../../components/confirm-button';
import { SNOOZE_DEFAULT_EVENTS, SNOOZE_DEFAULT_USERS, SNOOZE_DURATIONS } from '../../lib/snooze';

type IssueActionsProps = {
  status: IssueStatus;
  busy: boolean;
  /** Merges `unmergeIssue` can undo: Unmerge shows only when there is one. */
  mergedIssueCount: number;
  discarded: boolean;
};

/**
 * Resolve, snooze (a duration, N more events, N more users, or a date) or reopen; unmerge a
 * merged issue; discard or stop discarding. Plain forms posted to the route's action; the
 * snooze menu and the confirmations are <details>, so nothing needs a script.
 */
export function IssueActions({ status, busy, mergedIssueCount, discarded }: IssueActionsProps) {
  return (
    <div className="issue-actions">
      {status !== 'OPEN' ? (
        <Form method="post">
          <button type="submit" name="intent" value="reopen" className="button" disabled={busy}>
            Reopen
          </button>
        </Form>
      ) : (
        <>
          <Form method="post">
            <button type="submit" name="intent" value="resolve" className="button button-primary" disabled={busy}>
              Resolve
            </button>
          </Form>
          <SnoozeMenu busy={busy} />
        </>
      )}
      {mergedIssueCount > 0 && (
        <Form method="post">
          <ConfirmButton
            intent="unmerge"
            label="Unmerge"
            confirmLabel={`Split into ${mergedIssueCount + 1} issues`}
            disabled={busy}
          />
        </Form>
      )}
      <Form method="post">
        {discarded ? (
          <button type="submit" name="intent" value="keep" className="button button-small" disabled={busy}>
            Stop discarding
          </button>
        ) : (
          <ConfirmButton
            intent="discard"
            label="Discard"
            confirmLabel="Drop its new events at ingest"
            disabled={busy}
          />
        )}
      </Form>
    </div>
  );
}

/** The four kinds of snooze: for a time, until N more events, until N more users, until a date. */
function SnoozeMenu({ busy }: { busy: boolean }) {
  return (
    <details className="snooze-menu">
      <summary className="button">Snooze</summary>
      <div className="snooze-menu-body">
        <Form method="post" className="snooze-form" aria-label="Snooze for a time">
          <input type="hidden" name="intent" value="snooze" />
          <input type="hidden" name="kind" value="duration" />
          {SNOOZE_DURATIONS.map((d) => (
            <button
              key={d.value}
              type="submit"
              name="duration"
              value={d.value}
              className="button button-small"
              disabled={busy}
            >
              For {d.label}
            </button>
          ))}
        </Form>
        <SnoozeCountForm kind="events" unit="events" defaultCount={SNOOZE_DEFAULT_EVENTS} busy={busy} />
        <SnoozeCountForm kind="users" unit="users" defaultCount={SNOOZE_DEFAULT_USERS} busy={busy} />
        <Form method="post" className="snooze-form" aria-label="Snooze until a date">
          <input type="hidden" name="intent" value="snooze" />
          <input type="hidden" name="kind" value="until" />
          <label htmlFor="snooze-until">Until</label>
          <input id="snooze-until" type="date" name="until" required />
          <button type="submit" className="button button-small" disabled={busy}>
            Snooze
          </button>
        </Form>
      </div>
    </details>
  );
}

/** "Until N more events" or "until N more users": the route's action reads `kind` and `count`. */
function SnoozeCountForm({
  kind,
  unit,
  defaultCount,
  busy,
}: {
  kind: 'events' | 'users';
  unit: string;
  defaultCount: number;
  busy: boolean;
}) {
  const id = `snooze-${kind}`;
  return (
    <Form method="post" className="snooze-form" aria-label={`Snooze until more ${unit}`}>
      <input type="hidden" name="intent" value="snooze" />
      <input type="hidden" name="kind" value={kind} />
      <label htmlFor={id}>Until</label>
      <input
        id={id}
        name="count"
        type="number"
        min={1}
        step={1}
        defaultValue={defaultCount}
        required
        className="input-count"
      />
      <span>more {unit}</span>
      <button type="submit" className="button button-small" disabled={busy}>
        Snooze
      </button>
    </Form>
  );
}
