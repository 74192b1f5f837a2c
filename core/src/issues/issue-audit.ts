import type { EntityManager } from 'typeorm';
import type { Caller } from '../access';
import { auditSourceOf, recordAudit } from '../audit/record-audit';
import type { AuditAction } from '../audit/audit-actions';
import { queryRows } from '../db/query-rows';

/**
 * Records an audit row for a change to one issue, read before the change (a deleted issue's
 * title and organization are gone after it). Call inside the change's transaction.
 */
export async function readIssueForAudit(
  em: EntityManager,
  issueId: string,
): Promise<{ organizationId: string; projectId: string; title: string } | null> {
  const rows = await queryRows<{ organization_id: string; project_id: string; title: string }>(
    em,
    'SELECT p.organization_id, i.project_id, i.title FROM issues i JOIN projects p ON p.id = i.project_id WHERE i.id = $1',
    [issueId],
  );
  const row = rows[0];
  return row ? { organizationId: row.organization_id, projectId: row.project_id, title: row.title } : null;
}

export async function recordIssueAudit(
  em: EntityManager,
  caller: Caller,
  issueId: string,
  issue: { organizationId: string; projectId: string; title: string },
  action: Extract<AuditAction, `issue.${string}`>,
  changes: { before?: Record<string, unknown>; after?: Record<string, unknown> },
): Promise<void> {
  await recordAudit(em, {
    organizationId: issue.organizationId,
    ...auditSourceOf(caller),
    action,
    target: { type: 'issue', id: issueId, label: issue.title },
    changes: { ...changes, after: { projectId: issue.projectId, ...changes.after } },
  });
}
