import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Stripe billing (issue 5, docs/billing.md). The plan itself stays on `organizations.plan`, the
 * one column quota and feature checks read; these tables hold what Stripe told us and why.
 */
export class Billing1795600000000 implements MigrationInterface {
  name = 'Billing1795600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      -- One row per organization that has ever gone to Checkout: its Stripe customer and the
      -- subscription as last re-read from Stripe (never as carried by a webhook body).
      CREATE TABLE billing_accounts (
        organization_id uuid PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
        stripe_customer_id text NOT NULL,
        stripe_subscription_id text,
        stripe_price_id text,
        subscription_status text,
        current_period_end timestamptz,
        cancel_at_period_end boolean NOT NULL DEFAULT false,
        -- Set when the subscription is first seen past_due; the grace period runs from here.
        past_due_since timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      -- Webhooks name the customer: "which organization is this".
      CREATE UNIQUE INDEX billing_accounts_customer_key ON billing_accounts (stripe_customer_id);
      -- The grace sweeper: past-due accounts only.
      CREATE INDEX billing_accounts_past_due_idx ON billing_accounts (past_due_since) WHERE past_due_since IS NOT NULL;

      -- Idempotency: a webhook's effect commits in the same transaction as this row, so a
      -- redelivered (or concurrently delivered) event id finds it and does nothing.
      CREATE TABLE stripe_events (
        id text PRIMARY KEY,
        type text NOT NULL,
        organization_id uuid REFERENCES organizations (id) ON DELETE SET NULL,
        received_at timestamptz NOT NULL DEFAULT now()
      );

      -- What each applied event (or the grace sweeper) did to an organization's plan: for support.
      CREATE TABLE billing_log (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        -- null for the grace sweeper.
        stripe_event_id text,
        reason text NOT NULL,
        plan_before text NOT NULL,
        plan_after text NOT NULL,
        subscription_status text,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX billing_log_org_idx ON billing_log (organization_id, created_at DESC);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE billing_log; DROP TABLE stripe_events; DROP TABLE billing_accounts;`);
  }
}
