import {
  createMonitor,
  deleteMonitor,
  listCheckIns,
  listMonitorEnvironments,
  listMonitors,
  pauseMonitor,
  updateMonitor,
} from '@tracker/core';
import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { requireCaller, type Context } from '../../context';
import {
  CheckInType,
  MonitorEnvironmentType,
  MonitorInputType,
  MonitorKindEnum,
  MonitorStatusEnum,
  MonitorType,
  toCheckInType,
  toMonitorEnvironmentType,
  toMonitorType,
} from './monitor.type';

@Resolver(() => MonitorType)
export class MonitorResolver {
  @Query(() => [MonitorType], { description: "The project's cron and uptime monitors, by slug." })
  async monitors(@Arg('projectId', () => ID) projectId: string, @Ctx() ctx: Context): Promise<MonitorType[]> {
    return (await listMonitors(ctx.ds, requireCaller(ctx), projectId)).map(toMonitorType);
  }

  @Mutation(() => MonitorType, {
    description:
      'Creates a monitor. Cron: a slug and a crontab (with a time zone) or an interval. Uptime: a slug and an http(s) URL. ' +
      "PLAN_REQUIRED past the plan's monitors per organization; BAD_USER_INPUT names the field that is wrong.",
  })
  async createMonitor(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('kind', () => MonitorKindEnum) kind: MonitorKindEnum,
    @Arg('input', () => MonitorInputType) input: MonitorInputType,
    @Ctx() ctx: Context,
  ): Promise<MonitorType> {
    const monitor = await createMonitor(
      ctx.ds,
      requireCaller(ctx),
      { projectId, kind, settings: { ...input } },
      { allowPrivateTargets: ctx.config.allowPrivateTargets, now: new Date(ctx.clock()) },
    );
    return toMonitorType(monitor);
  }

  @Mutation(() => MonitorType, { description: 'Changes a monitor; fields left out keep their value.' })
  async updateMonitor(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => MonitorInputType) input: MonitorInputType,
    @Ctx() ctx: Context,
  ): Promise<MonitorType> {
    const monitor = await updateMonitor(
      ctx.ds,
      requireCaller(ctx),
      { id, settings: { ...input } },
      { allowPrivateTargets: ctx.config.allowPrivateTargets, now: new Date(ctx.clock()) },
    );
    return toMonitorType(monitor);
  }

  @Mutation(() => MonitorType, {
    description: 'Pauses a monitor (no failures while paused), or resumes it with `paused: false`.',
  })
  async pauseMonitor(
    @Arg('id', () => ID) id: string,
    @Arg('paused', () => Boolean, { defaultValue: true }) paused: boolean,
    @Ctx() ctx: Context,
  ): Promise<MonitorType> {
    return toMonitorType(
      await pauseMonitor(ctx.ds, requireCaller(ctx), { id, paused }, { now: new Date(ctx.clock()) }),
    );
  }

  @Mutation(() => ID, { description: 'Deletes a monitor and its check-ins (its issues stay); returns its id.' })
  async deleteMonitor(@Arg('id', () => ID) id: string, @Ctx() ctx: Context): Promise<string> {
    return deleteMonitor(ctx.ds, requireCaller(ctx), id);
  }

  @FieldResolver(() => [MonitorEnvironmentType], { description: 'One state per environment that checked in.' })
  async environments(@Root() m: MonitorType, @Ctx() ctx: Context): Promise<MonitorEnvironmentType[]> {
    return (await listMonitorEnvironments(ctx.ds, [m.id])).map(toMonitorEnvironmentType);
  }

  @FieldResolver(() => MonitorStatusEnum, { description: 'The worst state over its environments.' })
  async status(@Root() m: MonitorType, @Ctx() ctx: Context): Promise<MonitorStatusEnum> {
    if (m.paused) return MonitorStatusEnum.PAUSED;
    const envs = await listMonitorEnvironments(ctx.ds, [m.id]);
    if (envs.some((e) => e.status === 'failing')) return MonitorStatusEnum.FAILING;
    return envs.some((e) => e.lastCheckInAt) ? MonitorStatusEnum.OK : MonitorStatusEnum.PENDING;
  }

  @FieldResolver(() => [CheckInType], { description: 'Newest first; `first` is 1 to 200.' })
  async checkIns(
    @Root() m: MonitorType,
    @Arg('first', () => Int, { defaultValue: 90 }) first: number,
    @Ctx() ctx: Context,
  ): Promise<CheckInType[]> {
    return (await listCheckIns(ctx.ds, m.id, first)).map(toCheckInType);
  }
}
