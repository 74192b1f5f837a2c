import { createAlertRule, deleteAlertRule, listAlertDeliveries, listAlertRules, updateAlertRule } from '@tracker/core';
import { assertChannelDeliverable, instanceOf } from './alert-channels';
import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { canSeeSecrets } from '../../auth/secret-guard';
import { requireCaller, type Context } from '../../context';
import {
  AlertChannelInput,
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
    @Ctx() ctx: Context,
  ): Promise<AlertRuleType> {
    assertChannelDeliverable(channel.type, instanceOf(ctx));
    const rule = await createAlertRule(ctx.ds, requireCaller(ctx), {
      projectId,
      kind,
      channel,
      allowPrivateTargets: ctx.config.allowPrivateTargets,
    });
    return toAlertRuleType(rule);
  }

  @Mutation(() => AlertRuleType, { description: 'Owners and admins. Changes only what is given.' })
  async updateAlertRule(
    @Arg('id', () => ID) id: string,
    @Arg('kind', () => AlertKindEnum, { nullable: true }) kind: AlertKindEnum | null,
    @Arg('channel', () => AlertChannelInput, { nullable: true }) channel: AlertChannelInput | null,
    @Arg('enabled', () => Boolean, { nullable: true }) enabled: boolean | null,
    @Ctx() ctx: Context,
  ): Promise<AlertRuleType> {
    if (channel) assertChannelDeliverable(channel.type, instanceOf(ctx));
    const updated = await updateAlertRule(ctx.ds, requireCaller(ctx), id, {
      kind,
      channel,
      enabled,
      allowPrivateTargets: ctx.config.allowPrivateTargets,
    });
    return toAlertRuleType(updated);
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
