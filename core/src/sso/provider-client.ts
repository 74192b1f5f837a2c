import { queryRows } from '../db/query-rows';
import type { DataSource, EntityManager } from 'typeorm';
import type { Role } from '../entities';
import type { Clock } from '../time';
import type { ProviderMetadata } from './discover-provider';
import { createProviderFetch, loadOpenIdClient, PROVIDER_TIMEOUT_MS } from './provider-fetch';

/** Seconds an ID token's `exp`, `iat` and `nbf` may be off: the library's default is 30. */
export const CLOCK_TOLERANCE_S = 5;

export interface StoredProvider {
  organizationId: string;
  issuer: string;
  metadata: ProviderMetadata;
  clientId: string;
  clientSecret: string;
  defaultRole: Role;
}

interface Row {
  organization_id: string;
  issuer: string;
  metadata: ProviderMetadata | string;
  client_id: string;
  client_secret: string;
  default_role: Role;
}

export async function findStoredProvider(
  on: DataSource | EntityManager,
  organizationId: string,
): Promise<StoredProvider | null> {
  const rows = await queryRows<Row>(
    on,
    'SELECT organization_id, issuer, metadata, client_id, client_secret, default_role FROM sso_configs WHERE organization_id = $1',
    [organizationId],
  );
  const r = rows[0];
  if (!r) return null;
  return {
    organizationId: r.organization_id,
    issuer: r.issuer,
    metadata: typeof r.metadata === 'string' ? (JSON.parse(r.metadata) as ProviderMetadata) : r.metadata,
    clientId: r.client_id,
    clientSecret: r.client_secret,
    defaultRole: r.default_role,
  };
}

/**
 * openid-client's configuration for a stored provider: client_secret_basic authentication, the
 * bounded fetch, and the clock.
 */
export async function createProviderClient(provider: StoredProvider, allowPrivate: boolean, clock: Clock) {
  const oidc = await loadOpenIdClient();
  // Tracker's clock (time is passed in) as the library's clock skew, and a tight tolerance.
  const skew = Math.round((clock() - Date.now()) / 1000);
  const config = new oidc.Configuration(
    provider.metadata as ConstructorParameters<typeof oidc.Configuration>[0],
    provider.clientId,
    { [oidc.clockSkew]: skew, [oidc.clockTolerance]: CLOCK_TOLERANCE_S },
    oidc.ClientSecretBasic(provider.clientSecret),
  );
  if (allowPrivate) oidc.allowInsecureRequests(config);
  config[oidc.customFetch] = createProviderFetch(allowPrivate);
  config.timeout = PROVIDER_TIMEOUT_MS / 1000;
  return { oidc, config };
}
