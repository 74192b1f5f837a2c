export {
  AUDIT_ACTIONS,
  AUDIT_TARGET_TYPES,
  isAuditAction,
  type AuditAction,
  type AuditTargetType,
} from './audit-actions';
export { MAX_AUDIT_STRING_CHARS, safeChanges, type AuditChanges } from './audit-changes';
export {
  auditSourceOf,
  MAX_AUDIT_USER_AGENT_CHARS,
  recordAudit,
  recordAuditForMemberOrganizations,
  type AuditActor,
  type AuditEntry,
} from './record-audit';
export {
  listAuditLog,
  MAX_AUDIT_PAGE,
  parseAuditCursor,
  type AuditLogEntry,
  type AuditLogFilter,
  type AuditLogPage,
} from './list-audit-log';
export { AUDIT_RETENTION_DAYS, purgeAuditLog } from './purge-audit-log';
