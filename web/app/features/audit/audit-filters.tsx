import { Form, Link } from '@remix-run/react';
import { AUDIT_ACTION_LABELS } from './audit-actions';
import { MAX_ACTOR_CHARS, type AuditParams } from './audit-params';

/** Actor, action and "since" (a GET form: the URL is the state). */
export function AuditFilters({ params, filtered }: { params: AuditParams; filtered: boolean }) {
  return (
    <Form method="get" className="filters" aria-label="Filter the audit log">
      <label className="inline-field">
        <span>Actor</span>
        <input
          type="text"
          name="actor"
          defaultValue={params.actor}
          maxLength={MAX_ACTOR_CHARS}
          placeholder="email, stripe, operator, or an id"
        />
      </label>
      <label className="inline-field">
        <span>Action</span>
        <select name="action" defaultValue={params.action}>
          <option value="">Any action</option>
          {Object.entries(AUDIT_ACTION_LABELS).map(([action, label]) => (
            <option key={action} value={action}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label className="inline-field">
        <span>Since</span>
        <input type="date" name="since" defaultValue={params.since} />
      </label>
      <button type="submit" className="button">
        Apply
      </button>
      {filtered && <Link to="?">Clear</Link>}
    </Form>
  );
}
