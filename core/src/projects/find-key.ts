import type { DataSource } from 'typeorm';
import { ProjectKey } from '../entities';

/** What ingest needs to know about a DSN key; small, so thousands fit in its cache. */
export interface KeyInfo {
  keyId: string;
  projectId: string;
  rateLimitPerSecond: number | null;
}

/** An enabled key by its public value, or null. */
export async function findKeyInfo(ds: DataSource, publicKey: string): Promise<KeyInfo | null> {
  const key = await ds.manager.findOneBy(ProjectKey, { publicKey });
  if (!key || key.disabledAt) return null;
  return { keyId: key.id, projectId: key.projectId, rateLimitPerSecond: key.rateLimitPerSecond };
}
