export { periodEnd, quotaPeriod, secondsUntilPeriodEnd } from './period';
export { consumeOrganizationUsage, findOrganizationEventLimit, findOrganizationUsage } from './usage';
