// What each plan includes, as DESIGN §6 states it. The API stays the judge (markRelease answers
// PLAN_REQUIRED); the dashboard uses this only to explain up front instead of offering a form
// that would be refused. TODO(issue 7): read it from the API once the plan catalogue is exposed.
const PLANS_WITH_RELEASE_HEALTH = new Set(['pro', 'business']);

export function hasReleaseHealth(plan: string): boolean {
  return PLANS_WITH_RELEASE_HEALTH.has(plan);
}

export function planName(plan: string): string {
  return plan ? plan[0].toUpperCase() + plan.slice(1) : plan;
}
