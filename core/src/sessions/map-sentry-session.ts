import { createHash } from 'node:crypto';
import { AppError } from '../errors';
import { isObject, objectOf, textOf, type JsonObject } from '../sentry/sentry-values';
import {
  MAX_AGGREGATE_BUCKETS,
  MAX_BUCKET_SESSIONS,
  type SessionAggregate,
  type SessionBody,
  type SessionUpdate,
} from './session.schema';

const STATUSES = new Set<SessionUpdate['status']>(['ok', 'exited', 'errored', 'crashed', 'abnormal']);
const MAX_RELEASE_CHARS = 200;
const MAX_ENVIRONMENT_CHARS = 64;
const COUNTS = ['exited', 'errored', 'crashed', 'abnormal'] as const;

/**
 * A user's `did` as the 32-hex key the worker counts distinct users by. Only the hash leaves the
 * edge: crash-free users needs to tell users apart, never to name them.
 */
export function sessionUserHash(did: string): string {
  return createHash('sha256').update(did).digest('hex').slice(0, 32);
}

/**
 * A Sentry `session` item (one session's update: `sid`, `init`, `status`, `errors`, `did`,
 * `attrs.release`) or `sessions` item (`aggregates: [{started, did?, exited, errored, crashed,
 * abnormal}]` with `attrs`, which @sentry/node sends for requests) as the body of a session
 * job. Throws BAD_USER_INPUT naming what is wrong: Relay drops a session without a release, and
 * so do we, since release health is per release.
 */
export function mapSentrySession(payload: unknown, itemType: 'session' | 'sessions'): SessionBody {
  if (!isObject(payload)) throw bad('must be a JSON object');
  const attrs = objectOf(payload.attrs) ?? {};
  const release = textOf(attrs.release);
  if (!release) throw bad('attrs.release is required (release health is counted per release)');
  if (release.length > MAX_RELEASE_CHARS) throw bad(`attrs.release is longer than ${MAX_RELEASE_CHARS} characters`);
  const environment = (textOf(attrs.environment) ?? 'production').slice(0, MAX_ENVIRONMENT_CHARS);
  return itemType === 'sessions'
    ? { kind: 'aggregate', ...aggregateOf(payload, release, environment) }
    : { kind: 'update', ...updateOf(payload, release, environment) };
}

function updateOf(p: JsonObject, release: string, environment: string): SessionUpdate {
  const sid = typeof p.sid === 'string' ? p.sid.replace(/-/g, '').toLowerCase() : '';
  if (!/^[0-9a-f]{32}$/.test(sid)) throw bad('sid must be a UUID');
  if (p.init !== undefined && typeof p.init !== 'boolean') throw bad('init must be true or false');
  const status = p.status ?? 'ok';
  if (typeof status !== 'string' || !STATUSES.has(status as SessionUpdate['status'])) {
    throw bad('status must be one of ok, exited, errored, crashed, abnormal');
  }
  const errors = p.errors ?? 0;
  if (typeof errors !== 'number' || !Number.isInteger(errors) || errors < 0) {
    throw bad('errors must be a whole number, 0 or more');
  }
  const did = textOf(p.did);
  return {
    sid,
    init: p.init === true,
    status: status as SessionUpdate['status'],
    errors: Math.min(errors, 1_000_000),
    ...(did ? { userHash: sessionUserHash(did) } : {}),
    release,
    environment,
  };
}

/**
 * Buckets without a `did` are summed into one; those with one, per user. So a 10,000-bucket
 * aggregate cannot make 10,000 rows of anything but distinct users, and those are bounded too.
 */
function aggregateOf(p: JsonObject, release: string, environment: string): SessionAggregate {
  if (!Array.isArray(p.aggregates) || p.aggregates.length === 0) throw bad('aggregates must be a non-empty array');
  if (p.aggregates.length > MAX_AGGREGATE_BUCKETS) {
    throw bad(`aggregates has more than ${MAX_AGGREGATE_BUCKETS} entries; send them in several items`);
  }
  type Bucket = SessionAggregate['buckets'][number];
  const byUser = new Map<string, Bucket>();
  for (const [i, raw] of p.aggregates.entries()) {
    if (!isObject(raw)) throw bad(`aggregates[${i}] must be an object`);
    const did = textOf(raw.did);
    const key = did ? sessionUserHash(did) : '';
    const bucket = byUser.get(key) ?? {
      ...(did ? { userHash: key } : {}),
      exited: 0,
      errored: 0,
      crashed: 0,
      abnormal: 0,
    };
    for (const name of COUNTS) {
      const n = raw[name] ?? 0;
      if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > MAX_BUCKET_SESSIONS) {
        throw bad(`aggregates[${i}].${name} must be a whole number from 0 to ${MAX_BUCKET_SESSIONS}`);
      }
      bucket[name] = Math.min(bucket[name] + n, MAX_BUCKET_SESSIONS);
    }
    byUser.set(key, bucket);
  }
  return { release, environment, buckets: [...byUser.values()] };
}

function bad(message: string): AppError {
  return new AppError('BAD_USER_INPUT', message);
}
