import type { DataSource, EntityManager } from 'typeorm';
import { auditSourceOf, recordAudit } from '../audit/record-audit';
import { requireOrganizationAccess, type Caller } from '../access';
import { maskSecret } from '../access/field-rules';
import { queryRows } from '../db/query-rows';
import type { Role } from '../entities';
import { AppError } from '../errors';
import { discoverProvider, type ProviderMetadata } from './discover-provider';
import { parseEmailDomains } from './email-domains';

/** Only owners configure single sign-on: it decides who can become a member. */
export const OWNERS_ONLY = { roles: ['owner'] as readonly Role[], scope: 'admin' as const };
/** Reading them needs only `read`: nothing secret is returned (the client secret never is). */
const OWNERS_READ = { roles: ['owner'] as readonly Role[], scope: 'read' as const };

/** What owners see of an organization's provider: never the client secret, only its last characters. */
export interface SsoSettings {
  organizationId: string;
  issuer: string;
  clientId: string;
  clientSecretHint: string;
  emailDomains: string[];
  defaultRole: Role;
  requireSso: boolean;
  updatedAt: Date;
}

export interface SaveSsoSettingsInput {
  issuerUrl: string;
  clientId: string;
  /** Required the first time; left out (or empty) to keep the stored one. */
  clientSecret?: string | null;
  emailDomains: string[];
  defaultRole?: Role | null;
  requireSso?: boolean | null;
}

interface Row {
  organization_id: string;
  issuer: string;
  client_id: string;
  client_secret: string;
  default_role: Role;
  require_sso: boolean;
  updated_at: Date;
  domains: string[] | null;
}

const toSettings = (r: Row): SsoSettings => ({
  organizationId: r.organization_id,
  issuer: r.issuer,
  clientId: r.client_id,
  clientSecretHint: maskSecret(r.client_secret),
  emailDomains: [...(r.domains ?? [])].sort(),
  defaultRole: r.default_role,
  requireSso: r.require_sso,
  updatedAt: new Date(r.updated_at),
});

async function readSettings(on: DataSource | EntityManager, organizationId: string): Promise<Row | null> {
  const rows = await queryRows<Row>(
    on,
    `SELECT c.organization_id, c.issuer, c.client_id, c.client_secret, c.default_role, c.require_sso, c.updated_at,
            (SELECT array_agg(d.domain) FROM sso_domains d WHERE d.organization_id = c.organization_id) AS domains
       FROM sso_configs c WHERE c.organization_id = $1`,
    [organizationId],
  );
  return rows[0] ?? null;
}

/** The organization's single sign-on settings, or null when it has none (owners only). */
export async function findSsoSettings(
  ds: DataSource,
  caller: Caller,
  organizationId: string,
): Promise<SsoSettings | null> {
  await requireOrganizationAccess(ds, caller, organizationId, OWNERS_READ, 'see single sign-on settings');
  const row = await readSettings(ds, organizationId);
  return row ? toSettings(row) : null;
}

function checkText(field: string, value: string, max: number): string {
  const v = value.trim();
  if (v.length < 1 || v.length > max) throw new AppError('BAD_USER_INPUT', `${field}: must be 1 to ${max} characters`);
  return v;
}

/**
 * Creates or replaces the organization's provider (owners only). Discovery runs first, outside
 * the transaction, so a slow provider holds no lock; nothing is written when it fails.
 */
export async function saveSsoSettings(
  ds: DataSource,
  caller: Caller,
  organizationId: string,
  input: SaveSsoSettingsInput,
  options: { allowPrivateTargets: boolean },
): Promise<SsoSettings> {
  await requireOrganizationAccess(ds, caller, organizationId, OWNERS_ONLY, 'change single sign-on settings');
  const clientId = checkText('clientId', input.clientId, 256);
  const secret = input.clientSecret?.trim() ? checkText('clientSecret', input.clientSecret, 1024) : null;
  const domains = parseEmailDomains(input.emailDomains);
  const defaultRole = input.defaultRole ?? 'member';
  if (defaultRole === 'owner') {
    throw new AppError('BAD_USER_INPUT', 'defaultRole: new members can be admins or members; make owners by hand');
  }
  const metadata: ProviderMetadata = await discoverProvider(input.issuerUrl, options.allowPrivateTargets);
  return ds.transaction(async (em) => {
    await requireOrganizationAccess(em, caller, organizationId, OWNERS_ONLY, 'change single sign-on settings', {
      lock: true,
    });
    const existing = await readSettings(em, organizationId);
    if (!existing && !secret) throw new AppError('BAD_USER_INPUT', 'clientSecret: required the first time');
    const taken = await queryRows<{ domain: string }>(
      em,
      'SELECT domain FROM sso_domains WHERE domain = ANY($1::text[]) AND organization_id <> $2',
      [domains, organizationId],
    );
    if (taken.length > 0) {
      throw new AppError(
        'CONFLICT',
        `emailDomains: ${taken.map((t) => t.domain).join(', ')} already signs in to another organization`,
      );
    }
    await queryRows(
      em,
      `INSERT INTO sso_configs (organization_id, issuer, metadata, client_id, client_secret, default_role, require_sso)
       VALUES ($1, $2, $3::jsonb, $4, $5, $6, $7)
       ON CONFLICT (organization_id) DO UPDATE SET issuer = excluded.issuer, metadata = excluded.metadata,
         client_id = excluded.client_id, client_secret = COALESCE($8, sso_configs.client_secret),
         default_role = excluded.default_role, require_sso = excluded.require_sso, updated_at = now()`,
      [
        organizationId,
        metadata.issuer,
        JSON.stringify(metadata),
        clientId,
        secret ?? existing?.client_secret,
        defaultRole,
        input.requireSso ?? false,
        secret,
      ],
    );
    await queryRows(em, 'DELETE FROM sso_domains WHERE organization_id = $1', [organizationId]);
    try {
      await queryRows(em, 'INSERT INTO sso_domains (domain, organization_id) SELECT unnest($1::text[]), $2', [
        domains,
        organizationId,
      ]);
    } catch (error) {
      // Another organization claimed one of them between the check and the insert.
      if ((error as { code?: string }).code === '23505') {
        throw new AppError('CONFLICT', 'emailDomains: one of these domains already signs in to another organization');
      }
      throw error;
    }
    const saved = (await readSettings(em, organizationId))!;
    // The secret's value never goes into the row: only whether it changed.
    await recordAudit(em, {
      organizationId,
      ...auditSourceOf(caller),
      action: 'organization.sso_settings_changed',
      target: { type: 'organization', id: organizationId },
      changes: {
        before: existing ? auditedSettings(existing) : {},
        after: { ...auditedSettings(saved), clientSecretChanged: secret !== null },
      },
    });
    return toSettings(saved);
  });
}

function auditedSettings(row: Row): Record<string, unknown> {
  return {
    issuer: row.issuer,
    clientId: row.client_id,
    emailDomains: row.domains ?? [],
    defaultRole: row.default_role,
    requireSso: row.require_sso,
  };
}

/** Removes the organization's provider; members linked through it keep their accounts (owners only). */
export async function deleteSsoSettings(ds: DataSource, caller: Caller, organizationId: string): Promise<boolean> {
  return ds.transaction(async (em) => {
    await requireOrganizationAccess(em, caller, organizationId, OWNERS_ONLY, 'change single sign-on settings', {
      lock: true,
    });
    const existing = await readSettings(em, organizationId);
    const rows = await queryRows<{ organization_id: string }>(
      em,
      'DELETE FROM sso_configs WHERE organization_id = $1 RETURNING organization_id',
      [organizationId],
    );
    if (existing) {
      await recordAudit(em, {
        organizationId,
        ...auditSourceOf(caller),
        action: 'organization.sso_settings_changed',
        target: { type: 'organization', id: organizationId },
        changes: { before: auditedSettings(existing), after: { deleted: true } },
      });
    }
    return rows.length > 0;
  });
}
