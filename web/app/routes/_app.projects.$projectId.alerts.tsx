import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { ConfirmButton } from '../components/confirm-button';
import { FormError } from '../components/field';
import { DeliveryLog, FailingWarning, TestResult, type Delivery } from '../features/alerts/delivery-log';
import { readString } from '../lib/form.server';
import { formatDateTime } from '../lib/format';
import { mutateApi, queryApi } from '../lib/graphql.server';
import { visibleText } from '../lib/visible-text';
import type { AlertChannelType, AlertKind } from '../graphql/graphql';
import { describeRule, kindLabel, RuleFields } from '../features/alerts/rule-fields';
import { RuleControls, type Rule } from '../features/alerts/rule-controls';
import {
  ALERT_RULES_QUERY,
  CREATE_RULE,
  DELETE_RULE,
  MUTE_RULE,
  TEST_RULE,
  UPDATE_RULE,
  UPDATE_RULE_SETTINGS,
} from '../features/alerts/queries';
import { readMuteUntil, readRuleSettings, RuleFormError } from '../features/alerts/rule-settings.server';

const DELIVERIES_SHOWN = 10;

export const meta: MetaFunction = () => [{ title: 'Alerts · Tracker' }];

export async function loader(args: LoaderFunctionArgs) {
  const { alertRules, alertChannels } = await queryApi(args, ALERT_RULES_QUERY, {
    projectId: args.params.projectId ?? '',
    deliveries: DELIVERIES_SHOWN,
  });
  return { rules: alertRules, channels: alertChannels, now: new Date().toISOString() };
}

export async function action(args: ActionFunctionArgs) {
  const form = await args.request.formData();
  const intent = readString(form, 'intent');
  const id = readString(form, 'id');
  let result;
  // Enums are not checked here: the API coerces the variables and rejects other values.
  const kind = readString(form, 'kind') as AlertKind;
  let settings;
  if (intent === 'create' || intent === 'edit') {
    try {
      settings = readRuleSettings(form, kind);
    } catch (err) {
      if (err instanceof RuleFormError) return data({ error: err.message, ruleId: id || null }, { status: 400 });
      throw err;
    }
  }
  if (intent === 'create') {
    const type = readString(form, 'channelType') as AlertChannelType;
    const target = readString(form, 'target');
    const channel = type === 'EMAIL' ? { type, email: target } : { type, url: target };
    result = await mutateApi(args, CREATE_RULE, {
      projectId: args.params.projectId ?? '',
      kind,
      channel,
      ...settings!,
    });
  } else if (intent === 'edit') {
    result = await mutateApi(args, UPDATE_RULE_SETTINGS, { id, kind, ...settings! });
  } else if (intent === 'mute') {
    const until = readMuteUntil(form);
    if (!until) return data({ error: 'Choose how long to mute the rule.', ruleId: id }, { status: 400 });
    result = await mutateApi(args, MUTE_RULE, { id, until });
  } else if (intent === 'unmute') {
    result = await mutateApi(args, MUTE_RULE, { id, until: null });
  } else if (intent === 'enable' || intent === 'disable') {
    result = await mutateApi(args, UPDATE_RULE, { id, enabled: intent === 'enable' });
  } else if (intent === 'delete') {
    result = await mutateApi(args, DELETE_RULE, { id });
  } else if (intent === 'test') {
    // The answer is shown under the rule; it is in the delivery log too.
    const sent = await mutateApi(args, TEST_RULE, { id });
    if (!sent.ok) return data({ error: sent.error.message, testedRuleId: id }, { status: 400 });
    return { error: null, testedRuleId: id, tested: sent.data.testAlertRule };
  } else {
    return data({ error: 'Unknown action.', ruleId: null }, { status: 400 });
  }
  if (!result.ok)
    return data(
      { error: result.error.message, ruleId: intent === 'create' ? null : id },
      { status: result.error.code === 'FORBIDDEN' ? 403 : 400 },
    );
  return { error: null, ruleId: null };
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
  const { rules, channels, now } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as
    { error: string | null; ruleId?: string | null; testedRuleId?: string; tested?: Delivery } | undefined;
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting';
  const testing = busy && navigation.formData?.get('intent') === 'test' ? navigation.formData.get('id') : null;
  const available = channels.filter((c) => c.available);
  const unavailable = channels.filter((c) => !c.available);
  return (
    <div className="stack">
      <section className="card" aria-labelledby="new-rule-heading">
        <h2 id="new-rule-heading">New alert rule</h2>
        {/* Keyed by the rule count: a rule added empties the form for the next one. */}
        <Form method="post" className="form form-inline" key={rules.length}>
          <input type="hidden" name="intent" value="create" />
          <RuleFields prefix="new-rule" />
          <div className="field">
            <label htmlFor="rule-channel">Send to</label>
            <select id="rule-channel" name="channelType" required>
              {available.map((c) => (
                <option key={c.type} value={c.type}>
                  {c.name}
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
        <ul className="hint channel-help">
          {available.map((c) => (
            <li key={c.type}>
              <strong>{`${c.name}:`}</strong> {c.help}
            </li>
          ))}
          {unavailable.map((c) => (
            <li key={c.type}>
              <strong>{`${c.name}:`}</strong> {c.unavailableReason}
            </li>
          ))}
        </ul>
        <FormError message={actionData?.ruleId || actionData?.testedRuleId ? null : actionData?.error} />
      </section>

      {rules.length === 0 ? (
        <p className="empty">No alert rules yet. Add one to hear about new issues and regressions.</p>
      ) : (
        rules.map((rule) => (
          <section key={rule.id} className="card" aria-label={`Alert rule ${kindLabel(rule.kind)}`}>
            <div className="section-head">
              <h3>
                {kindLabel(rule.kind)} → {rule.channel.type.toLowerCase()}{' '}
                {!rule.enabled && <span className="tag">disabled</span>}
                {rule.mutedUntil && Date.parse(rule.mutedUntil) > Date.parse(now) && (
                  <span className="tag">muted until {formatDateTime(rule.mutedUntil)}</span>
                )}
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
                    <button
                      type="submit"
                      name="intent"
                      value="test"
                      className="button button-small"
                      disabled={busy}
                      aria-label={`Send test notification to ${rule.channel.type.toLowerCase()} ${channelTarget(rule.channel)}`}
                    >
                      {testing === rule.id ? 'Sending…' : 'Send test notification'}
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
            <p className="muted">{visibleText(describeRule(rule))}</p>
            {actionData?.ruleId === rule.id && <FormError message={actionData.error} />}
            {!rule.masked && <RuleControls rule={rule} now={now} busy={busy} />}
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
            {rule.failing && <FailingWarning recentFailures={rule.recentFailures} />}
            {actionData?.testedRuleId === rule.id &&
              (actionData.tested ? (
                <TestResult delivery={actionData.tested} channelType={rule.channel.type} />
              ) : (
                <FormError message={actionData.error} />
              ))}
            <h4>Delivery log</h4>
            <DeliveryLog deliveries={rule.deliveries} channelType={rule.channel.type} now={now} />
          </section>
        ))
      )}
    </div>
  );
}
