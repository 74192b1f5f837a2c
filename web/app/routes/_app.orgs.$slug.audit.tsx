import { data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { CursorPager } from '../components/cursor-pager';
import { ErrorMessage } from '../components/error-message';
import { AuditFilters } from '../features/audit/audit-filters';
import { auditFilterOf, auditSearch, readAuditParams } from '../features/audit/audit-params';
import { AuditTable } from '../features/audit/audit-table';
import { requireOrganization } from '../features/audit/organization.server';
import { AUDIT_LOG_QUERY } from '../features/audit/queries';
import { formatDateTime } from '../lib/format';
import { tryQueryApi } from '../lib/graphql.server';

const PAGE_SIZE = 50;

export const meta: MetaFunction = () => [{ title: 'Audit log · Tracker' }];

export async function loader(args: LoaderFunctionArgs) {
  const organization = await requireOrganization(args);
  const params = readAuditParams(new URL(args.request.url));
  const result = await tryQueryApi(args, AUDIT_LOG_QUERY, {
    organizationId: organization.id,
    first: PAGE_SIZE,
    after: params.after,
    filter: auditFilterOf(params),
  });
  if (!result.ok && result.error.code !== 'FORBIDDEN') {
    throw data({ message: result.error.message }, { status: result.error.code === 'BAD_USER_INPUT' ? 400 : 502 });
  }
  return {
    organization,
    params,
    entries: result.ok ? result.data.auditLog.nodes : [],
    endCursor: result.ok && result.data.auditLog.pageInfo.hasNextPage ? result.data.auditLog.pageInfo.endCursor : null,
    forbidden: !result.ok,
  };
}

export default function AuditLogPage() {
  const { organization, params, entries, endCursor, forbidden } = useLoaderData<typeof loader>();
  const filtered = Boolean(params.actor || params.action || params.since);
  const base = `/orgs/${encodeURIComponent(organization.slug)}/audit`;
  return (
    <div className="stack">
      <header className="page-header">
        <h1>Audit log</h1>
        <p className="muted">
          Who changed what in {organization.name}: sign-ins, members, tokens and keys, projects, privacy, alert
          channels, plan and issues. Kept for one year.
        </p>
      </header>
      {forbidden ? (
        <p className="notice" role="status">
          Only owners of {organization.name} can see its audit log.
        </p>
      ) : (
        <>
          <AuditFilters params={params} filtered={filtered} />
          <p>
            <a className="button" href={`${base}.csv${auditSearch(params)}`} download>
              Export CSV
            </a>{' '}
            <span className="muted">(every entry matching the filters)</span>
          </p>
          <AuditTable entries={entries} time={(iso) => <time dateTime={iso}>{formatDateTime(iso)}</time>} />
          <CursorPager
            newestPath={params.after ? `${base}${auditSearch(params)}` : null}
            olderPath={endCursor ? `${base}${auditSearch(params, endCursor)}` : null}
          />
        </>
      )}
      <p>
        <Link to="/">Back to the dashboard</Link>
      </p>
    </div>
  );
}

export function ErrorBoundary() {
  return <ErrorMessage />;
}
