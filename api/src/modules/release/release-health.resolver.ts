import { AppError, planOf, releaseHealthPlanNames } from '@tracker/core';
import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { Context } from '../../context';
import { ReleaseHealthType } from './release-health.type';
import { HealthBasisEnum } from './release-sessions.type';
import { ReleaseType } from './release.type';

@Resolver(() => ReleaseType)
export class ReleaseHealthResolver {
  @FieldResolver(() => ReleaseHealthType, {
    nullable: true,
    description: 'Pro and Business: PLAN_REQUIRED on Free. Batched for a list of releases.',
  })
  async health(@Root() release: ReleaseType, @Ctx() ctx: Context): Promise<ReleaseHealthType | null> {
    // Whoever resolved the release could see its project; the plan is the organization's now.
    const plan = await ctx.loaders.planByProject.load(release.projectId);
    if (!plan || !planOf(plan).releaseHealth) {
      throw new AppError(
        'PLAN_REQUIRED',
        `release health is not included in the ${plan ? planOf(plan).name : 'current'} plan: upgrade to ${releaseHealthPlanNames()}`,
      );
    }
    const health = await ctx.loaders.releaseHealth.load(release.id);
    if (!health) return null;
    const previous = health.previousReleaseId ? await ctx.loaders.releaseHealth.load(health.previousReleaseId) : null;
    const previousRelease = health.previousReleaseId
      ? await ctx.loaders.releaseById.load(health.previousReleaseId)
      : null;
    const prevRate = previous?.eventsPerHour ?? null;
    return {
      issuesIntroduced: health.issuesIntroduced,
      regressions: health.regressions,
      basis: health.basis === 'sessions' ? HealthBasisEnum.SESSIONS : HealthBasisEnum.EVENTS,
      sessions: health.sessions,
      crashFreeSessions: health.crashFreeSessions,
      usersSeen: health.usersSeen,
      crashedUsers: health.crashedUsers,
      crashFreeUsers: health.crashFreeUsers,
      windowStart: health.windowStart.toISOString(),
      windowEnd: health.windowEnd.toISOString(),
      windowEvents: health.windowEvents,
      enoughData: health.enoughData,
      eventsPerHour: health.eventsPerHour,
      previousReleaseId: health.previousReleaseId,
      previousVersion: previousRelease?.version ?? null,
      // The previous deploy's figures come from the statement that computed this one's (the
      // loader primes them), so comparing every metric costs no extra query.
      previousIssuesIntroduced: previous?.issuesIntroduced ?? null,
      previousRegressions: previous?.regressions ?? null,
      previousCrashFreeUsers: previous?.crashFreeUsers ?? null,
      previousCrashFreeSessions: previous?.crashFreeSessions ?? null,
      previousEventsPerHour: prevRate,
      eventsPerHourRatio:
        health.eventsPerHour !== null && prevRate !== null && prevRate > 0 ? health.eventsPerHour / prevRate : null,
    };
  }
}
