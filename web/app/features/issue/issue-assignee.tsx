import { Form } from '@remix-run/react';
import { visibleText } from '../../lib/visible-text';

type Member = { userId: string; email: string };

/**
 * Who owns the issue, and a picker of the organization's members (a plain form: works without
 * JavaScript). Choosing "Unassigned" clears it.
 */
export function IssueAssignee({
  assignee,
  members,
  busy,
}: {
  assignee: { id: string; email: string } | null | undefined;
  members: Member[];
  busy: boolean;
}) {
  return (
    <Form method="post" className="assignee-form" aria-label="Assign this issue">
      <label className="inline-field">
        <span>Assignee</span>
        <select name="userId" defaultValue={assignee?.id ?? ''} key={assignee?.id ?? ''}>
          <option value="">Unassigned</option>
          {members.map((m) => (
            <option key={m.userId} value={m.userId}>
              {visibleText(m.email)}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" name="intent" value="assign" className="button button-small" disabled={busy}>
        Assign
      </button>
    </Form>
  );
}
