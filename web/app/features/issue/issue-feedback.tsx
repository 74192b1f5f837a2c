import { RelativeTime } from '../../components/time';
import { visibleText } from '../../lib/visible-text';
import type { IssueData } from './types';

/** What users wrote about the issue's events: their text, so React text only. */
export function IssueFeedback({ feedback, now }: { feedback: IssueData['feedback']; now: string }) {
  return (
    <section className="card" aria-labelledby="feedback-heading">
      <h3 id="feedback-heading">User feedback</h3>
      {feedback.length === 0 ? (
        <p className="muted">No user has written about this error yet.</p>
      ) : (
        <ul className="feedback-list">
          {feedback.map((f) => (
            <li key={f.id}>
              <p className="feedback-message">{visibleText(f.message)}</p>
              <p className="muted">
                {visibleText([f.name, f.email].filter(Boolean).join(' · ') || 'Anonymous')} ·{' '}
                <RelativeTime iso={f.receivedAt} now={now} />
                {f.url && <> · {visibleText(f.url)}</>}
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
