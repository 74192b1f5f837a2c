import { useState } from 'react';

export const KINDS = [
  ['NEW_ISSUE', 'A new issue appears'],
  ['REGRESSED_ISSUE', 'A resolved issue comes back (regression)'],
  ['ISSUE_FREQUENCY', 'An issue is seen more than N times in M minutes'],
  ['USERS_AFFECTED', 'More than N users hit an issue in M minutes'],
  ['NEW_RELEASE_ISSUE', 'An existing issue appears in a new release'],
  ['ERROR_SPIKE', 'Project errors exceed N per minute'],
  ['LOG_MATCH', 'An error log matches a text'],
  ['MONITOR_FAILED', 'A cron or uptime monitor fails'],
] as const;

export type Kind = (typeof KINDS)[number][0];

export function kindLabel(kind: string): string {
  return KINDS.find(([k]) => k === kind)?.[1] ?? kind;
}

const COUNTING: readonly string[] = ['ISSUE_FREQUENCY', 'USERS_AFFECTED', 'ERROR_SPIKE'];
const LEVELS = [
  ['', 'any level'],
  ['FATAL', 'fatal'],
  ['ERROR', 'error or worse'],
  ['WARNING', 'warning or worse'],
  ['INFO', 'info or worse'],
] as const;

/** A rule's settings as the page loads them. */
export interface RuleSettings {
  kind: string;
  threshold: number | null;
  windowMinutes: number | null;
  query: string | null;
  actionIntervalMinutes: number;
  digestMinutes: number | null;
  filter: {
    environments: string[] | null;
    minLevel: string | null;
    tags: Array<{ key: string; value: string }> | null;
    release: string | null;
    assigned: boolean | null;
  };
}

/**
 * The kind and settings fields of the rule form (new rule and edit). The fields a kind does not
 * use are hidden once React runs; without it every field shows and the server ignores the ones
 * the kind does not use. `prefix` keeps ids unique when several forms are on the page.
 */
export function RuleFields({ rule, prefix }: { rule?: RuleSettings; prefix: string }) {
  const [kind, setKind] = useState<string>(rule?.kind ?? 'NEW_ISSUE');
  const id = (name: string) => `${prefix}-${name}`;
  const counting = COUNTING.includes(kind);
  const projectWide = kind === 'ERROR_SPIKE' || kind === 'LOG_MATCH';
  const f = rule?.filter;
  return (
    <>
      <div className="field">
        <label htmlFor={id('kind')}>When</label>
        <select id={id('kind')} name="kind" required value={kind} onChange={(e) => setKind(e.target.value)}>
          {KINDS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      {counting && (
        <>
          <div className="field">
            <label htmlFor={id('threshold')}>
              {kind === 'ERROR_SPIKE' ? 'More than (per minute)' : 'More than (N)'}
            </label>
            <input
              id={id('threshold')}
              name="threshold"
              type="number"
              min={kind === 'ERROR_SPIKE' ? 1 : 0}
              required
              defaultValue={rule?.threshold ?? ''}
            />
          </div>
          <div className="field">
            <label htmlFor={id('windowMinutes')}>In (minutes)</label>
            <input
              id={id('windowMinutes')}
              name="windowMinutes"
              type="number"
              min={1}
              max={1440}
              required
              defaultValue={rule?.windowMinutes ?? ''}
            />
          </div>
        </>
      )}
      {kind === 'LOG_MATCH' && (
        <div className="field">
          <label htmlFor={id('query')}>Log message contains</label>
          <input id={id('query')} name="query" type="text" required maxLength={200} defaultValue={rule?.query ?? ''} />
        </div>
      )}
      <fieldset className="rule-conditions">
        <legend>Only when</legend>
        <div className="field">
          <label htmlFor={id('environments')}>Environments</label>
          <input
            id={id('environments')}
            name="environments"
            type="text"
            placeholder="production, eu"
            defaultValue={f?.environments?.join(', ') ?? ''}
          />
        </div>
        <div className="field">
          <label htmlFor={id('minLevel')}>Level</label>
          <select id={id('minLevel')} name="minLevel" defaultValue={f?.minLevel ?? ''}>
            {LEVELS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={id('tags')}>Tags</label>
          <input
            id={id('tags')}
            name="tags"
            type="text"
            placeholder="team:cart, region:eu"
            defaultValue={f?.tags?.map((t) => `${t.key}:${t.value}`).join(', ') ?? ''}
          />
        </div>
        <div className="field">
          <label htmlFor={id('release')}>Release</label>
          <input id={id('release')} name="release" type="text" placeholder="shop@2.*" defaultValue={f?.release ?? ''} />
        </div>
        {!projectWide && (
          <div className="field">
            <label htmlFor={id('assigned')}>Assignee</label>
            <select
              id={id('assigned')}
              name="assigned"
              defaultValue={f?.assigned == null ? '' : f.assigned ? 'yes' : 'no'}
            >
              <option value="">assigned or not</option>
              <option value="yes">assigned to someone</option>
              <option value="no">unassigned</option>
            </select>
          </div>
        )}
      </fieldset>
      <fieldset className="rule-conditions">
        <legend>How often</legend>
        <div className="field">
          <label htmlFor={id('actionIntervalMinutes')}>
            At most once per {projectWide ? 'project' : 'issue'} every (minutes)
          </label>
          <input
            id={id('actionIntervalMinutes')}
            name="actionIntervalMinutes"
            type="number"
            min={0}
            defaultValue={rule?.actionIntervalMinutes ?? 30}
          />
        </div>
        <div className="field">
          <label htmlFor={id('digestMinutes')}>Digest every (minutes, empty: send each)</label>
          <input
            id={id('digestMinutes')}
            name="digestMinutes"
            type="number"
            min={1}
            max={1440}
            defaultValue={rule?.digestMinutes ?? ''}
          />
        </div>
      </fieldset>
    </>
  );
}

/** One line saying what a rule's settings are, for its card. */
export function describeRule(rule: RuleSettings): string {
  const parts: string[] = [];
  if (rule.kind === 'ERROR_SPIKE') parts.push(`over ${rule.threshold}/min over ${rule.windowMinutes} min`);
  else if (rule.kind === 'USERS_AFFECTED') parts.push(`more than ${rule.threshold} users in ${rule.windowMinutes} min`);
  else if (rule.kind === 'ISSUE_FREQUENCY')
    parts.push(`more than ${rule.threshold} events in ${rule.windowMinutes} min`);
  if (rule.query) parts.push(`log contains “${rule.query}”`);
  const f = rule.filter;
  if (f.environments) parts.push(`in ${f.environments.join(', ')}`);
  if (f.minLevel) parts.push(`level ≥ ${f.minLevel.toLowerCase()}`);
  if (f.tags) parts.push(f.tags.map((t) => `${t.key}:${t.value}`).join(' '));
  if (f.release) parts.push(`release ${f.release}`);
  if (f.assigned != null) parts.push(f.assigned ? 'assigned' : 'unassigned');
  parts.push(rule.actionIntervalMinutes > 0 ? `at most every ${rule.actionIntervalMinutes} min` : 'every time');
  if (rule.digestMinutes) parts.push(`digest every ${rule.digestMinutes} min`);
  return parts.join(' · ');
}
