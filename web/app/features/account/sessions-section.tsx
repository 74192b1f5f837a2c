import { Form } from '@remix-run/react';
import type { AccountQuery } from '../../graphql/graphql';
import { Section, type FormatTime } from '../settings/settings-section';

type Sessions = AccountQuery['sessions'];

/** Where you are signed in, with "sign out everywhere else" and one session at a time. */
export function SessionsSection({ sessions, time, busy }: { sessions: Sessions; time: FormatTime; busy: boolean }) {
  const others = sessions.filter((s) => !s.current).length;
  return (
    <Section id="sessions-heading" title="Signed-in sessions">
      <p className="muted">Each sign-in is a session; it lasts 30 days unless signed out.</p>
      <div className="table-scroll">
        <table className="data-table">
          <caption className="visually-hidden">Your sessions</caption>
          <thead>
            <tr>
              <th scope="col">Signed in</th>
              <th scope="col">Expires</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {sessions.map((s) => (
              <tr key={s.id}>
                <th scope="row">{time(s.createdAt)}</th>
                <td>{time(s.expiresAt)}</td>
                <td>
                  {s.current ? (
                    <strong>This browser</strong>
                  ) : (
                    <Form method="post" className="inline-form">
                      <input type="hidden" name="id" value={s.id} />
                      <button
                        type="submit"
                        name="intent"
                        value="revokeSession"
                        className="button button-small"
                        disabled={busy}
                      >
                        Sign out
                      </button>
                    </Form>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Form method="post">
        <button
          type="submit"
          name="intent"
          value="revokeOtherSessions"
          className="button"
          disabled={busy || others === 0}
        >
          Sign out everywhere else
        </button>
      </Form>
    </Section>
  );
}
