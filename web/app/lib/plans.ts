// The plan catalogue is the API's (`plans`, read from core's plan table): the dashboard keeps no
// copy of what a plan includes, so a limit or feature changed in core shows here unchanged.
// The API stays the judge (markRelease and Release.health answer PLAN_REQUIRED); pages use the
// catalogue to explain up front instead of offering what would be refused.

import type { PlanFieldsFragment } from '../graphql/graphql';

/** A plan as `plans { ...PlanFields }` answers it (app/lib/fragments.server.ts). */
export type PlanInfo = PlanFieldsFragment;

export function findPlan<P extends Pick<PlanInfo, 'id'>>(plans: readonly P[], id: string): P | undefined {
  return plans.find((p) => p.id === id);
}

/** The catalogue's name ("Pro"), or the id itself for a plan the catalogue does not list. */
export function planName(plans: readonly Pick<PlanInfo, 'id' | 'name'>[], id: string): string {
  return findPlan(plans, id)?.name ?? id;
}

/** "Pro and Business": the plans that include release health, in catalogue order. */
export function releaseHealthPlanNames(plans: readonly Pick<PlanInfo, 'name' | 'releaseHealth'>[]): string {
  return joinNames(plans.filter((p) => p.releaseHealth).map((p) => p.name));
}

function joinNames(names: string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}
