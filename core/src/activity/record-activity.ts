import type { EntityManager } from 'typeorm';

/** What can happen to an issue; `Issue.activity`'s `kind` in GraphQL is this, upper case. */
export const ISSUE_ACTIVITY_KINDS = [
  'FIRST_SEEN',
  'RESOLVED',
  'SNOOZED',
  'REOPENED',
  'REGRESSED',
  'MERGED',
  'UNMERGED',
  'ASSIGNED',
  'COMMENTED',
  'ALERT_SENT',
  'DISCARDED',
] as const;
export type IssueActivityKind = (typeof ISSUE_ACTIVITY_KINDS)[number];

/** One row of an issue's timeline, as `recordIssueActivity` writes it. */
export interface IssueActivityInput {
  issueId: string;
  /** The issue's project (denormalized: retention and tenant checks read it without issues). */
  projectId: string;
  kind: IssueActivityKind;
  /** The member who did it; null or absent for the system (worker, dispatcher, a snooze's end). */
  actorId?: string | null;
  /** The sentence shown in the timeline, in the user's words ("Resolved in 1.3.2"). */
  message: string;
  /** Details for integrations (release, environment, reason…); a JSON object. */
  data?: Record<string, unknown>;
  /** When it happened: the caller's clock (decision 021), never read here. */
  at: Date;
  /** COMMENTED only: the comment the row shows (the row goes with it). */
  commentId?: string | null;
}

/** Longest stored message: a sentence, not a payload (comment bodies are read from the comment). */
export const MAX_ACTIVITY_MESSAGE_CHARS = 2_000;

function clip(message: string): string {
  return message.length > MAX_ACTIVITY_MESSAGE_CHARS ? `${message.slice(0, MAX_ACTIVITY_MESSAGE_CHARS - 1)}…` : message;
}

/**
 * Appends one row to an issue's activity timeline (docs/releases-and-lifecycle.md, "Activity").
 * Runs on the caller's `EntityManager` so the row commits or rolls back with the change it
 * records (the worker's batch transaction, a transition's, a merge's). It does no access check:
 * the caller has already checked the change it records. Stable signature: other modules
 * (unmerge, discard, snooze ends) call it.
 */
export async function recordIssueActivity(em: EntityManager, input: IssueActivityInput): Promise<void> {
  await recordIssueActivities(em, [input]);
}

/** `recordIssueActivity` for many rows in one statement (the worker's batches). */
export async function recordIssueActivities(em: EntityManager, inputs: readonly IssueActivityInput[]): Promise<void> {
  if (inputs.length === 0) return;
  for (const input of inputs) {
    if (!(ISSUE_ACTIVITY_KINDS as readonly string[]).includes(input.kind)) {
      // A programming error, not user input.
      throw new Error(`unknown activity kind ${String(input.kind)}`);
    }
  }
  await em.query(
    `INSERT INTO issue_activity (issue_id, project_id, kind, actor_id, comment_id, message, data, created_at)
     SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::uuid[], $5::uuid[], $6::text[], $7::jsonb[], $8::timestamptz[])`,
    [
      inputs.map((i) => i.issueId),
      inputs.map((i) => i.projectId),
      inputs.map((i) => i.kind),
      inputs.map((i) => i.actorId ?? null),
      inputs.map((i) => i.commentId ?? null),
      inputs.map((i) => clip(i.message)),
      inputs.map((i) => JSON.stringify(i.data ?? {})),
      inputs.map((i) => i.at.toISOString()),
    ],
  );
}
