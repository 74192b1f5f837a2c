import { Form } from '@remix-run/react';
import type { AlertChannelType } from '../../graphql/graphql';
import type { Delivery } from './delivery-log';
import { MUTE_DURATIONS } from './mute-durations';
import { describeRule, RuleFields } from './rule-fields';

/** An alert rule as the Alerts page reads it. */
export type Rule = {
  id: string;
  kind: string;
  enabled: boolean;
  createdAt: string;
  secret: string | null;
  /** The API masked `secret` and `channel.url`: the viewer is not an owner or admin. */
  masked: boolean;
  channel: { type: AlertChannelType; url: string | null; email: string | null };
  deliveries: Delivery[];
  failing: boolean;
  recentFailures: number;
  mutedUntil: string | null;
};

/** Edit a rule's trigger and conditions, and mute or unmute it (owners and admins). */
export function RuleControls({
  rule,
  now,
  busy,
}: {
  rule: Rule & Parameters<typeof describeRule>[0];
  now: string;
  busy: boolean;
}) {
  const muted = rule.mutedUntil !== null && Date.parse(rule.mutedUntil) > Date.parse(now);
  return (
    <div className="row-actions">
      <details>
        <summary className="button button-small">Edit trigger and conditions</summary>
        <Form method="post" className="form form-inline">
          <input type="hidden" name="id" value={rule.id} />
          <input type="hidden" name="intent" value="edit" />
          <RuleFields rule={rule} prefix={`rule-${rule.id}`} />
          <button type="submit" className="button button-primary" disabled={busy}>
            Save rule
          </button>
        </Form>
      </details>
      <Form method="post" className="inline-form">
        <input type="hidden" name="id" value={rule.id} />
        {muted ? (
          <button type="submit" name="intent" value="unmute" className="button button-small" disabled={busy}>
            Unmute
          </button>
        ) : (
          <>
            <label htmlFor={`mute-${rule.id}`} className="visually-hidden">
              Mute for
            </label>
            <select id={`mute-${rule.id}`} name="duration" defaultValue="1h">
              {MUTE_DURATIONS.map((d) => (
                <option key={d.value} value={d.value}>
                  {d.label}
                </option>
              ))}
            </select>
            <button type="submit" name="intent" value="mute" className="button button-small" disabled={busy}>
              Mute rule
            </button>
          </>
        )}
      </Form>
    </div>
  );
}
