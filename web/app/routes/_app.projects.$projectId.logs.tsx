import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useLoaderData } from '@remix-run/react';
import { CursorPager } from '../components/cursor-pager';
import { LiveTail } from '../components/live-tail';
import { RelativeTime } from '../components/time';
import { readFilter, withParams } from '../lib/filters';
import { queryApi } from '../lib/graphql.server';
import { visibleText } from '../lib/visible-text';
import { graphql } from '../graphql';
import type { LogLevel } from '../graphql/graphql';

export const meta: MetaFunction = () => [{ title: 'Logs · Tracker' }];

const LOGS_PAGE_SIZE = 50;
const LEVELS = ['debug', 'info', 'warn', 'error'] as const;

const LOGS_QUERY = graphql(`
  query ProjectLogs($projectId: ID!, $filter: LogFilter!, $first: Int!, $after: String) {
    logs(projectId: $projectId, filter: $filter, first: $first, after: $after) {
      pageInfo {
        hasNextPage
        endCursor
      }
      nodes {
        id
        level
        message
        context
        tags
        environment
        release
        timestamp
      }
    }
  }
`);

export async function loader(args: LoaderFunctionArgs) {
  const url = new URL(args.request.url);
  const levels = LEVELS.filter((l) => url.searchParams.getAll('level').includes(l));
  const text = readFilter(url, 'q');
  const environment = readFilter(url, 'environment');
  const release = readFilter(url, 'release');
  const service = readFilter(url, 'service');
  const attributeText = url.searchParams.getAll('attr').filter((a) => a.trim() !== '');
  const attributes = attributeText.map(parseAttribute);
  const badAttribute = attributeText.find((_, i) => attributes[i] === null) ?? null;
  const after = url.searchParams.get('after') || null;
  // Live tail only follows the newest page: an older page does not change.
  const live = url.searchParams.get('live') === '1' && !after;
  const { logs } = await queryApi(args, LOGS_QUERY, {
    projectId: args.params.projectId ?? '',
    filter: {
      levels: levels.length ? levels.map((l) => l.toUpperCase() as LogLevel) : null,
      text,
      environment,
      release,
      service,
      attributes: badAttribute || attributes.length === 0 ? null : attributes.filter((a) => a !== null),
    },
    first: LOGS_PAGE_SIZE,
    after,
  });
  return {
    levels,
    text,
    environment,
    release,
    service,
    attributeText,
    badAttribute,
    after,
    live,
    logs,
    olderPath:
      logs.pageInfo.hasNextPage && logs.pageInfo.endCursor
        ? withParams(url, { after: logs.pageInfo.endCursor, live: null })
        : null,
    newestPath: after ? withParams(url, { after: null }) : null,
    livePath: withParams(url, { after: null, live: live ? null : '1' }),
    now: new Date().toISOString(),
  };
}

/**
 * `key=value` (the first `=` splits; the value may be empty or hold more `=`), as typed in the
 * Attribute box or repeated as `attr` in the URL; null when there is no `=` or no key.
 */
function parseAttribute(text: string): { key: string; value: string } | null {
  const at = text.indexOf('=');
  if (at <= 0) return null;
  const key = text.slice(0, at).trim();
  return key ? { key, value: text.slice(at + 1).trim() } : null;
}

/** Context and tags are JSON from the SDK: shown as text, pretty-printed. */
function JsonText({ value }: { value: unknown }) {
  return (
    <pre className="log-json" tabIndex={0}>
      {visibleText(JSON.stringify(value, null, 2))}
    </pre>
  );
}

export default function LogsPage() {
  const {
    levels,
    text,
    environment,
    release,
    service,
    attributeText,
    badAttribute,
    after,
    live,
    logs,
    olderPath,
    newestPath,
    livePath,
    now,
  } = useLoaderData<typeof loader>();
  const filtered = Boolean(levels.length || text || environment || release || service || attributeText.length);
  return (
    <div className="stack">
      <LiveTail on={live} />
      <Form method="get" className="card form form-inline filters log-filters" aria-label="Search logs">
        <div className="field">
          <label htmlFor="q">Message contains</label>
          <input id="q" name="q" type="search" defaultValue={text ?? ''} maxLength={200} />
        </div>
        <fieldset className="field level-filter">
          <legend>Levels</legend>
          {LEVELS.map((l) => (
            <label key={l}>
              <input type="checkbox" name="level" value={l} defaultChecked={levels.includes(l)} /> {l}
            </label>
          ))}
        </fieldset>
        <div className="field">
          <label htmlFor="environment">Environment</label>
          <input id="environment" name="environment" defaultValue={environment ?? ''} placeholder="All" />
        </div>
        <div className="field">
          <label htmlFor="release">Release</label>
          <input id="release" name="release" defaultValue={release ?? ''} placeholder="All" />
        </div>
        <div className="field">
          <label htmlFor="service">Service</label>
          <input id="service" name="service" defaultValue={service ?? ''} placeholder="All" />
        </div>
        <div className="field">
          <label htmlFor="attr">Attribute</label>
          <input
            id="attr"
            name="attr"
            defaultValue={attributeText[0] ?? ''}
            placeholder="http.route=/checkout"
            maxLength={401}
            aria-describedby={badAttribute ? 'attr-error' : undefined}
            aria-invalid={badAttribute ? true : undefined}
          />
          {attributeText.slice(1).map((a) => (
            <input key={a} type="hidden" name="attr" value={a} />
          ))}
        </div>
        {live && <input type="hidden" name="live" value="1" />}
        <button type="submit" className="button">
          Search
        </button>
      </Form>

      {badAttribute && (
        <p className="form-error" id="attr-error" role="alert">
          “{visibleText(badAttribute)}” is not an attribute filter: write it as <code>key=value</code>.
        </p>
      )}
      <section className="card" aria-labelledby="logs-heading">
        <div className="section-head">
          <h2 id="logs-heading">{after ? 'Older logs' : 'Newest logs'}</h2>
          <Link
            to={livePath}
            className={`button button-small live-toggle${live ? ' is-live' : ''}`}
            preventScrollReset
            replace
          >
            {live ? 'Live: on' : 'Live: off'}
          </Link>
        </div>
        {live && (
          <p className="hint" role="status">
            Following new logs; refreshed every few seconds.
          </p>
        )}
        {logs.nodes.length === 0 ? (
          <p className="empty">
            {filtered || after
              ? 'No logs match these filters.'
              : 'No logs yet. Send them with the SDK logger, e.g. Tracker.logger.info("checkout opened").'}
          </p>
        ) : (
          <ol className="log-list">
            {logs.nodes.map((log) => (
              <li key={log.id} className={`log log-${log.level.toLowerCase()}`}>
                <div className="log-head">
                  <span className={`level level-${log.level.toLowerCase()}`}>{log.level.toLowerCase()}</span>
                  <RelativeTime iso={log.timestamp} now={now} />
                  <span className="muted">{visibleText(log.environment)}</span>
                  {log.release && <span className="muted">{visibleText(log.release)}</span>}
                  {typeof log.tags.service === 'string' && (
                    <span className="muted log-service">{visibleText(log.tags.service)}</span>
                  )}
                </div>
                <p className="log-message">{visibleText(log.message)}</p>
                {(log.context || Object.keys(log.tags).length > 0) && (
                  <details>
                    <summary>Context and tags</summary>
                    {log.context && <JsonText value={log.context} />}
                    {Object.keys(log.tags).length > 0 && <JsonText value={log.tags} />}
                  </details>
                )}
              </li>
            ))}
          </ol>
        )}
        <CursorPager newestPath={newestPath} olderPath={olderPath} />
      </section>
    </div>
  );
}
