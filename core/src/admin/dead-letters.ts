import type { DataSource } from 'typeorm';
import { requireInstanceAdmin, type Caller } from '../access';
import { countDeadLetters, listDeadLetters, purgeDeadLetters, replayDeadLetters } from '../dead-letters';
import { AppError } from '../errors';

/**
 * A dead letter as the admin screen shows it: why and when, never its payload or project (the
 * payload is a tenant's event; decision 051). The operator command prints the same reason.
 */
export interface AdminDeadLetter {
  id: string;
  topic: string;
  kind: string | null;
  attempts: number;
  firstFailedAt: Date;
  lastFailedAt: Date;
  /** The first line of the last error, at most 300 characters. */
  reason: string;
}

const MAX_FIRST = 200;
/** A hundred years: any larger "older than" is a typo, and `make_interval` would overflow first. */
const MAX_DAYS = 36_500;

/** Newest first, with how many there are (instance admins only). */
export async function listDeadLettersForAdmin(
  ds: DataSource,
  caller: Caller,
  options: { first?: number } = {},
): Promise<{ nodes: AdminDeadLetter[]; totalCount: number }> {
  await requireInstanceAdmin(ds, caller, 'list dead letters');
  const first = options.first ?? 50;
  if (!Number.isInteger(first) || first < 1 || first > MAX_FIRST) {
    throw new AppError('BAD_USER_INPUT', `first: must be between 1 and ${MAX_FIRST}`);
  }
  const letters = await listDeadLetters(ds, { limit: first });
  return {
    totalCount: await countDeadLetters(ds),
    nodes: letters.map((d) => ({
      id: d.id,
      topic: d.topic,
      kind: d.kind,
      attempts: d.attempts,
      firstFailedAt: d.firstFailedAt,
      lastFailedAt: d.lastFailedAt,
      reason: d.error.split('\n')[0].slice(0, 300),
    })),
  };
}

/**
 * Queues dead letters again through `enqueue` (the server's queue of each topic), as the
 * operator command does; `ids` or `'all'`. Returns the ids replayed.
 */
export async function replayDeadLettersForAdmin(
  ds: DataSource,
  caller: Caller,
  ids: string[] | 'all',
  enqueue: ((topic: string, payloads: string[]) => Promise<void>) | undefined,
): Promise<string[]> {
  await requireInstanceAdmin(ds, caller, 'replay dead letters');
  if (ids !== 'all') {
    if (ids.length === 0 || ids.length > MAX_FIRST) {
      throw new AppError('BAD_USER_INPUT', `ids: name 1 to ${MAX_FIRST} dead letters, or replay all`);
    }
    const bad = ids.find((id) => !/^\d{1,18}$/.test(id));
    if (bad !== undefined) throw new AppError('BAD_USER_INPUT', `ids: "${bad.slice(0, 40)}" is not a dead letter's id`);
  }
  const into =
    enqueue ??
    (() => Promise.reject(new AppError('UNAVAILABLE', 'This process has no queue to replay dead letters into', 5)));
  return (await replayDeadLetters(ds, ids, into)).map((d) => d.id);
}

/** Deletes dead letters whose last failure is older than `olderThanDays` (0: all); returns how many. */
export async function purgeDeadLettersForAdmin(ds: DataSource, caller: Caller, olderThanDays: number): Promise<number> {
  await requireInstanceAdmin(ds, caller, 'purge dead letters');
  if (!Number.isInteger(olderThanDays) || olderThanDays < 0 || olderThanDays > MAX_DAYS) {
    throw new AppError('BAD_USER_INPUT', `olderThanDays: must be a whole number from 0 to ${MAX_DAYS}`);
  }
  return purgeDeadLetters(ds, olderThanDays);
}
