import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Logs, Web Vitals reports and user feedback (issue 3). Each row has an id assigned at the
 * edge (or sent by the client) and is unique per project on it: the worker inserts with
 * ON CONFLICT DO NOTHING, so a redelivered job stores nothing twice. The key leads with
 * project_id so one tenant can never collide with, or probe, another's ids.
 */
export class LogsVitalsFeedback1795315200000 implements MigrationInterface {
  name = 'LogsVitalsFeedback1795315200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE logs (
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        id uuid NOT NULL,
        level text NOT NULL CHECK (level IN ('debug', 'info', 'warn', 'error')),
        message text NOT NULL,
        context jsonb,
        environment text NOT NULL,
        release text,
        tags jsonb NOT NULL DEFAULT '{}',
        timestamp timestamptz NOT NULL,
        received_at timestamptz NOT NULL,
        PRIMARY KEY (project_id, id)
      );
      -- The logs page: one project, newest first, keyset-paginated on (timestamp, id) ...
      CREATE INDEX logs_project_timestamp_idx ON logs (project_id, timestamp DESC, id DESC);
      -- ... and the same filtered by level ("errors only").
      CREATE INDEX logs_project_level_timestamp_idx ON logs (project_id, level, timestamp DESC, id DESC);

      CREATE TABLE vitals_reports (
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        id uuid NOT NULL,
        url text NOT NULL,
        -- One column per metric rather than jsonb: percentiles over a column are what the
        -- Performance page computes, and a report usually lacks some (INP needs a click).
        lcp double precision,
        inp double precision,
        cls double precision,
        fcp double precision,
        ttfb double precision,
        environment text NOT NULL,
        release text,
        tags jsonb NOT NULL DEFAULT '{}',
        received_at timestamptz NOT NULL,
        PRIMARY KEY (project_id, id)
      );
      -- The Performance page: one project over a time window.
      CREATE INDEX vitals_reports_project_received_idx ON vitals_reports (project_id, received_at DESC);

      CREATE TABLE feedback (
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        id uuid NOT NULL,
        message text NOT NULL,
        email text,
        -- The event it comments on (no foreign key: feedback may arrive before its event).
        event_id uuid,
        -- The event's issue, once the event is stored.
        issue_id uuid REFERENCES issues (id) ON DELETE CASCADE,
        received_at timestamptz NOT NULL,
        PRIMARY KEY (project_id, id)
      );
      -- An issue's feedback, newest first.
      CREATE INDEX feedback_issue_received_idx ON feedback (issue_id, received_at DESC) WHERE issue_id IS NOT NULL;
      -- The User feedback page: one project, newest first.
      CREATE INDEX feedback_project_received_idx ON feedback (project_id, received_at DESC);
      -- Feedback waiting for its event. The worker probes it for every event it inserts, so it
      -- holds only the waiting rows and stays tiny.
      CREATE INDEX feedback_waiting_event_idx ON feedback (project_id, event_id)
        WHERE issue_id IS NULL AND event_id IS NOT NULL;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE feedback; DROP TABLE vitals_reports; DROP TABLE logs;`);
  }
}
