export { periodEnd, quotaPeriod, secondsUntilPeriodEnd } from './period';
export {
  findOrganizationEventLimit,
  findOrganizationLimits,
  findOrganizationUsage,
  releaseOrganizationUsage,
  reserveOrganizationUsage,
  usageRedisKey,
} from './usage';
export {
  createDatabaseUsageReader,
  createRedisUsageReader,
  type UsageCounts,
  type UsageReader,
  type UsageRedisCommands,
} from './usage-reader';
export { meterUsage, readOrganizationUsage, type MeterUsage, type OrganizationUsage } from './organization-usage';
export {
  claimDueUsageWarnings,
  crossedThresholds,
  markUsageWarningFailed,
  markUsageWarningSent,
  queueUsageWarnings,
  USAGE_WARNING_THRESHOLDS,
  type DueUsageWarning,
  type QueuedUsageWarning,
  type UsageWarningThreshold,
} from './usage-warnings';
export { billingPageLink, renderUsageWarningEmail, type UsageWarningEmail } from './usage-warning-email';
export { readMemberUsage } from './read-member-usage';
export {
  createDatabaseUsageGiveBack,
  createRedisUsageGiveBack,
  type UsageGiveBack,
  type UsageGiveBackRedis,
} from './usage-give-back';
