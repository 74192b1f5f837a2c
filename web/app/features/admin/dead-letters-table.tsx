import { Form } from '@remix-run/react';
import { RelativeTime } from '../../components/time';
import type { AdminDeadLettersQuery } from '../../graphql/graphql';

type Letter = AdminDeadLettersQuery['adminDeadLetters']['nodes'][number];

/** Each dead letter with why it failed and a Replay button; newest first, as the API lists them. */
export function DeadLettersTable({ letters, now, busy }: { letters: Letter[]; now: string; busy: boolean }) {
  if (letters.length === 0) return <p className="muted">No dead letters: every job was processed.</p>;
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label="Dead letters">
      <table className="data-table">
        <caption className="visually-hidden">Dead letters, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Job</th>
            <th scope="col">Reason</th>
            <th scope="col">Attempts</th>
            <th scope="col">Last failed</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {letters.map((d) => (
            <tr key={d.id}>
              <th scope="row" className="mono">
                #{d.id} {d.topic}/{d.kind ?? '?'}
              </th>
              <td className="break">{d.reason}</td>
              <td>{d.attempts}</td>
              <td>
                <RelativeTime iso={d.lastFailedAt} now={now} />
              </td>
              <td>
                <Form method="post">
                  <input type="hidden" name="id" value={d.id} />
                  <button
                    type="submit"
                    name="intent"
                    value="replay"
                    className="button button-small"
                    disabled={busy}
                    aria-label={`Replay #${d.id}`}
                  >
                    Replay
                  </button>
                </Form>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
