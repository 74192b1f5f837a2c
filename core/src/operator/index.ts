export { createUserWithPassword } from './create-user';
export { rotateProjectKey } from './rotate-key';
export { setOrganizationPlan } from './set-plan';
