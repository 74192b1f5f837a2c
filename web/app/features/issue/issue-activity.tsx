import { Form } from '@remix-run/react';
import { LinkedText } from '../../components/linked-text';
import { formatDateTime } from '../../lib/format';
import { formatRelativeTime } from '../../lib/relative-time';
import { visibleText } from '../../lib/visible-text';
import type { IssueData } from './types';

const KIND_LABEL: Record<string, string> = {
  FIRST_SEEN: 'First seen',
  RESOLVED: 'Resolved',
  SNOOZED: 'Snoozed',
  REOPENED: 'Reopened',
  REGRESSED: 'Regressed',
  MERGED: 'Merged',
  UNMERGED: 'Unmerged',
  ASSIGNED: 'Assigned',
  COMMENTED: 'Comment',
  ALERT_SENT: 'Alert sent',
  DISCARDED: 'Discard',
};

/** Longest comment the API takes; the textarea says so before the API has to. */
const MAX_COMMENT_CHARS = 10_000;

type Entry = IssueData['activity'][number];

/**
 * The issue's timeline, newest first, with the comment form on top. Messages and comments are
 * React text (a comment's http(s) URLs become links); a comment's author may edit it (a
 * <details> holding the form: no script) or delete it (behind a second click).
 */
export function IssueActivity({ activity, now, busy }: { activity: Entry[]; now: string; busy: boolean }) {
  return (
    <section className="card" id="activity" aria-labelledby="activity-heading">
      <h3 id="activity-heading">Activity</h3>
      {/* Keyed by the newest entry: after a comment is posted the form mounts anew, empty. */}
      <Form method="post" className="comment-form" aria-label="Add a comment" key={activity[0]?.id ?? 'none'}>
        <label htmlFor="comment-body" className="visually-hidden">
          Comment
        </label>
        <textarea
          id="comment-body"
          name="body"
          rows={3}
          maxLength={MAX_COMMENT_CHARS}
          required
          placeholder="Write a comment (plain text; links are clickable)"
        />
        <button type="submit" name="intent" value="comment" className="button" disabled={busy}>
          Comment
        </button>
      </Form>
      {activity.length === 0 ? (
        <p className="empty">Nothing has happened to this issue yet.</p>
      ) : (
        <ol className="timeline">
          {activity.map((a) => (
            <li
              key={a.id}
              className={`timeline-entry timeline-${a.kind.toLowerCase().replace('_', '-')}`}
              data-kind={a.kind}
            >
              <p className="timeline-head">
                <span className="timeline-kind">{KIND_LABEL[a.kind] ?? a.kind}</span>
                <span className="muted">{a.actor ? visibleText(a.actor.email) : 'Tracker'}</span>
                <time className="muted" dateTime={a.createdAt} title={formatDateTime(a.createdAt)}>
                  {formatRelativeTime(a.createdAt, now)}
                </time>
                {a.comment && a.comment.updatedAt !== a.comment.createdAt && <span className="muted">(edited)</span>}
              </p>
              {a.comment ? (
                <>
                  <p className="comment-body">
                    <LinkedText text={a.comment.body} />
                  </p>
                  {a.comment.editable && (
                    // Keyed by the edit time: a saved edit closes the form.
                    <CommentControls key={a.comment.updatedAt} id={a.comment.id} body={a.comment.body} busy={busy} />
                  )}
                </>
              ) : (
                <p className="timeline-message">{visibleText(a.message)}</p>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function CommentControls({ id, body, busy }: { id: string; body: string; busy: boolean }) {
  return (
    <div className="comment-controls">
      <details className="comment-edit">
        <summary className="button button-small">Edit</summary>
        <Form method="post" aria-label="Edit comment">
          <input type="hidden" name="commentId" value={id} />
          <label htmlFor={`edit-${id}`} className="visually-hidden">
            Comment text
          </label>
          {/* Shown as visibleText: a bidi control must not reorder what the author reads back. */}
          <textarea
            id={`edit-${id}`}
            name="body"
            rows={3}
            maxLength={MAX_COMMENT_CHARS}
            required
            defaultValue={visibleText(body)}
          />
          <button type="submit" name="intent" value="edit-comment" className="button button-small" disabled={busy}>
            Save
          </button>
        </Form>
      </details>
      <Form method="post" aria-label="Delete comment">
        <input type="hidden" name="commentId" value={id} />
        <details className="confirm">
          <summary className="button button-small button-danger">Delete</summary>
          <button
            type="submit"
            name="intent"
            value="delete-comment"
            className="button button-small button-danger"
            disabled={busy}
          >
            Delete this comment
          </button>
        </details>
      </Form>
    </div>
  );
}
