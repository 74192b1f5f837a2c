export { createUserWithPassword } from './create-user';
export { rotateProjectKey } from './rotate-key';
export { PLAN_IDS, setOrganizationPlan } from './set-plan';
