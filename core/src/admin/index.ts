export {
  findOrganizationForAdmin,
  listOrganizationsForAdmin,
  type AdminOrganization,
  type AdminOrganizationPage,
} from './list-organizations';
export {
  listDeadLettersForAdmin,
  purgeDeadLettersForAdmin,
  replayDeadLettersForAdmin,
  type AdminDeadLetter,
} from './dead-letters';
export { readInstanceStatus, type InstanceStatus } from './instance-status';
export { setOrganizationPlanForAdmin } from './set-plan';
