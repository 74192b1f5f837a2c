import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { queryRows } from '../db/query-rows';
import { AppError } from '../errors';
import {
  CHUNK_SIZE_BYTES,
  CHUNK_TTL_MS,
  MAX_PENDING_CHUNKS_PER_ORG,
  MAX_PENDING_CHUNK_BYTES_PER_ORG,
} from './chunk-limits';

/** A chunk as sent: its name (the sha1 sentry-cli computed) and its bytes, already gunzipped. */
export interface UploadedChunk {
  checksum: string;
  data: Buffer;
}

const SHA1_HEX = /^[0-9a-f]{40}$/;

/** True for a lowercase 40-hex sha1, the only chunk or bundle name accepted. */
export function isSha1Hex(value: unknown): value is string {
  return typeof value === 'string' && SHA1_HEX.test(value);
}

export function sha1Hex(data: Uint8Array): string {
  return createHash('sha1').update(data).digest('hex');
}

/**
 * Stores uploaded chunks for an organization, all or none: every chunk's sha1 must equal its
 * name, none may be larger than the advertised chunk size, and the organization's unassembled
 * chunks must stay within their count and byte allowance (chunks already stored are not counted
 * twice). Returns how many were new.
 */
export async function storeChunks(ds: DataSource, organizationId: string, chunks: UploadedChunk[]): Promise<number> {
  for (const chunk of chunks) {
    const name = chunk.checksum.toLowerCase();
    if (!isSha1Hex(name))
      throw new AppError(
        'BAD_USER_INPUT',
        `chunk "${chunk.checksum.slice(0, 60)}": the part's file name must be its sha1 (40 hex digits)`,
      );
    if (chunk.data.length > CHUNK_SIZE_BYTES) {
      throw new AppError(
        'PAYLOAD_TOO_LARGE',
        `chunk ${name}: ${chunk.data.length} bytes, larger than the chunk size ${CHUNK_SIZE_BYTES}`,
      );
    }
    const actual = sha1Hex(chunk.data);
    if (actual !== name)
      throw new AppError(
        'BAD_USER_INPUT',
        `chunk ${name}: its content has sha1 ${actual}; nothing of this request was stored`,
      );
  }
  const unique = new Map(chunks.map((c) => [c.checksum.toLowerCase(), c.data]));
  if (unique.size === 0) return 0;
  return ds.transaction(async (em) => {
    // Serializes the allowance check per organization across processes.
    await em.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`artifact_chunks:${organizationId}`]);
    const [pending] = await queryRows<{ n: string; bytes: string | null }>(
      em,
      `SELECT count(*) AS n, sum(size_bytes) AS bytes FROM artifact_chunks
        WHERE organization_id = $1 AND NOT (checksum = ANY($2::text[]))`,
      [organizationId, [...unique.keys()]],
    );
    const newBytes = [...unique.values()].reduce((sum, d) => sum + d.length, 0);
    if (Number(pending.n) + unique.size > MAX_PENDING_CHUNKS_PER_ORG) {
      throw new AppError(
        'PAYLOAD_TOO_LARGE',
        `the organization holds ${pending.n} unassembled chunks; at most ${MAX_PENDING_CHUNKS_PER_ORG} (assemble them, or wait 24 h)`,
      );
    }
    if (Number(pending.bytes ?? 0) + newBytes > MAX_PENDING_CHUNK_BYTES_PER_ORG) {
      throw new AppError(
        'PAYLOAD_TOO_LARGE',
        `the organization's unassembled chunks would exceed ${MAX_PENDING_CHUNK_BYTES_PER_ORG / 1024 / 1024} MB (assemble them, or wait 24 h)`,
      );
    }
    const rows = await queryRows<{ checksum: string }>(
      em,
      `INSERT INTO artifact_chunks (organization_id, checksum, data, size_bytes)
       SELECT $1, c.checksum, c.data, octet_length(c.data) FROM unnest($2::text[], $3::bytea[]) AS c(checksum, data)
       ON CONFLICT (organization_id, checksum) DO UPDATE SET uploaded_at = now()
       RETURNING checksum`,
      [organizationId, [...unique.keys()], [...unique.values()]],
    );
    return rows.length;
  });
}

/** The checksums of `wanted` that the organization has no chunk for, in the order asked. */
export async function findMissingChunks(ds: DataSource, organizationId: string, wanted: string[]): Promise<string[]> {
  if (wanted.length === 0) return [];
  const rows = await queryRows<{ checksum: string }>(
    ds,
    'SELECT checksum FROM artifact_chunks WHERE organization_id = $1 AND checksum = ANY($2::text[])',
    [organizationId, wanted],
  );
  const have = new Set(rows.map((r) => r.checksum));
  return [...new Set(wanted)].filter((c) => !have.has(c));
}

/** The chunks' bytes concatenated in the order named; null when one is missing. */
export async function concatenateChunks(
  ds: DataSource,
  organizationId: string,
  checksums: string[],
): Promise<Buffer | null> {
  const rows = await queryRows<{ checksum: string; data: Buffer }>(
    ds,
    'SELECT checksum, data FROM artifact_chunks WHERE organization_id = $1 AND checksum = ANY($2::text[])',
    [organizationId, checksums],
  );
  const byName = new Map(rows.map((r) => [r.checksum, Buffer.from(r.data)]));
  const parts: Buffer[] = [];
  for (const c of checksums) {
    const part = byName.get(c);
    if (!part) return null;
    parts.push(part);
  }
  return Buffer.concat(parts);
}

export async function deleteChunks(ds: DataSource, organizationId: string, checksums: string[]): Promise<void> {
  await ds.query('DELETE FROM artifact_chunks WHERE organization_id = $1 AND checksum = ANY($2::text[])', [
    organizationId,
    checksums,
  ]);
}

/** Drops chunks uploaded more than 24 h before `now` and never assembled. Returns how many. */
export async function purgeExpiredChunks(ds: DataSource, now: number): Promise<number> {
  const rows = await queryRows<{ checksum: string }>(
    ds,
    'DELETE FROM artifact_chunks WHERE uploaded_at < $1 RETURNING checksum',
    [new Date(now - CHUNK_TTL_MS)],
  );
  return rows.length;
}
