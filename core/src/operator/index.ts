export { createUserWithPassword } from './create-user';
export { rotateProjectKey } from './rotate-key';
export { changeOrganizationPlan, setOrganizationPlan, type PlanChange, type PlanChangeInput } from './set-plan';
