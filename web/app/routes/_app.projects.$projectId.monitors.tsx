import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { data, Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { CheckStrip, ResponseChart } from '../features/monitors/check-strip';
import { readMonitorForm } from '../features/monitors/monitor-form.server';
import { MonitorSettings } from '../features/monitors/monitor-settings';
import { readString } from '../lib/form.server';
import { mutateApi, queryApi } from '../lib/graphql.server';
import { visibleText } from '../lib/visible-text';
import { graphql } from '../graphql';

export const meta: MetaFunction = () => [{ title: 'Monitors · Tracker' }];

const MONITORS_QUERY = graphql(`
  query ProjectMonitors($projectId: ID!) {
    monitors(projectId: $projectId) {
      id
      slug
      name
      kind
      crontab
      timezone
      intervalMinutes
      url
      paused
      status
      checkinMarginMinutes
      maxRuntimeMinutes
      failureTolerance
      recoveryThreshold
      timeoutSeconds
      environments {
        environment
        status
        expectedAt
      }
      checkIns(first: 90) {
        id
        status
        durationMs
        statusCode
        error
        tlsExpiresAt
        createdAt
      }
    }
  }
`);

const CREATE_MONITOR = graphql(`
  mutation CreateMonitorFromPage($projectId: ID!, $kind: MonitorKind!, $input: MonitorInput!) {
    createMonitor(projectId: $projectId, kind: $kind, input: $input) {
      id
    }
  }
`);

const UPDATE_MONITOR = graphql(`
  mutation UpdateMonitorFromPage($id: ID!, $input: MonitorInput!) {
    updateMonitor(id: $id, input: $input) {
      id
    }
  }
`);

const PAUSE_MONITOR = graphql(`
  mutation PauseMonitorFromPage($id: ID!, $paused: Boolean!) {
    pauseMonitor(id: $id, paused: $paused) {
      id
    }
  }
`);

const DELETE_MONITOR = graphql(`
  mutation DeleteMonitorFromPage($id: ID!) {
    deleteMonitor(id: $id)
  }
`);

export async function loader(args: LoaderFunctionArgs) {
  const { monitors } = await queryApi(args, MONITORS_QUERY, { projectId: args.params.projectId ?? '' });
  return { monitors };
}

export async function action(args: ActionFunctionArgs) {
  const form = await args.request.formData();
  const intent = readString(form, 'intent');
  const id = readString(form, 'id');
  let result;
  if (intent === 'create' || intent === 'update') {
    const kind = readString(form, 'kind') === 'UPTIME' ? 'UPTIME' : 'CRON';
    const read = readMonitorForm(form, kind);
    if ('error' in read) return data({ error: read.error, id }, { status: 400 });
    result =
      intent === 'create'
        ? await mutateApi(args, CREATE_MONITOR, { projectId: args.params.projectId ?? '', kind, input: read.input })
        : await mutateApi(args, UPDATE_MONITOR, { id, input: read.input });
  } else if (intent === 'pause' || intent === 'resume') {
    result = await mutateApi(args, PAUSE_MONITOR, { id, paused: intent === 'pause' });
  } else if (intent === 'delete') {
    result = await mutateApi(args, DELETE_MONITOR, { id });
  } else {
    return data({ error: 'Unknown action.' }, { status: 400 });
  }
  if (!result.ok)
    return data({ error: result.error.message, id }, { status: result.error.code === 'FORBIDDEN' ? 403 : 400 });
  return { error: null, id };
}

const STATE_LABEL: Record<string, string> = {
  OK: 'Up',
  FAILING: 'Failing',
  PAUSED: 'Paused',
  PENDING: 'Waiting for the first check-in',
};

const DAY = 86_400_000;

/** The certificate the last check saw, and a warning inside the 14 days (the monitor's warning issue opens then). */
function CertificateLine({ checks }: { checks: { tlsExpiresAt?: string | null; createdAt: string }[] }) {
  const seen = checks.find((c) => c.tlsExpiresAt);
  if (!seen?.tlsExpiresAt) return null;
  const ends = Date.parse(seen.tlsExpiresAt);
  const days = Math.floor((ends - Date.parse(seen.createdAt)) / DAY);
  const soon = days < 14;
  return (
    <p className={soon ? 'certificate-warning' : 'muted'}>
      TLS certificate {days < 0 ? 'ended' : 'ends'} {seen.tlsExpiresAt.slice(0, 10)}
      {soon && days >= 0 ? ` (in ${days === 1 ? '1 day' : `${days} days`})` : ''}
    </p>
  );
}

export default function MonitorsPage() {
  const { monitors } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as { error: string | null; id?: string } | undefined;
  // An edit's error shows under that monitor; a create's (no id) under the new-monitor form.
  const errorFor = (id: string) => (actionData?.error && actionData.id === id ? actionData.error : null);
  const busy = useNavigation().state === 'submitting';
  return (
    <>
      <section className="card" aria-labelledby="monitors-heading">
        <h2 id="monitors-heading">
          Monitors <span className="muted">({monitors.length})</span>
        </h2>
        {monitors.length === 0 ? (
          <p className="empty">
            No monitors yet. Add a cron job or a URL below (docs/monitors.md has the check-in examples).
          </p>
        ) : (
          <ul className="monitor-list">
            {monitors.map((m) => (
              <li key={m.id} className="monitor">
                <div className="monitor-head">
                  <h3>{visibleText(m.name)}</h3>
                  <span className={`monitor-state state-${m.status.toLowerCase()}`}>
                    {STATE_LABEL[m.status] ?? m.status}
                  </span>
                </div>
                <p className="muted">
                  {m.kind === 'UPTIME'
                    ? `${visibleText(m.url ?? '')} · every ${m.intervalMinutes} min`
                    : m.crontab
                      ? `${visibleText(m.crontab)} (${visibleText(m.timezone)})`
                      : `every ${m.intervalMinutes} min`}
                  {' · '}
                  <span className="mono">{visibleText(m.slug)}</span>
                </p>
                <CertificateLine checks={m.checkIns} />
                <CheckStrip checks={m.checkIns} />
                <ResponseChart checks={m.checkIns} label={m.kind === 'UPTIME' ? 'Response time' : 'Run time'} />
                <Form method="post" className="inline-actions">
                  <input type="hidden" name="id" value={m.id} />
                  <button type="submit" name="intent" value={m.paused ? 'resume' : 'pause'} disabled={busy}>
                    {m.paused ? 'Resume' : 'Pause'} <span className="visually-hidden">{m.slug}</span>
                  </button>
                  <button type="submit" name="intent" value="delete" className="danger" disabled={busy}>
                    Delete <span className="visually-hidden">{m.slug}</span>
                  </button>
                </Form>
                {errorFor(m.id) && (
                  <p className="form-error" role="alert">
                    {errorFor(m.id)}
                  </p>
                )}
                <MonitorSettings monitor={m} busy={busy} />
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="card" aria-labelledby="new-monitor-heading">
        <h2 id="new-monitor-heading">New monitor</h2>
        {actionData?.error && !actionData.id && (
          <p className="form-error" role="alert">
            {actionData.error}
          </p>
        )}
        <Form method="post" className="stacked-form">
          <input type="hidden" name="intent" value="create" />
          <label>
            Kind
            <select name="kind" defaultValue="CRON">
              <option value="CRON">Cron job (check-ins)</option>
              <option value="UPTIME">Uptime (URL)</option>
            </select>
          </label>
          <label>
            Slug
            <input name="slug" required pattern="[a-z0-9][a-z0-9_\-]{0,63}" placeholder="nightly-backup" />
          </label>
          <label>
            Crontab or minutes (cron)
            <input name="schedule" placeholder="0 2 * * *" />
          </label>
          <label>
            Time zone (cron)
            <input name="timezone" placeholder="Europe/Berlin" />
          </label>
          <label>
            URL (uptime)
            <input name="url" type="url" placeholder="https://example.com/health" />
          </label>
          <button type="submit" disabled={busy}>
            Create monitor
          </button>
        </Form>
      </section>
    </>
  );
}
