import {
  AppError,
  MAX_VITALS_PAGES,
  resolveVitalsQuery,
  summarizeVitals,
  summarizeVitalsByUrl,
  vitalsSeries,
} from '@tracker/core';
import { Arg, Ctx, ID, Int, Query, Resolver } from 'type-graphql';
import { requireCaller, type Context } from '../../context';
import {
  PageVitalsType,
  toPageVitalsType,
  toVitalsBucketType,
  toVitalsSummaryType,
  VitalsFilterInput,
  VitalsIntervalEnum,
  VitalsSummaryType,
  VitalsTimeSeriesType,
} from './vitals.type';

/**
 * Web Vitals (the Performance page): thin over core/src/vitals, which holds the SQL and checks
 * access (NOT_FOUND for another tenant's project, after the filter is validated).
 */
@Resolver()
export class PerformanceResolver {
  @Query(() => VitalsSummaryType, { description: 'p50/p75/p95 and rating shares of each Web Vital, over all pages.' })
  async vitals(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('filter', () => VitalsFilterInput, { nullable: true }) filter: VitalsFilterInput | null,
    @Ctx() ctx: Context,
  ): Promise<VitalsSummaryType> {
    const q = resolveVitalsQuery(projectId, filter ?? {});
    return toVitalsSummaryType(await summarizeVitals(ctx.ds, requireCaller(ctx), q), q.range);
  }

  @Query(() => [PageVitalsType], { description: 'Per page URL, most page views first. At most 100.' })
  async vitalsByUrl(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('filter', () => VitalsFilterInput, { nullable: true }) filter: VitalsFilterInput | null,
    @Arg('first', () => Int, { defaultValue: 20 }) first: number,
    @Ctx() ctx: Context,
  ): Promise<PageVitalsType[]> {
    const q = resolveVitalsQuery(projectId, filter ?? {});
    if (first < 1 || first > MAX_VITALS_PAGES) {
      throw new AppError('BAD_USER_INPUT', `first: must be between 1 and ${MAX_VITALS_PAGES}`);
    }
    return (await summarizeVitalsByUrl(ctx.ds, requireCaller(ctx), q, first)).map(toPageVitalsType);
  }

  @Query(() => VitalsTimeSeriesType, { description: 'p75 of each metric per hour or day, for charts.' })
  async vitalsTimeSeries(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('filter', () => VitalsFilterInput, { nullable: true }) filter: VitalsFilterInput | null,
    @Arg('interval', () => VitalsIntervalEnum, { defaultValue: VitalsIntervalEnum.HOUR }) interval: VitalsIntervalEnum,
    @Ctx() ctx: Context,
  ): Promise<VitalsTimeSeriesType> {
    const q = resolveVitalsQuery(projectId, filter ?? {});
    const buckets = await vitalsSeries(ctx.ds, requireCaller(ctx), q, interval);
    return {
      interval,
      from: q.range.from.toISOString(),
      to: q.range.to.toISOString(),
      buckets: buckets.map(toVitalsBucketType),
    };
  }
}
