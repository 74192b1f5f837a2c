import { Form } from '@remix-run/react';
import { ConfirmButton } from '../../components/confirm-button';
import { Field } from '../../components/field';
import type { InvitationsQuery, MembersQuery } from '../../graphql/graphql';
import { visibleText } from '../../lib/visible-text';
import { Section, type FormatTime, type SectionData } from './settings-section';

type MembersSectionProps = {
  members: SectionData<MembersQuery>;
  invitations: SectionData<InvitationsQuery>;
  time: FormatTime;
  busy: boolean;
};

/** A yes/no state in words (not only a colour). */
function State({ on, yes, no }: { on: boolean; yes: string; no: string }) {
  return <span className={`status ${on ? 'status-resolved' : 'status-snoozed'}`}>{on ? yes : no}</span>;
}

/**
 * The organization's members (remove; whether an email confirmed each address and whether each
 * has two-factor on, docs/accounts.md) and pending invitations (revoke, invite).
 */
export function MembersSection({ members, invitations, time, busy }: MembersSectionProps) {
  return (
    <Section id="members-heading" title="Members and invitations">
      {members.reason ? (
        <p className="muted">{members.reason}</p>
      ) : (
        // Six columns do not fit a phone: the table scrolls in its own box, reachable by keyboard.
        <div className="table-scroll" tabIndex={0} role="region" aria-label="Members">
          <table className="data-table">
            <caption className="visually-hidden">Members of the organization</caption>
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Joined</th>
                <th scope="col">Email address</th>
                <th scope="col">Two-factor</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {members.data?.members.map((m) => (
                <tr key={m.userId}>
                  <th scope="row" className="break">
                    {visibleText(m.email)}
                  </th>
                  <td>{m.role.toLowerCase()}</td>
                  <td>{time(m.joinedAt)}</td>
                  <td>
                    <State on={m.emailVerified} yes="Confirmed" no="Not confirmed" />
                  </td>
                  <td>
                    <State on={m.twoFactorEnabled} yes="On" no="Off" />
                  </td>
                  <td>
                    <Form method="post">
                      <input type="hidden" name="id" value={m.userId} />
                      <ConfirmButton
                        intent="removeMember"
                        label="Remove"
                        confirmLabel="Remove from the organization"
                        name={visibleText(m.email)}
                        disabled={busy}
                      />
                    </Form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {invitations.reason ? null : (
        <>
          <h3>Pending invitations</h3>
          {invitations.data?.invitations.length ? (
            <ul className="plain-list">
              {invitations.data.invitations.map((i) => (
                <li key={i.id}>
                  {visibleText(i.email)} ({i.role.toLowerCase()}), expires {time(i.expiresAt)}{' '}
                  <Form method="post" className="inline-form">
                    <input type="hidden" name="id" value={i.id} />
                    <button
                      type="submit"
                      name="intent"
                      value="revokeInvitation"
                      className="button button-small"
                      disabled={busy}
                      aria-label={`Revoke the invitation of ${visibleText(i.email)}`}
                    >
                      Revoke
                    </button>
                  </Form>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">None.</p>
          )}
          <Form method="post" className="form form-inline">
            <Field label="Email to invite" name="email" type="email" required autoComplete="off" />
            <div className="field">
              <label htmlFor="invite-role">Role</label>
              <select id="invite-role" name="role" defaultValue="MEMBER">
                <option value="MEMBER">Member (triage)</option>
                <option value="ADMIN">Admin (members, projects, keys, alerts)</option>
                <option value="OWNER">Owner (everything, billing)</option>
              </select>
            </div>
            <button type="submit" name="intent" value="invite" className="button button-primary" disabled={busy}>
              Invite
            </button>
          </Form>
        </>
      )}
    </Section>
  );
}
