import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Grouping control (issue 19; docs/decisions/023-unmerge-snooze-discard.md).
 *
 * - `events.grouping_key`: the key the worker computed for the event (after symbolication),
 *   before any alias sent it to another issue. What lets an unmerge put each event back in the
 *   group it came from. Null for events stored before this migration: a merge backfills the
 *   source's null keys with the source's own key, so merges made from now on split exactly;
 *   merges made before cannot be split (their events do not say where they came from).
 * - `issue_merges`: one row per merge made from now on, with the source issue as it was (a
 *   `to_jsonb` snapshot of its row, restored with `jsonb_populate_record`), its own key and the
 *   aliases it carried, and the target's first/last seen before its first recorded merge.
 *   `target_issue_id` has no foreign key on purpose: a source merged away later keeps the merges
 *   made into it, so undoing the outer merge and then the inner one restores both levels. It
 *   also lists the source's activity rows and comments the merge moved, to move them back.
 * - Snooze by count, users and time: `issues.snooze` (the condition, a small JSON object: kind,
 *   when, and the event or user count that ends it); `snoozed_until` keeps the time condition.
 * - Discard: `issues.discarded_at`, and `issue_discard_keys`, the raw grouping keys whose events
 *   are dropped (the key and aliases, and keys the worker learned from events it dropped
 *   whose unsymbolicated frames group differently). The edge reads a project's keys with its
 *   DSN key, so only projects with discards pay for the check.
 * - `issue_regressions.reason`: why a snooze ended ("100 more events since snoozed").
 */
export class GroupingControl1796410000000 implements MigrationInterface {
  name = 'GroupingControl1796410000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE events ADD COLUMN grouping_key text;
      ALTER TABLE issues ADD COLUMN snooze jsonb;
      ALTER TABLE issues ADD COLUMN discarded_at timestamptz;
      ALTER TABLE issue_regressions ADD COLUMN reason text;
      -- The issues page's "Discarded" tab; the default list filters them out on its own indexes.
      CREATE INDEX issues_project_discarded_idx ON issues (project_id, last_seen DESC, id DESC)
        WHERE discarded_at IS NOT NULL;

      CREATE TABLE issue_merges (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        target_issue_id uuid NOT NULL,
        source_issue_id uuid NOT NULL,
        fingerprint text NOT NULL,
        aliases text[] NOT NULL,
        source jsonb NOT NULL,
        target_first_seen timestamptz NOT NULL,
        target_last_seen timestamptz NOT NULL,
        merged_at timestamptz NOT NULL,
        merged_by uuid,
        -- The source's timeline rows and comments that the merge moved to the target.
        activity_ids uuid[] NOT NULL DEFAULT '{}',
        comment_ids uuid[] NOT NULL DEFAULT '{}'
      );
      CREATE INDEX issue_merges_target_idx ON issue_merges (target_issue_id, merged_at);

      CREATE TABLE issue_discard_keys (
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        grouping_key text NOT NULL,
        issue_id uuid NOT NULL REFERENCES issues (id) ON DELETE CASCADE,
        PRIMARY KEY (project_id, grouping_key)
      );
      CREATE INDEX issue_discard_keys_issue_idx ON issue_discard_keys (issue_id);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE issue_discard_keys; DROP TABLE issue_merges;
      DROP INDEX issues_project_discarded_idx;
      ALTER TABLE issue_regressions DROP COLUMN reason;
      ALTER TABLE issues DROP COLUMN discarded_at;
      ALTER TABLE issues DROP COLUMN snooze;
      ALTER TABLE events DROP COLUMN grouping_key;
    `);
  }
}
