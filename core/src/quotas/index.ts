export { periodEnd, quotaPeriod, secondsUntilPeriodEnd } from './period';
export {
  findOrganizationEventLimit,
  findOrganizationLimits,
  findOrganizationUsage,
  releaseOrganizationUsage,
  reserveOrganizationUsage,
  usageRedisKey,
} from './usage';
