import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { ConfirmButton } from '../components/confirm-button';
import { FormError } from '../components/field';
import { RelativeTime } from '../components/time';
import { readString } from '../lib/form.server';
import { formatDateTime } from '../lib/format';
import { mutateApi, queryApi } from '../lib/graphql.server';
import { visibleText } from '../lib/visible-text';
import { graphql } from '../graphql';
import type { AlertChannelType, AlertKind } from '../graphql/graphql';

const DELIVERIES_SHOWN = 10;

const ALERT_RULES_QUERY = graphql(`
  query AlertRules($projectId: ID!, $deliveries: Int!) {
    alertRules(projectId: $projectId) {
      id
      kind
      enabled
      createdAt
      secret
      masked
      channel {
        type
        url
        email
      }
      deliveries(first: $deliveries) {
        id
        kind
        status
        attempts
        lastError
        lastStatus
        createdAt
        deliveredAt
        nextAttemptAt
      }
    }
  }
`);

const CREATE_RULE = graphql(`
  mutation CreateAlertRule($projectId: ID!, $kind: AlertKind!, $channel: AlertChannelInput!) {
    createAlertRule(projectId: $projectId, kind: $kind, channel: $channel) {
      id
    }
  }
`);
const UPDATE_RULE = graphql(`
  mutation UpdateAlertRule($id: ID!, $enabled: Boolean) {
    updateAlertRule(id: $id, enabled: $enabled) {
      id
    }
  }
`);
const DELETE_RULE = graphql(`
  mutation DeleteAlertRule($id: ID!) {
    deleteAlertRule(id: $id)
  }
`);

const KINDS = [
  ['NEW_ISSUE', 'A new issue appears'],
  ['REGRESSED_ISSUE', 'A resolved issue comes back (regression)'],
] as const;
const CHANNELS = [
  ['WEBHOOK', 'Webhook'],
  ['SLACK', 'Slack'],
  ['EMAIL', 'Email'],
] as const;

type Delivery = {
  id: string;
  kind: string;
  status: 'PENDING' | 'SENDING' | 'DELIVERED' | 'FAILED';
  attempts: number;
  lastError: string | null;
  lastStatus: number | null;
  createdAt: string;
  deliveredAt: string | null;
  nextAttemptAt: string | null;
};
type Rule = {
  id: string;
  kind: 'NEW_ISSUE' | 'REGRESSED_ISSUE';
  enabled: boolean;
  createdAt: string;
  secret: string | null;
  /** The API masked `secret` and `channel.url`: the viewer is not an owner or admin. */
  masked: boolean;
  channel: { type: 'WEBHOOK' | 'SLACK' | 'EMAIL'; url: string | null; email: string | null };
  deliveries: Delivery[];
};

export const meta: MetaFunction = () => [{ title: 'Alerts · Tracker' }];

export async function loader(args: LoaderFunctionArgs) {
  const { alertRules } = await queryApi(args, ALERT_RULES_QUERY, {
    projectId: args.params.projectId ?? '',
    deliveries: DELIVERIES_SHOWN,
  });
  return { rules: alertRules, now: new Date().toISOString() };
}

export async function action(args: ActionFunctionArgs) {
  const form = await args.request.formData();
  const intent = readString(form, 'intent');
  const id = readString(form, 'id');
  let result;
  if (intent === 'create') {
    // Enums are not checked here: the API coerces the variables and rejects other values.
    const type = readString(form, 'channelType') as AlertChannelType;
    const target = readString(form, 'target');
    const channel = type === 'EMAIL' ? { type, email: target } : { type, url: target };
    result = await mutateApi(args, CREATE_RULE, {
      projectId: args.params.projectId ?? '',
      kind: readString(form, 'kind') as AlertKind,
      channel,
    });
  } else if (intent === 'enable' || intent === 'disable') {
    result = await mutateApi(args, UPDATE_RULE, { id, enabled: intent === 'enable' });
  } else if (intent === 'delete') {
    result = await mutateApi(args, DELETE_RULE, { id });
  } else {
    return data({ error: 'Unknown action.' }, { status: 400 });
  }
  if (!result.ok)
    return data({ error: result.error.message }, { status: result.error.code === 'FORBIDDEN' ? 403 : 400 });
  return { error: null };
}

function channelTarget(channel: Rule['channel']): string {
  return visibleText(channel.type === 'EMAIL' ? (channel.email ?? '') : (channel.url ?? ''));
}

/** Why a member sees less, and cannot change the rule (the API refuses them). */
function maskedNote(rule: Rule): string {
  if (rule.channel.type === 'EMAIL') return 'Only owners and admins change this rule.';
  const what = rule.secret ? 'URL and signing secret' : 'URL';
  return `Only owners and admins see the full ${what} and change this rule.`;
}

export default function AlertsPage() {
  const { rules, now } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  return (
    <div className="stack">
      <section className="card" aria-labelledby="new-rule-heading">
        <h2 id="new-rule-heading">New alert rule</h2>
        <Form method="post" className="form form-inline">
          <input type="hidden" name="intent" value="create" />
          <div className="field">
            <label htmlFor="rule-kind">When</label>
            <select id="rule-kind" name="kind" required>
              {KINDS.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="rule-channel">Send to</label>
            <select id="rule-channel" name="channelType" required>
              {CHANNELS.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="rule-target">URL or email address</label>
            <input
              id="rule-target"
              name="target"
              type="text"
              required
              autoComplete="off"
              placeholder="https://hooks.example.com/…"
            />
          </div>
          <button type="submit" className="button button-primary" disabled={busy}>
            Add rule
          </button>
        </Form>
        <p className="hint">
          Webhook and Slack URLs must be public http(s) addresses; private and loopback targets are refused.
        </p>
        <FormError message={actionData?.error} />
      </section>

      {rules.length === 0 ? (
        <p className="empty">No alert rules yet. Add one to hear about new issues and regressions.</p>
      ) : (
        rules.map((rule) => (
          <section
            key={rule.id}
            className="card"
            aria-label={`Alert rule ${KINDS.find(([k]) => k === rule.kind)?.[1] ?? rule.kind}`}
          >
            <div className="section-head">
              <h3>
                {KINDS.find(([k]) => k === rule.kind)?.[1] ?? rule.kind} → {rule.channel.type.toLowerCase()}{' '}
                {!rule.enabled && <span className="tag">disabled</span>}
              </h3>
              {!rule.masked && (
                <div className="row-actions">
                  <Form method="post" className="inline-form">
                    <input type="hidden" name="id" value={rule.id} />
                    <button
                      type="submit"
                      name="intent"
                      value={rule.enabled ? 'disable' : 'enable'}
                      className="button button-small"
                      disabled={busy}
                    >
                      {rule.enabled ? 'Disable' : 'Enable'}
                    </button>
                    <ConfirmButton
                      intent="delete"
                      label="Delete"
                      confirmLabel="Delete this rule and its log"
                      disabled={busy}
                    />
                  </Form>
                </div>
              )}
            </div>
            <p className="mono break">{channelTarget(rule.channel)}</p>
            {rule.secret && (
              <details>
                <summary>Signing secret</summary>
                {rule.masked ? (
                  <p className="hint">
                    Only its start and last four characters: owners and admins see the whole secret.
                  </p>
                ) : (
                  <p className="hint">
                    Verify the X-Tracker-Signature header with it (HMAC-SHA256, see docs/alerts.md).
                  </p>
                )}
                <code className="break">{rule.secret}</code>
              </details>
            )}
            {rule.masked && <p className="hint">{maskedNote(rule)}</p>}
            <h4>Delivery log</h4>
            {rule.deliveries.length === 0 ? (
              <p className="muted">Nothing sent yet.</p>
            ) : (
              <div className="table-scroll" tabIndex={0}>
                <table className="data-table">
                  <caption className="visually-hidden">Latest deliveries of this rule</caption>
                  <thead>
                    <tr>
                      <th scope="col">When</th>
                      <th scope="col">Status</th>
                      <th scope="col" className="num">
                        Attempts
                      </th>
                      <th scope="col">Last answer</th>
                    </tr>
                  </thead>
                  <tbody>
                    {rule.deliveries.map((d) => (
                      <tr key={d.id}>
                        <td>
                          <RelativeTime iso={d.createdAt} now={now} />
                        </td>
                        <td>
                          <span className={`delivery delivery-${d.status.toLowerCase()}`}>
                            {d.status.toLowerCase()}
                          </span>
                          {d.nextAttemptAt && d.status === 'PENDING' && (
                            <span className="muted"> · retry {formatDateTime(d.nextAttemptAt)}</span>
                          )}
                        </td>
                        <td className="num">{d.attempts}</td>
                        <td className="break">
                          {d.lastStatus != null && <>HTTP {d.lastStatus} </>}
                          {d.lastError ? visibleText(d.lastError) : d.deliveredAt ? 'delivered' : '—'}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
        ))
      )}
    </div>
  );
}
