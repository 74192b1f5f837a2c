import type { DataSource, EntityManager } from 'typeorm';
import { queryRows } from '../db/query-rows';
import {
  assertAllowed,
  findIssueAccess,
  findProjectAccess,
  isMaskedUrl,
  isUuid,
  maskUrl,
  needOf,
  requireProjectAccess,
  type Caller,
} from '../access';
import {
  AlertDelivery,
  AlertRule,
  type Issue,
  ALERT_CHANNEL_TYPES,
  ALERT_KINDS,
  type AlertChannelType,
  type AlertKind,
} from '../entities';
import { AppError } from '../errors';
import { generateToken } from '../security';
import { checkTargetUrl } from '../security/outbound';
import { resolveRuleSettings, type AlertRuleSettingsInput } from './rule-settings';
import { auditSourceOf, recordAudit } from '../audit/record-audit';

async function organizationOfProject(em: EntityManager, projectId: string): Promise<string> {
  const rows = await queryRows<{ organization_id: string }>(em, 'SELECT organization_id FROM projects WHERE id = $1', [
    projectId,
  ]);
  if (!rows[0]) throw new AppError('NOT_FOUND', 'Project not found');
  return rows[0].organization_id;
}

/** Where a rule sends, as the audit log shows it: the URL's origin only (its path is a capability). */
function channelSummary(rule: Pick<AlertRule, 'channelType' | 'url' | 'email'>): Record<string, unknown> {
  return { channel: rule.channelType, url: rule.url ? maskUrl(rule.url) : null, email: rule.email };
}

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

/** Owners and admins: a new rule (a webhook gets a signing secret). Private and loopback URLs are refused. */
export async function createAlertRule(
  ds: DataSource,
  caller: Caller,
  input: {
    projectId: string;
    kind: AlertKind;
    channel: AlertChannelInput;
    allowPrivateTargets: boolean;
  } & AlertRuleSettingsInput,
): Promise<AlertRule> {
  const { project } = await requireProjectAccess(ds, caller, input.projectId, 'admin', MANAGE);
  refuseMaskedUrl(input.channel);
  if (!ALERT_KINDS.includes(input.kind)) throw new AppError('BAD_USER_INPUT', 'kind: unknown alert kind');
  const settings = resolveRuleSettings(input.kind, input);
  const columns = channelColumns(input.channel, input.allowPrivateTargets);
  return ds.transaction(async (em) => {
    const rule = await em.save(
      Object.assign(new AlertRule(), {
        projectId: input.projectId,
        kind: input.kind,
        ...settings,
        mutedUntil: null,
        ...columns,
        secret: columns.channelType === 'WEBHOOK' ? generateToken('whsec_', 24) : null,
        enabled: true,
      }),
    );
    await recordAudit(em, {
      organizationId: project.organizationId,
      ...auditSourceOf(caller),
      action: 'alert_rule.created',
      target: { type: 'alert_rule', id: rule.id, label: `${project.name}: ${rule.kind}` },
      changes: { after: { kind: rule.kind, ...channelSummary(rule) } },
    });
    return rule;
  });
}

/** The project's rules, oldest first. NOT_FOUND unless the caller may read the project. */
export async function listAlertRules(ds: DataSource, caller: Caller, projectId: string): Promise<AlertRule[]> {
  await requireProjectAccess(ds, caller, projectId, 'read', 'see alert rules');
  return ds.manager.find(AlertRule, { where: { projectId }, order: { createdAt: 'ASC' } });
}

const MANAGE = 'manage alert rules';

/**
 * The rule when the caller may manage it: another tenant's rule answers exactly like a missing
 * one (NOT_FOUND); members of its project get FORBIDDEN.
 */
async function requireManagedRule(ds: DataSource, caller: Caller, id: string): Promise<AlertRule> {
  const rule = isUuid(id) ? await ds.manager.findOneBy(AlertRule, { id }) : null;
  const access = rule && (await findProjectAccess(ds, caller, rule.projectId));
  if (!rule || !access) throw new AppError('NOT_FOUND', 'Alert rule not found');
  assertAllowed(caller, access.role, needOf('admin'), MANAGE);
  return rule;
}

/** A client that shows masked URLs must not save the mask over the real target. */
function refuseMaskedUrl(channel: AlertChannelInput | null | undefined): void {
  if (channel?.url && isMaskedUrl(channel.url.trim())) {
    throw new AppError('BAD_USER_INPUT', 'channel.url: this is the masked form of a URL; send the full URL');
  }
}

/**
 * Owners and admins: changes what is given; a setting given as null clears it (`digestMinutes:
 * null` ends digests, `actionIntervalMinutes: null` restores 30). A webhook keeps its secret
 * unless it stops being a webhook. The settings are checked again as a whole for the (new) kind.
 */
export async function updateAlertRule(
  ds: DataSource,
  caller: Caller,
  id: string,
  patch: {
    kind?: AlertKind | null;
    channel?: AlertChannelInput | null;
    enabled?: boolean | null;
    allowPrivateTargets: boolean;
  } & AlertRuleSettingsInput,
): Promise<AlertRule> {
  const rule = await requireManagedRule(ds, caller, id);
  const channelBefore = channelSummary(rule);
  const before = { url: rule.url, email: rule.email, channelType: rule.channelType };
  refuseMaskedUrl(patch.channel);
  if (patch.kind) {
    if (!ALERT_KINDS.includes(patch.kind)) throw new AppError('BAD_USER_INPUT', 'kind: unknown alert kind');
  }
  const kind = patch.kind ?? rule.kind;
  Object.assign(
    rule,
    resolveRuleSettings(kind, patch, {
      threshold: rule.threshold,
      windowMinutes: rule.windowMinutes,
      query: rule.query,
      filter: rule.filter ?? {},
      actionIntervalMinutes: rule.actionIntervalMinutes,
      digestMinutes: rule.digestMinutes,
    }),
  );
  rule.kind = kind;
  if (patch.channel) {
    const columns = channelColumns(patch.channel, patch.allowPrivateTargets);
    if (columns.channelType === 'WEBHOOK' && rule.channelType !== 'WEBHOOK') rule.secret = generateToken('whsec_', 24);
    if (columns.channelType !== 'WEBHOOK') rule.secret = null;
    Object.assign(rule, columns);
  }
  if (patch.enabled !== undefined && patch.enabled !== null) rule.enabled = patch.enabled;
  const channelAfter = channelSummary(rule);
  // The channel is compared in full (a new URL path is a new destination), the log shows the origin.
  const channelChanged =
    before.url !== rule.url || before.email !== rule.email || before.channelType !== rule.channelType;
  return ds.transaction(async (em) => {
    const saved = await em.save(rule);
    if (channelChanged) {
      const organizationId = await organizationOfProject(em, rule.projectId);
      await recordAudit(em, {
        organizationId,
        ...auditSourceOf(caller),
        action: 'alert_rule.channels_changed',
        target: { type: 'alert_rule', id: rule.id, label: rule.kind },
        changes: { before: channelBefore, after: channelAfter },
      });
    }
    return saved;
  });
}

/** Owners and admins: deletes the rule with its delivery log. */
export async function deleteAlertRule(ds: DataSource, caller: Caller, id: string): Promise<void> {
  const rule = await requireManagedRule(ds, caller, id);
  await ds.transaction(async (em) => {
    await em.delete(AlertRule, { id: rule.id });
    await recordAudit(em, {
      organizationId: await organizationOfProject(em, rule.projectId),
      ...auditSourceOf(caller),
      action: 'alert_rule.deleted',
      target: { type: 'alert_rule', id: rule.id, label: rule.kind },
      changes: { before: { kind: rule.kind, ...channelSummary(rule) } },
    });
  });
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

/** How far ahead a mute may reach: a year is "until I turn it back on". */
const MAX_MUTE_MS = 366 * 86_400_000;

function checkMuteUntil(until: Date | null, now: number): Date | null {
  if (until === null) return null;
  if (until.getTime() <= now) throw new AppError('BAD_USER_INPUT', 'until: must be in the future (null unmutes)');
  if (until.getTime() - now > MAX_MUTE_MS) throw new AppError('BAD_USER_INPUT', 'until: at most a year ahead');
  return until;
}

/**
 * Owners and admins (as for every rule change): the rule fires nothing before `until`; null
 * unmutes. Events keep counting, so the first firing after says how many came in meanwhile.
 */
export async function muteAlertRule(
  ds: DataSource,
  caller: Caller,
  input: { id: string; until: Date | null; now: number },
): Promise<AlertRule> {
  const rule = await requireManagedRule(ds, caller, input.id);
  rule.mutedUntil = checkMuteUntil(input.until, input.now);
  return ds.manager.save(rule);
}

/**
 * Every member (like snoozing, it is triage): no rule fires for this issue before `until`;
 * null unmutes. Returns the issue. Another tenant's issue answers NOT_FOUND like a missing one.
 */
export async function muteIssueAlerts(
  ds: DataSource,
  caller: Caller,
  input: { issueId: string; until: Date | null; now: number },
): Promise<Issue> {
  const access = await findIssueAccess(ds, caller, input.issueId);
  if (!access) throw new AppError('NOT_FOUND', 'Issue not found');
  assertAllowed(caller, access.role, needOf('write'), 'mute alerts for issues');
  const issue = access.issue;
  const until = checkMuteUntil(input.until, input.now);
  await ds.query('UPDATE issues SET alerts_muted_until = $2 WHERE id = $1', [issue.id, until?.toISOString() ?? null]);
  issue.alertsMutedUntil = until;
  return issue;
}
