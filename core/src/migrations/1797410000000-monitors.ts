import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Monitors (issue 33): cron monitors fed by check-ins and uptime monitors that the worker calls.
 *
 * - `monitors`: one row per monitor of a project, its slug unique in the project. A cron monitor
 *   has a crontab (with a time zone) or an interval; an uptime monitor a URL and an interval.
 * - `monitor_environments`: the state of one monitor in one environment (a cron monitor tracks
 *   each environment apart, as Sentry does; an uptime monitor has one row, `production`). The
 *   scheduler claims due rows by `next_run_at` with `FOR UPDATE SKIP LOCKED` and holds a lease
 *   (`lease_until`) while it works, so any number of workers run each due evaluation once
 *   (decision 064).
 * - `monitor_check_ins`: one small row per check-in or check, kept for the plan's retention.
 */
export class Monitors1797410000000 implements MigrationInterface {
  name = 'Monitors1797410000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE monitors (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('cron', 'uptime')),
        slug text NOT NULL,
        name text NOT NULL,
        crontab text,
        timezone text NOT NULL DEFAULT 'UTC',
        interval_minutes integer,
        checkin_margin_minutes integer NOT NULL DEFAULT 1,
        max_runtime_minutes integer NOT NULL DEFAULT 30,
        failure_tolerance integer NOT NULL DEFAULT 1,
        recovery_threshold integer NOT NULL DEFAULT 1,
        url text,
        timeout_ms integer,
        paused boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX monitors_project_slug_key ON monitors (project_id, slug);

      CREATE TABLE monitor_environments (
        monitor_id uuid NOT NULL REFERENCES monitors (id) ON DELETE CASCADE,
        environment text NOT NULL,
        status text NOT NULL DEFAULT 'ok' CHECK (status IN ('ok', 'failing')),
        consecutive_failures integer NOT NULL DEFAULT 0,
        consecutive_successes integer NOT NULL DEFAULT 0,
        -- The slot the next check-in is expected for (cron) or the next check is due (uptime).
        expected_at timestamptz,
        -- The open in_progress check-in, for the timeout rule.
        in_progress_id uuid,
        in_progress_since timestamptz,
        last_check_in_at timestamptz,
        issue_id uuid REFERENCES issues (id) ON DELETE SET NULL,
        next_run_at timestamptz,
        lease_until timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (monitor_id, environment)
      );
      -- The scheduler's claim: due rows first.
      CREATE INDEX monitor_environments_next_run_idx ON monitor_environments (next_run_at);

      CREATE TABLE monitor_check_ins (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        monitor_id uuid NOT NULL REFERENCES monitors (id) ON DELETE CASCADE,
        project_id uuid NOT NULL,
        environment text NOT NULL,
        status text NOT NULL CHECK (status IN ('in_progress', 'ok', 'error', 'missed', 'timeout')),
        duration_ms integer,
        expected_at timestamptz,
        status_code integer,
        ttfb_ms integer,
        response_bytes integer,
        tls_expires_at timestamptz,
        error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX monitor_check_ins_monitor_idx ON monitor_check_ins (monitor_id, created_at DESC, id DESC);
      CREATE INDEX monitor_check_ins_created_idx ON monitor_check_ins (created_at);

      -- A monitor's failure is a kind of alert rule like the others (channels, interval, mutes).
      ALTER TABLE alert_rules DROP CONSTRAINT alert_rules_kind_check;
      ALTER TABLE alert_rules ADD CONSTRAINT alert_rules_kind_check CHECK (kind IN ('REGRESSED_ISSUE', 'NEW_ISSUE',
        'ISSUE_FREQUENCY', 'USERS_AFFECTED', 'NEW_RELEASE_ISSUE', 'ERROR_SPIKE', 'LOG_MATCH', 'MONITOR_FAILED'));
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DELETE FROM alert_rules WHERE kind = 'MONITOR_FAILED';
      ALTER TABLE alert_rules DROP CONSTRAINT alert_rules_kind_check;
      ALTER TABLE alert_rules ADD CONSTRAINT alert_rules_kind_check CHECK (kind IN ('REGRESSED_ISSUE', 'NEW_ISSUE',
        'ISSUE_FREQUENCY', 'USERS_AFFECTED', 'NEW_RELEASE_ISSUE', 'ERROR_SPIKE', 'LOG_MATCH'));
      DROP TABLE monitor_check_ins; DROP TABLE monitor_environments; DROP TABLE monitors;
    `);
  }
}
