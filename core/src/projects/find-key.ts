import type { DataSource } from 'typeorm';
import type { PrivacySettings } from '../privacy';
import { compileInboundFilters, inboundFilterSettingsOf, type CompiledInboundFilters } from '../inbound-filters';

/** What ingest needs to know about a DSN key; small, so thousands fit in its cache. */
export interface KeyInfo {
  keyId: string;
  projectId: string;
  /** The project's number (its DSN's last path segment): Sentry's endpoints are addressed by it. */
  projectNumber: number;
  /** The project's organization: whose event quota the key's events count against (docs/quotas.md). */
  organizationId: string;
  rateLimitPerSecond: number | null;
  /**
   * The project's scrubbing settings, applied at the edge before anything is queued
   * (docs/privacy.md); absent means the defaults. Cached with the key, so a change reaches the
   * edge within the key cache's TTL.
   */
  privacy?: PrivacySettings;
  /**
   * The grouping keys whose events the project discards (issue_discard_keys), or absent when it
   * discards nothing: the edge computes an event's key only for projects that have some, so the
   * others keep the fast path as it was (docs/decisions/023-unmerge-snooze-discard.md).
   */
  discardKeys?: ReadonlySet<string>;
  /**
   * The project's inbound filters, compiled once here (globs into one expression), or absent
   * when none is on: the edge then pays one property test per event (issue 31, docs/ingest.md).
   */
  inboundFilters?: CompiledInboundFilters;
}

/** At most this many discard keys per project reach the edge; the worker drops the rest. */
export const MAX_EDGE_DISCARD_KEYS = 10_000;

/** An enabled key by its public value, or null. */
export async function findKeyInfo(ds: DataSource, publicKey: string): Promise<KeyInfo | null> {
  const rows: Array<{
    id: string;
    project_id: string;
    project_number: number;
    organization_id: string;
    rate_limit_per_second: number | null;
    scrub_defaults: boolean;
    sensitive_fields: string[] | null;
    scrub_ip_addresses: boolean;
    discard_keys: string[] | null;
    inbound_filters: unknown;
  }> = await ds.query(
    `SELECT k.id, k.project_id, p.number AS project_number, p.organization_id, k.rate_limit_per_second,
            p.scrub_defaults, p.sensitive_fields, p.scrub_ip_addresses,
            (SELECT array_agg(d.grouping_key) FROM (SELECT grouping_key FROM issue_discard_keys
               WHERE project_id = k.project_id LIMIT ${MAX_EDGE_DISCARD_KEYS}) d) AS discard_keys,
            (SELECT f.settings FROM project_inbound_filters f WHERE f.project_id = k.project_id) AS inbound_filters
       FROM project_keys k JOIN projects p ON p.id = k.project_id
      WHERE k.public_key = $1 AND k.disabled_at IS NULL`,
    [publicKey],
  );
  const key = rows[0];
  if (!key) return null;
  const inboundFilters = key.inbound_filters
    ? compileInboundFilters(inboundFilterSettingsOf(key.inbound_filters))
    : undefined;
  return {
    keyId: key.id,
    projectId: key.project_id,
    projectNumber: Number(key.project_number),
    organizationId: key.organization_id,
    rateLimitPerSecond: key.rate_limit_per_second === null ? null : Number(key.rate_limit_per_second),
    privacy: {
      scrubDefaults: key.scrub_defaults,
      sensitiveFields: key.sensitive_fields ?? [],
      scrubIpAddresses: key.scrub_ip_addresses,
    },
    ...(key.discard_keys && key.discard_keys.length > 0 ? { discardKeys: new Set(key.discard_keys) } : {}),
    ...(inboundFilters ? { inboundFilters } : {}),
  };
}
