import { Form } from '@remix-run/react';

/** The settings a monitor's edit form shows, as `monitors(projectId)` returns them. */
export interface EditableMonitor {
  id: string;
  kind: string;
  slug: string;
  name: string;
  crontab?: string | null;
  timezone: string;
  intervalMinutes?: number | null;
  checkinMarginMinutes: number;
  maxRuntimeMinutes: number;
  failureTolerance: number;
  recoveryThreshold: number;
  url?: string | null;
  timeoutSeconds?: number | null;
}

function NumberField({ label, name, value }: { label: string; name: string; value: number | null | undefined }) {
  return (
    <label>
      {label}
      <input name={name} inputMode="numeric" pattern="\d+" defaultValue={value ?? ''} />
    </label>
  );
}

/**
 * A monitor's settings in a fold under its row: the fields of `updateMonitor`, filled with
 * today's values. The slug is not editable here: check-ins and crontab lines name it.
 */
export function MonitorSettings({ monitor: m, busy }: { monitor: EditableMonitor; busy: boolean }) {
  const uptime = m.kind === 'UPTIME';
  return (
    <details className="monitor-settings">
      <summary>
        Edit settings <span className="visually-hidden">of {m.slug}</span>
      </summary>
      <Form method="post" className="stacked-form">
        <input type="hidden" name="intent" value="update" />
        <input type="hidden" name="id" value={m.id} />
        <input type="hidden" name="kind" value={m.kind} />
        <label>
          Name
          <input name="name" defaultValue={m.name} maxLength={200} />
        </label>
        {uptime ? (
          <>
            <label>
              URL
              <input name="url" type="url" defaultValue={m.url ?? ''} required />
            </label>
            <NumberField label="Check every (minutes, 1–60)" name="schedule" value={m.intervalMinutes} />
            <NumberField label="Timeout (seconds)" name="timeout" value={m.timeoutSeconds} />
          </>
        ) : (
          <>
            <label>
              Crontab or minutes
              <input name="schedule" defaultValue={m.crontab ?? m.intervalMinutes ?? ''} required />
            </label>
            <label>
              Time zone
              <input name="timezone" defaultValue={m.timezone} />
            </label>
            <NumberField label="Margin (minutes late before missed)" name="margin" value={m.checkinMarginMinutes} />
            <NumberField label="Maximum runtime (minutes)" name="maxRuntime" value={m.maxRuntimeMinutes} />
          </>
        )}
        <NumberField label="Failures before an issue opens" name="failureTolerance" value={m.failureTolerance} />
        <NumberField label="Successes before it resolves" name="recoveryThreshold" value={m.recoveryThreshold} />
        <button type="submit" disabled={busy}>
          Save <span className="visually-hidden">{m.slug}</span>
        </button>
      </Form>
    </details>
  );
}
