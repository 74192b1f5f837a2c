import DataLoader from 'dataloader';
import { describeAlertChannels, findAlertDeliveryHealth, testAlertRule, type AlertDeliveryHealth } from '@tracker/core';
import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { requireCaller, type Context } from '../../context';
import { instanceOf } from './alert-channels';
import { AlertChannelInfoType, AlertTargetEnum } from './alert-delivery.type';
import { AlertDeliveryType, AlertRuleType, ChannelTypeEnum, toAlertDeliveryType } from './alert.type';

/**
 * `failing` and `recentFailures` of every rule a request lists come from one query: the rules
 * page asks both for each rule, and one query per rule grew with the number of rules.
 */
const healthByRequest = new WeakMap<Context, DataLoader<string, AlertDeliveryHealth | undefined>>();

function healthOf(ctx: Context, ruleId: string): Promise<AlertDeliveryHealth | undefined> {
  let loader = healthByRequest.get(ctx);
  if (!loader) {
    loader = new DataLoader(async (ids: readonly string[]) => {
      const health = await findAlertDeliveryHealth(ctx.ds, ids, ctx.clock());
      return ids.map((id) => health.get(id));
    });
    healthByRequest.set(ctx, loader);
  }
  return loader.load(ruleId);
}

/**
 * Channels and delivery (issue 20): what this instance can deliver to, test sends, and the
 * warning on a rule whose deliveries fail. Beside `AlertResolver`, which owns the rules.
 */
@Resolver(() => AlertRuleType)
export class AlertDeliveryResolver {
  @Query(() => [AlertChannelInfoType], {
    description:
      'The alert channels of this instance, in the order the dashboard offers them: which it can deliver to and what each accepts. Any signed-in user.',
  })
  alertChannels(@Ctx() ctx: Context): AlertChannelInfoType[] {
    requireCaller(ctx);
    const instance = instanceOf(ctx);
    return describeAlertChannels(instance).map((c) => ({
      ...c,
      type: c.type as ChannelTypeEnum,
      target: c.target as AlertTargetEnum,
      privateTargetsAllowed: c.target === 'URL' && instance.allowPrivateTargets,
    }));
  }

  @Mutation(() => AlertDeliveryType, {
    description:
      "Owners and admins. Sends a test notification to the rule's channel now (marked as a test: `test: true`, webhook header X-Tracker-Test: 1) through the same code as real alerts, records it in the rule's delivery log, and returns it with the receiver's answer (lastStatus, response) or why it failed (lastError). One attempt, never retried; at most 5 a minute per rule.",
  })
  async testAlertRule(@Arg('id', () => ID) id: string, @Ctx() ctx: Context): Promise<AlertDeliveryType> {
    const delivery = await testAlertRule(ctx.ds, requireCaller(ctx), id, {
      send: ctx.sendAlert,
      now: ctx.clock(),
      publicUrl: ctx.config.publicUrl,
    });
    return toAlertDeliveryType(delivery);
  }

  @FieldResolver(() => Boolean, {
    description:
      "True when the rule's latest delivery of the last 24 hours failed or waits for a retry after failing (test sends included): the dashboard shows a warning.",
  })
  async failing(@Root() rule: AlertRuleType, @Ctx() ctx: Context): Promise<boolean> {
    return (await healthOf(ctx, rule.id))?.failing ?? false;
  }

  @FieldResolver(() => Int, {
    description: 'Deliveries of the last 24 hours that failed for good or wait for a retry after a failed attempt.',
  })
  async recentFailures(@Root() rule: AlertRuleType, @Ctx() ctx: Context): Promise<number> {
    return (await healthOf(ctx, rule.id))?.recentFailures ?? 0;
  }
}
