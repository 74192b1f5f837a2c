import { Form } from '@remix-run/react';
import type { IssueStatus } from '../../graphql/graphql';
import { SNOOZE_DURATIONS } from '../../lib/snooze';

/** Resolve, snooze (presets or a date) or reopen: plain forms posted to the route's action. */
export function IssueActions({ status, busy }: { status: IssueStatus; busy: boolean }) {
  if (status !== 'OPEN') {
    return (
      <Form method="post" className="issue-actions">
        <button type="submit" name="intent" value="reopen" className="button" disabled={busy}>
          Reopen
        </button>
      </Form>
    );
  }
  return (
    <div className="issue-actions">
      <Form method="post">
        <button type="submit" name="intent" value="resolve" className="button button-primary" disabled={busy}>
          Resolve
        </button>
      </Form>
      <Form method="post" className="snooze-form" aria-label="Snooze">
        <input type="hidden" name="intent" value="snooze" />
        {SNOOZE_DURATIONS.map((d) => (
          <button
            key={d.value}
            type="submit"
            name="duration"
            value={d.value}
            className="button button-small"
            disabled={busy}
          >
            Snooze {d.label}
          </button>
        ))}
      </Form>
      <Form method="post" className="snooze-form">
        <input type="hidden" name="intent" value="snooze" />
        <label htmlFor="snooze-until">Snooze until</label>
        <input id="snooze-until" type="date" name="until" required />
        <button type="submit" className="button button-small" disabled={busy}>
          Snooze
        </button>
      </Form>
    </div>
  );
}
