import type { DataSource } from 'typeorm';
import {
  AlertDelivery,
  AlertRule,
  ALERT_CHANNEL_TYPES,
  ALERT_KINDS,
  type AlertChannelType,
  type AlertKind,
} from '../entities';
import { AppError } from '../errors';
import { generateToken } from '../security';
import { checkTargetUrl } from '../security/outbound';

export interface AlertChannelInput {
  type: AlertChannelType;
  url?: string | null;
  email?: string | null;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Checks a channel and returns the columns it sets. Private targets are refused here too, early. */
function channelColumns(
  channel: AlertChannelInput,
  allowPrivateTargets: boolean,
): Pick<AlertRule, 'channelType' | 'url' | 'email'> {
  if (!ALERT_CHANNEL_TYPES.includes(channel.type))
    throw new AppError('BAD_USER_INPUT', 'channel.type: unknown channel type');
  if (channel.type === 'EMAIL') {
    const email = channel.email?.trim() ?? '';
    if (!EMAIL.test(email) || email.length > 254)
      throw new AppError('BAD_USER_INPUT', 'channel.email: must be an email address');
    return { channelType: 'EMAIL', url: null, email };
  }
  const url = channel.url?.trim() ?? '';
  if (!url) throw new AppError('BAD_USER_INPUT', `channel.url: required for ${channel.type}`);
  const checked = checkTargetUrl(url, allowPrivateTargets);
  if ('problem' in checked) throw new AppError('BAD_USER_INPUT', `channel.url: ${checked.problem.message}`);
  return { channelType: channel.type, url, email: null };
}

export async function createAlertRule(
  ds: DataSource,
  input: { projectId: string; kind: AlertKind; channel: AlertChannelInput; allowPrivateTargets: boolean },
): Promise<AlertRule> {
  if (!ALERT_KINDS.includes(input.kind)) throw new AppError('BAD_USER_INPUT', 'kind: unknown alert kind');
  const columns = channelColumns(input.channel, input.allowPrivateTargets);
  return ds.manager.save(
    Object.assign(new AlertRule(), {
      projectId: input.projectId,
      kind: input.kind,
      ...columns,
      secret: columns.channelType === 'WEBHOOK' ? generateToken('whsec_', 24) : null,
      enabled: true,
    }),
  );
}

export async function listAlertRules(ds: DataSource, projectId: string): Promise<AlertRule[]> {
  return ds.manager.find(AlertRule, { where: { projectId }, order: { createdAt: 'ASC' } });
}

export async function findAlertRule(ds: DataSource, id: string): Promise<AlertRule | null> {
  return ds.manager.findOneBy(AlertRule, { id });
}

/** Changes what is given; a webhook keeps its secret unless it stops being a webhook. */
export async function updateAlertRule(
  ds: DataSource,
  rule: AlertRule,
  patch: {
    kind?: AlertKind | null;
    channel?: AlertChannelInput | null;
    enabled?: boolean | null;
    allowPrivateTargets: boolean;
  },
): Promise<AlertRule> {
  if (patch.kind) {
    if (!ALERT_KINDS.includes(patch.kind)) throw new AppError('BAD_USER_INPUT', 'kind: unknown alert kind');
    rule.kind = patch.kind;
  }
  if (patch.channel) {
    const columns = channelColumns(patch.channel, patch.allowPrivateTargets);
    if (columns.channelType === 'WEBHOOK' && rule.channelType !== 'WEBHOOK') rule.secret = generateToken('whsec_', 24);
    if (columns.channelType !== 'WEBHOOK') rule.secret = null;
    Object.assign(rule, columns);
  }
  if (patch.enabled !== undefined && patch.enabled !== null) rule.enabled = patch.enabled;
  return ds.manager.save(rule);
}

export async function deleteAlertRule(ds: DataSource, rule: AlertRule): Promise<void> {
  await ds.manager.delete(AlertRule, { id: rule.id });
}

/** The delivery log of a rule, newest first. */
export async function listAlertDeliveries(
  ds: DataSource,
  ruleIds: readonly string[],
  first = 20,
): Promise<AlertDelivery[]> {
  if (ruleIds.length === 0) return [];
  return ds.manager
    .createQueryBuilder(AlertDelivery, 'd')
    .where('d.rule_id IN (:...ruleIds)', { ruleIds })
    .orderBy('d.created_at', 'DESC')
    .take(first * ruleIds.length)
    .getMany();
}
