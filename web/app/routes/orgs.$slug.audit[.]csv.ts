import type { LoaderFunctionArgs } from '@remix-run/node';
import { csvHeader, csvRow, MAX_CSV_ROWS } from '../features/audit/audit-csv.server';
import { auditFilterOf, readAuditParams } from '../features/audit/audit-params';
import { AUDIT_LOG_QUERY } from '../features/audit/queries';
import type { AuditLogQuery } from '../graphql/graphql';
import { queryApi } from '../lib/graphql.server';
import { requireOrganization } from '../features/audit/organization.server';

/**
 * `/orgs/<slug>/audit.csv`: every entry matching the page's filters as CSV, newest first, read
 * through the API 200 at a time (owners only: the API's FORBIDDEN becomes a 403 here).
 */
export async function loader(args: LoaderFunctionArgs) {
  const organization = await requireOrganization(args);
  const params = readAuditParams(new URL(args.request.url));
  const lines = [csvHeader()];
  let after: string | null = null;
  while (lines.length - 1 < MAX_CSV_ROWS) {
    const { auditLog }: AuditLogQuery = await queryApi(args, AUDIT_LOG_QUERY, {
      organizationId: organization.id,
      first: 200,
      after,
      filter: auditFilterOf(params),
    });
    lines.push(...auditLog.nodes.map(csvRow));
    if (!auditLog.pageInfo.hasNextPage || !auditLog.pageInfo.endCursor) break;
    after = auditLog.pageInfo.endCursor;
  }
  const name = `audit-${organization.slug}-${new Date().toISOString().slice(0, 10)}.csv`;
  return new Response(`${lines.join('\r\n')}\r\n`, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${name.replace(/[^A-Za-z0-9._-]/g, '_')}"`,
      'Cache-Control': 'private, no-store',
    },
  });
}
