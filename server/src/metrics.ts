import { countDeadLetters, countDeadLettersByStream, type Database } from '@tracker/core';
import {
  RedisStreamQueue,
  ShardedQueue,
  type IngestCounters,
  type KeyCache,
  type Queue,
  type RedisServerState,
  type RunningWorker,
} from '@tracker/ingest';

export interface MetricsSources {
  db: Database;
  queue: Queue;
  alertsQueue: Queue;
  /** This process's worker, when it has the role. */
  worker: () => RunningWorker | undefined;
  /** This process's ingest refusals, when it has the role. */
  ingest: IngestCounters | undefined;
  /** The ingest role's DSN key cache (lookups that failed, stale keys served). */
  keys?: KeyCache;
  /** Redis's identity and persistence as the watch last read them; with REDIS_URL only. */
  redis?: Readonly<RedisServerState>;
}

/** A probe that does not answer in this time is reported as failed: a scrape never hangs. */
const PROBE_TIMEOUT_MS = 800;

/**
 * `GET /metrics` in Prometheus's text format. Gauges read from the database and the queue
 * (queue depth, dead letters) are the same from every process; counters are this process's
 * own since it started, as Prometheus expects (it sums them over processes). A probe that
 * fails or times out is left out and `tracker_probe_up{probe}` says 0, so a stuck dependency
 * shows in the scrape instead of hanging it.
 */
export async function renderMetrics(sources: MetricsSources): Promise<string> {
  const sharded = sources.queue instanceof ShardedQueue ? sources.queue : undefined;
  const [shardStates, alerts, dead] = await Promise.all([
    sharded ? probe(() => sharded.states(PROBE_TIMEOUT_MS - 100)) : Promise.resolve(undefined),
    probe(() => sources.alertsQueue.depth()),
    probe(() => countDeadLetters(sources.db.ds)),
  ]);
  // Sharded: the total is the sum of the shards, and only when every one of them answered.
  const jobs = sharded
    ? shardStates?.every((s) => s.depth !== undefined)
      ? shardStates.reduce((n, s) => n + (s.depth ?? 0), 0)
      : undefined
    : await probe(() => sources.queue.depth());
  const out: string[] = [];
  const metric = (name: string, type: 'gauge' | 'counter', help: string, samples: Array<[string, number]>) => {
    if (samples.length === 0) return;
    out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
    for (const [labels, value] of samples) out.push(`${name}${labels} ${value}`);
  };
  metric('tracker_probe_up', 'gauge', 'Whether the probe behind a gauge answered in time (1) or not (0).', [
    ['{probe="queue_depth"}', jobs === undefined ? 0 : 1],
    ['{probe="alerts_queue_depth"}', alerts === undefined ? 0 : 1],
    ['{probe="dead_letters"}', dead === undefined ? 0 : 1],
  ]);
  metric(
    'tracker_queue_depth',
    'gauge',
    'Jobs waiting in a queue (events, logs, vitals and feedback in "jobs"; alert deliveries in "alerts").',
    [
      ...(jobs === undefined ? [] : [[`{queue="jobs",backend="${sources.queue.kind}"}`, jobs] as [string, number]]),
      ...(alerts === undefined
        ? []
        : [[`{queue="alerts",backend="${sources.alertsQueue.kind}"}`, alerts] as [string, number]]),
    ],
  );
  if (shardStates) {
    metric(
      'tracker_queue_shard_up',
      'gauge',
      'Whether the Redis node of a shard of the jobs queue answered (1) or not (0); docs/scaling.md.',
      shardStates.map((s) => [`{queue="jobs",shard="${s.shard}"}`, s.depth === undefined ? 0 : 1]),
    );
    metric(
      'tracker_queue_shard_depth',
      'gauge',
      'Jobs waiting in one shard (stream) of the jobs queue; absent for a shard whose node did not answer.',
      shardStates.flatMap((s) =>
        s.depth === undefined ? [] : [[`{queue="jobs",shard="${s.shard}"}`, s.depth] as [string, number]],
      ),
    );
  }
  metric(
    'tracker_dead_letters',
    'gauge',
    'Jobs set aside after their last attempt (npm run tracker -- dead-letter:list).',
    dead === undefined ? [] : [['', dead]],
  );
  if (shardStates) {
    const byStream = await probe(() => countDeadLettersByStream(sources.db.ds));
    metric(
      'tracker_queue_shard_dead_letters',
      'gauge',
      'Dead letters set aside from one shard of the jobs queue.',
      byStream === undefined
        ? []
        : shardStates.map(
            (s) => [`{queue="jobs",shard="${s.shard}"}`, byStream.get(s.stream) ?? 0] as [string, number],
          ),
    );
  }
  const worker = sources.worker();
  if (worker) {
    const s = worker.stats;
    metric('tracker_events_stored_total', 'counter', "Error events stored by this process's worker.", [['', s.events]]);
    metric(
      'tracker_events_duplicate_total',
      'counter',
      'Deliveries of an event already stored (SDK or queue retries).',
      [['', s.duplicates]],
    );
    metric(
      'tracker_events_discarded_total',
      'counter',
      'Error events dropped without being stored, by reason and where (the edge, or the worker when the edge could not tell).',
      [
        ...Object.entries(s.discardedByReason).map(
          ([reason, n]) => [`{reason="${reason}",where="worker"}`, n] as [string, number],
        ),
        ...(sources.ingest
          ? [...sources.ingest.discarded]
              .sort()
              .map(([reason, n]) => [`{reason="${reason}",where="edge"}`, n] as [string, number])
          : []),
      ],
    );
    metric('tracker_worker_batches_total', 'counter', "Batches committed by this process's worker.", [['', s.batches]]);
    metric(
      'tracker_worker_failures_total',
      'counter',
      "Failures in this process's worker, by where they happened (docs/reliability.md).",
      Object.entries(s.failuresByCause).map(([cause, n]) => [`{cause="${cause}"}`, n]),
    );
    metric('tracker_worker_dead_lettered_total', 'counter', "Jobs this process's worker set aside as dead letters.", [
      ['', s.deadLettered],
    ]);
    metric(
      'tracker_worker_transient_retries_total',
      'counter',
      'Retries through a database or queue outage (never counted as attempts).',
      [['', s.transientRetries]],
    );
    metric(
      'tracker_worker_relocked_batches_total',
      'counter',
      "Batches redone with their issues locked first, after a user action changed one of them during the batch's transaction.",
      [['', s.relockedBatches]],
    );
  }
  if (sources.ingest && !worker) {
    metric(
      'tracker_events_discarded_total',
      'counter',
      'Error events dropped without being stored, by reason and where (the edge, or the worker when the edge could not tell).',
      [...sources.ingest.discarded].sort().map(([reason, n]) => [`{reason="${reason}",where="edge"}`, n]),
    );
  }
  if (sources.ingest) {
    metric(
      'tracker_ingest_dropped_total',
      'counter',
      'Ingest requests refused by this process, by reason (the wire error code).',
      [...sources.ingest.refused].sort().map(([code, n]) => [`{reason="${code.toLowerCase()}"}`, n]),
    );
    metric(
      'tracker_sentry_items_dropped_total',
      'counter',
      'Sentry envelope items this process accepted and dropped without storing them, by item type (unknown types: other).',
      [...sources.ingest.sentryItemsDropped].sort().map(([type, n]) => [`{type="${type}"}`, n]),
    );
    metric(
      'tracker_otlp_spans_dropped_total',
      'counter',
      'OTLP spans this process accepted and dropped because they carry no exception event (Tracker stores no traces).',
      [['', sources.ingest.otlpSpansDropped]],
    );
  }
  if (sources.redis) {
    metric(
      'tracker_redis_restarts_total',
      'counter',
      'Redis restarts this process saw (a new run_id in INFO server).',
      [['', sources.redis.restarts]],
    );
    const survives = sources.redis.persistence.survivesRestart;
    metric(
      'tracker_redis_persistent',
      'gauge',
      'Whether Redis keeps accepted events through a restart (appendonly yes: 1, no: 0); absent when CONFIG GET is refused.',
      survives === 'unknown' ? [] : [['', survives ? 1 : 0]],
    );
  }
  const groups: Array<[string, number]> = [];
  if (sources.queue instanceof RedisStreamQueue || sources.queue instanceof ShardedQueue)
    groups.push(['{queue="jobs"}', sources.queue.groupsRecreated]);
  if (sources.alertsQueue instanceof RedisStreamQueue)
    groups.push(['{queue="alerts"}', sources.alertsQueue.groupsRecreated]);
  metric(
    'tracker_queue_group_recreated_total',
    'counter',
    'Times this process made a Redis consumer group again after Redis lost it (a restart without persistence).',
    groups,
  );
  if (sources.keys) {
    const k = sources.keys.stats;
    metric(
      'tracker_ingest_key_lookups_failed_total',
      'counter',
      'DSN key lookups that could not reach the database (known keys are then served from the cache, up to its stale limit).',
      [['', k.lookupsFailed]],
    );
    metric(
      'tracker_ingest_stale_keys_served_total',
      'counter',
      'Requests authenticated with a DSN key past its cache TTL because the database could not be read.',
      [['', k.staleServed]],
    );
  }
  return `${out.join('\n')}\n`;
}

async function probe<T>(read: () => Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      read(),
      new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), PROBE_TIMEOUT_MS);
      }),
    ]);
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}
