import {
  createAlertRule,
  deleteAlertRule,
  listAlertDeliveries,
  listAlertRules,
  muteAlertRule,
  muteIssueAlerts,
  parseClientTime,
  updateAlertRule,
} from '@tracker/core';
import { assertChannelDeliverable, instanceOf } from './alert-channels';
import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { canSeeSecrets } from '../../auth/secret-guard';
import { requireCaller, type Context } from '../../context';
import { IssueType, toIssueType } from '../issue/issue.type';
import {
  AlertChannelInput,
  AlertFilterInput,
  AlertDeliveryType,
  AlertKindEnum,
  AlertRuleType,
  toAlertDeliveryType,
  toAlertRuleType,
} from './alert.type';

@Resolver(() => AlertRuleType)
export class AlertResolver {
  @Query(() => [AlertRuleType], { description: 'Oldest first.' })
  async alertRules(@Arg('projectId', () => ID) projectId: string, @Ctx() ctx: Context): Promise<AlertRuleType[]> {
    return (await listAlertRules(ctx.ds, requireCaller(ctx), projectId)).map(toAlertRuleType);
  }

  @Mutation(() => AlertRuleType, { description: 'Owners and admins. Private and loopback URLs are refused.' })
  async createAlertRule(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('kind', () => AlertKindEnum) kind: AlertKindEnum,
    @Arg('channel', () => AlertChannelInput) channel: AlertChannelInput,
    @Arg('threshold', () => Int, { nullable: true }) threshold: number | undefined,
    @Arg('windowMinutes', () => Int, { nullable: true }) windowMinutes: number | undefined,
    @Arg('query', () => String, { nullable: true }) query: string | undefined,
    @Arg('filter', () => AlertFilterInput, { nullable: true }) filter: AlertFilterInput | undefined,
    @Arg('actionIntervalMinutes', () => Int, { nullable: true }) actionIntervalMinutes: number | undefined,
    @Arg('digestMinutes', () => Int, { nullable: true }) digestMinutes: number | undefined,
    @Ctx() ctx: Context,
  ): Promise<AlertRuleType> {
    assertChannelDeliverable(channel.type, instanceOf(ctx));
    const rule = await createAlertRule(ctx.ds, requireCaller(ctx), {
      projectId,
      kind,
      channel,
      threshold,
      windowMinutes,
      query,
      filter,
      actionIntervalMinutes,
      digestMinutes,
      allowPrivateTargets: ctx.config.allowPrivateTargets,
    });
    return toAlertRuleType(rule);
  }

  @Mutation(() => AlertRuleType, {
    description:
      'Owners and admins. Changes only what is given; a setting given as null is cleared (digestMinutes: null ends digests, actionIntervalMinutes: null restores 30).',
  })
  async updateAlertRule(
    @Arg('id', () => ID) id: string,
    @Arg('kind', () => AlertKindEnum, { nullable: true }) kind: AlertKindEnum | null,
    @Arg('channel', () => AlertChannelInput, { nullable: true }) channel: AlertChannelInput | null,
    @Arg('enabled', () => Boolean, { nullable: true }) enabled: boolean | null,
    @Arg('threshold', () => Int, { nullable: true }) threshold: number | null | undefined,
    @Arg('windowMinutes', () => Int, { nullable: true }) windowMinutes: number | null | undefined,
    @Arg('query', () => String, { nullable: true }) query: string | null | undefined,
    @Arg('filter', () => AlertFilterInput, { nullable: true }) filter: AlertFilterInput | null | undefined,
    @Arg('actionIntervalMinutes', () => Int, { nullable: true }) actionIntervalMinutes: number | null | undefined,
    @Arg('digestMinutes', () => Int, { nullable: true }) digestMinutes: number | null | undefined,
    @Ctx() ctx: Context,
  ): Promise<AlertRuleType> {
    if (channel) assertChannelDeliverable(channel.type, instanceOf(ctx));
    const updated = await updateAlertRule(ctx.ds, requireCaller(ctx), id, {
      kind,
      channel,
      enabled,
      threshold,
      windowMinutes,
      query,
      filter,
      actionIntervalMinutes,
      digestMinutes,
      allowPrivateTargets: ctx.config.allowPrivateTargets,
    });
    return toAlertRuleType(updated);
  }

  @Mutation(() => AlertRuleType, {
    description:
      'Owners and admins. The rule fires nothing before `until` (ISO 8601, in the future, at most a year ahead); null unmutes. Events keep counting meanwhile.',
  })
  async muteAlertRule(
    @Arg('id', () => ID) id: string,
    @Arg('until', () => String, { nullable: true }) until: string | null | undefined,
    @Ctx() ctx: Context,
  ): Promise<AlertRuleType> {
    const rule = await muteAlertRule(ctx.ds, requireCaller(ctx), {
      id,
      until: until == null ? null : parseClientTime('until', until),
      now: ctx.clock(),
    });
    return toAlertRuleType(rule);
  }

  @Mutation(() => IssueType, {
    description:
      'Every member. No alert rule fires for this issue before `until` (ISO 8601, in the future, at most a year ahead); null unmutes. See Issue.alertsMutedUntil.',
  })
  async muteIssueAlerts(
    @Arg('issueId', () => ID) issueId: string,
    @Arg('until', () => String, { nullable: true }) until: string | null | undefined,
    @Ctx() ctx: Context,
  ): Promise<IssueType> {
    const issue = await muteIssueAlerts(ctx.ds, requireCaller(ctx), {
      issueId,
      until: until == null ? null : parseClientTime('until', until),
      now: ctx.clock(),
    });
    return toIssueType(issue);
  }

  @Mutation(() => Boolean, { description: 'Owners and admins. Its delivery log goes with it.' })
  async deleteAlertRule(@Arg('id', () => ID) id: string, @Ctx() ctx: Context): Promise<boolean> {
    await deleteAlertRule(ctx.ds, requireCaller(ctx), id);
    return true;
  }

  @FieldResolver(() => Boolean, {
    description:
      'True when `secret` and `channel.url` are masked for this caller: only owners and admins, with a session or an ADMIN token, see them in full.',
  })
  async masked(@Root() rule: AlertRuleType, @Ctx() ctx: Context): Promise<boolean> {
    return !(await canSeeSecrets(ctx, rule.projectId));
  }

  @FieldResolver(() => [AlertDeliveryType], { description: 'Newest first.' })
  async deliveries(
    @Root() rule: AlertRuleType,
    @Arg('first', () => Int, { defaultValue: 20 }) first: number,
    @Ctx() ctx: Context,
  ): Promise<AlertDeliveryType[]> {
    const n = Math.min(Math.max(first, 1), 100);
    return (await listAlertDeliveries(ctx.ds, [rule.id], n)).map(toAlertDeliveryType);
  }
}
