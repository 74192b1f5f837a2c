import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { FormError } from '../components/field';
import { MUTE_DURATIONS } from '../features/alerts/mute-durations';
import { kindLabel } from '../features/alerts/rule-fields';
import { readMuteUntil } from '../features/alerts/rule-settings.server';
import { graphql } from '../graphql';
import { readString } from '../lib/form.server';
import { formatDateTime } from '../lib/format';
import { mutateApi, queryApi } from '../lib/graphql.server';
import { issuePath, projectPath } from '../lib/paths';
import { visibleText } from '../lib/visible-text';

/**
 * The page an alert's `links.muteRule` / `links.muteIssue` open (docs/alerts.md): it says what
 * would be muted and mutes only when the user confirms (a link in a chat message is followed by
 * link previews and mail scanners; a GET must never change anything).
 */
const MUTE_PAGE_QUERY = graphql(`
  query AlertMutePage($projectId: ID!, $issueId: ID!, $withIssue: Boolean!) {
    alertRules(projectId: $projectId) {
      id
      kind
      mutedUntil
      channel {
        type
      }
    }
    issue(id: $issueId) @include(if: $withIssue) {
      id
      projectId
      title
      alertsMutedUntil
    }
  }
`);
const MUTE_RULE = graphql(`
  mutation MuteAlertRuleFromLink($id: ID!, $until: String) {
    muteAlertRule(id: $id, until: $until) {
      id
    }
  }
`);
const MUTE_ISSUE = graphql(`
  mutation MuteIssueAlerts($issueId: ID!, $until: String) {
    muteIssueAlerts(issueId: $issueId, until: $until) {
      id
    }
  }
`);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const meta: MetaFunction = () => [{ title: 'Mute alerts · Tracker' }];

export async function loader(args: LoaderFunctionArgs) {
  const projectId = args.params.projectId ?? '';
  const params = new URL(args.request.url).searchParams;
  const ruleId = params.get('rule') ?? '';
  const issueId = params.get('issue') ?? '';
  const withIssue = UUID.test(issueId);
  const result = await queryApi(args, MUTE_PAGE_QUERY, {
    projectId,
    issueId: withIssue ? issueId : '00000000-0000-0000-0000-000000000000',
    withIssue,
  });
  const rule = result.alertRules.find((r) => r.id === ruleId) ?? null;
  const issue = withIssue && result.issue && result.issue.projectId === projectId ? result.issue : null;
  if (!rule && !issue) throw data('This alert rule or issue does not exist (any more).', { status: 404 });
  return { projectId, rule, issue, now: new Date().toISOString() };
}

export async function action(args: ActionFunctionArgs) {
  const projectId = args.params.projectId ?? '';
  const form = await args.request.formData();
  const intent = readString(form, 'intent');
  const id = readString(form, 'id');
  if (intent === 'unmute-issue') {
    const result = await mutateApi(args, MUTE_ISSUE, { issueId: id, until: null });
    if (!result.ok) return data({ error: result.error.message }, { status: 400 });
    return redirect(issuePath(projectId, id));
  }
  const until = readMuteUntil(form);
  if (!until) return data({ error: 'Choose how long to mute.' }, { status: 400 });
  if (intent === 'mute-rule') {
    const result = await mutateApi(args, MUTE_RULE, { id, until });
    if (!result.ok) return data({ error: result.error.message }, { status: 400 });
    return redirect(projectPath(projectId, 'alerts'));
  }
  if (intent === 'mute-issue') {
    const result = await mutateApi(args, MUTE_ISSUE, { issueId: id, until });
    if (!result.ok) return data({ error: result.error.message }, { status: 400 });
    return redirect(issuePath(projectId, id));
  }
  return data({ error: 'Unknown action.' }, { status: 400 });
}

function DurationSelect({ id }: { id: string }) {
  return (
    <div className="field">
      <label htmlFor={id}>For</label>
      <select id={id} name="duration" defaultValue="24h">
        {MUTE_DURATIONS.map((d) => (
          <option key={d.value} value={d.value}>
            {d.label}
          </option>
        ))}
      </select>
    </div>
  );
}

export default function MuteAlertsPage() {
  const { projectId, rule, issue, now } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const mutedIssue = issue?.alertsMutedUntil && Date.parse(issue.alertsMutedUntil) > Date.parse(now);
  return (
    <div className="stack">
      <section className="card" aria-labelledby="mute-heading">
        <h2 id="mute-heading">Mute alerts</h2>
        <FormError message={actionData?.error} />
        {issue && (
          <Form method="post" className="form form-inline" aria-label="Mute this issue's alerts">
            <input type="hidden" name="intent" value="mute-issue" />
            <input type="hidden" name="id" value={issue.id} />
            <p>
              No alert rule of this project fires for <strong>{visibleText(issue.title)}</strong>
              {mutedIssue && <> (muted until {formatDateTime(issue.alertsMutedUntil!)})</>}.
            </p>
            <DurationSelect id="mute-issue-duration" />
            <button type="submit" className="button button-primary" disabled={busy}>
              Mute this issue&apos;s alerts
            </button>
          </Form>
        )}
        {issue && mutedIssue && (
          <Form method="post" aria-label="End this issue's alert mute">
            <input type="hidden" name="intent" value="unmute-issue" />
            <input type="hidden" name="id" value={issue.id} />
            <button type="submit" className="button" disabled={busy}>
              Alert again now
            </button>
          </Form>
        )}
        {rule && (
          <Form method="post" className="form form-inline" aria-label="Mute the rule">
            <input type="hidden" name="intent" value="mute-rule" />
            <input type="hidden" name="id" value={rule.id} />
            <p>
              The rule <strong>{kindLabel(rule.kind)}</strong> → {rule.channel.type.toLowerCase()} fires nothing
              {rule.mutedUntil && Date.parse(rule.mutedUntil) > Date.parse(now) && (
                <> (muted until {formatDateTime(rule.mutedUntil)})</>
              )}
              .
            </p>
            <DurationSelect id="mute-rule-duration" />
            <button type="submit" className="button" disabled={busy}>
              Mute the rule
            </button>
          </Form>
        )}
        <p className="hint">
          Events are still counted while muted; the first alert after says how many came in.{' '}
          <Link to={projectPath(projectId, 'alerts')}>All alert rules</Link>
        </p>
      </section>
    </div>
  );
}
