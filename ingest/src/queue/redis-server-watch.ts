import { errorMessage } from '@tracker/core';
import { createRecycler, createRedisClient, recycleOnTimeout, type Recycler } from './redis-client';

/** Each INFO / CONFIG GET fails after this long (and the connection is made again). */
const COMMAND_TIMEOUT_MS = 2_000;
/** How often the watch asks Redis who it is: a restart shows as a new `run_id`. */
const DEFAULT_INTERVAL_MS = 5_000;

/**
 * Redis's persistence settings as Tracker read them, or `unknown` when Redis refused CONFIG GET
 * (managed services often rename or forbid it).
 */
export interface RedisPersistence {
  appendonly: string;
  appendfsync: string;
  save: string;
  /** Whether what Redis acknowledged survives a restart of the Redis process. */
  survivesRestart: boolean | 'unknown';
  /** Why the settings are unknown (Redis's answer to CONFIG GET). */
  error?: string;
}

export interface RedisServerState {
  /** `run_id` from `INFO server`: a new one means a new Redis process. */
  runId: string | undefined;
  /** Restarts seen by this process since it started (`tracker_redis_restarts_total`). */
  restarts: number;
  persistence: RedisPersistence;
}

export interface RedisServerWatchOptions {
  url: string;
  intervalMs?: number;
  log: (level: 'info' | 'warn', message: string, data: Record<string, unknown>) => void;
}

/**
 * What the 202 promise needs from Redis (docs/reliability.md): the queue lives in Redis, so an
 * event accepted but not yet stored survives a Redis restart only when Redis writes it to its
 * append-only file. Without it, a Redis restart loses the backlog (issue 28: 1,201 of 3,261
 * accepted events lost). The watch reads the settings at start and warns, every start, when they
 * would lose accepted events; and it notices a Redis restart (a new `run_id`), logs it and
 * counts it. It has its own connection: nothing it does waits behind the queue's traffic.
 */
export class RedisServerWatch {
  private readonly state: RedisServerState = {
    runId: undefined,
    restarts: 0,
    persistence: unknownPersistence(),
  };
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  private stopped = false;

  private constructor(
    private readonly client: ReturnType<typeof createRedisClient>,
    private readonly recycler: Recycler,
    private readonly options: RedisServerWatchOptions,
  ) {}

  /** Connects, reads the server's identity and persistence (logging the warning), then polls. */
  static async start(options: RedisServerWatchOptions): Promise<RedisServerWatch> {
    // No offline queue: a poll while Redis is down fails at once instead of piling up.
    const client = createRedisClient(options.url, COMMAND_TIMEOUT_MS, { disableOfflineQueue: true });
    client.on('error', () => undefined); // reconnects by itself; a failed poll is retried next time
    await client.connect();
    const watch = new RedisServerWatch(client, createRecycler(client), options);
    await watch.poll(true);
    const interval = options.intervalMs ?? DEFAULT_INTERVAL_MS;
    watch.timer = setInterval(() => {
      watch.polling ??= watch.poll(false).finally(() => (watch.polling = undefined));
    }, interval);
    watch.timer.unref();
    return watch;
  }

  /** The last state read (for `/readyz` and `/metrics`). */
  get current(): Readonly<RedisServerState> {
    return this.state;
  }

  private command<T>(promise: Promise<T>): Promise<T> {
    return recycleOnTimeout(promise, this.recycler, COMMAND_TIMEOUT_MS);
  }

  private async poll(first: boolean): Promise<void> {
    let runId: string | undefined;
    try {
      runId = parseInfoField(await this.command(this.client.info('server')), 'run_id');
    } catch {
      // Redis is down or stuck (/readyz and the queue say so; the next poll compares), or INFO
      // is refused: the warning at start still needs the settings.
      if (!first) return;
    }
    const before = this.state.runId;
    this.state.runId = runId;
    const restarted = !first && before !== undefined && runId !== undefined && runId !== before;
    if (restarted) {
      this.state.restarts += 1;
    }
    if (first || restarted || this.state.persistence.survivesRestart === 'unknown') {
      this.state.persistence = await this.readPersistence();
    }
    if (restarted) {
      const lost = this.state.persistence.survivesRestart !== true;
      this.options.log(
        'warn',
        lost
          ? 'Redis restarted: events accepted but not yet stored may be lost (Redis does not persist them)'
          : 'Redis restarted',
        {
          runId,
          previousRunId: before,
          ...this.state.persistence,
        },
      );
    }
    if (first) this.warnAtStart();
  }

  private async readPersistence(): Promise<RedisPersistence> {
    try {
      const settings = await this.command(this.client.configGet(['appendonly', 'appendfsync', 'save']));
      const get = (name: string) => String((settings as Record<string, unknown>)[name] ?? 'unknown');
      const appendonly = get('appendonly');
      return {
        appendonly,
        appendfsync: get('appendfsync'),
        save: get('save'),
        survivesRestart: appendonly === 'yes' ? true : appendonly === 'no' ? false : 'unknown',
      };
    } catch (err) {
      return { ...unknownPersistence(), error: errorMessage(err) };
    }
  }

  private warnAtStart(): void {
    const p = this.state.persistence;
    if (p.survivesRestart === true) {
      this.options.log('info', 'Redis persists accepted events (appendonly yes)', { ...p, runId: this.state.runId });
      return;
    }
    if (p.survivesRestart === 'unknown') {
      this.options.log(
        'warn',
        "could not read Redis's persistence settings (CONFIG GET refused?): accepted events survive a Redis restart only with appendonly yes; check it with your provider (docs/reliability.md)",
        { ...p },
      );
      return;
    }
    const what =
      p.save.trim() === ''
        ? 'Redis keeps nothing on disk (appendonly no, save ""): a Redis restart loses every event accepted but not yet stored'
        : `Redis writes only snapshots (appendonly no, save "${p.save}"): a Redis restart loses the events accepted since the last snapshot and not yet stored`;
    this.options.log('warn', `${what}. Set appendonly yes (docs/reliability.md)`, { ...p });
  }

  async close(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.recycler.stop();
    await this.polling?.catch(() => undefined);
    if (!this.client.isOpen) return;
    // QUIT waits for an answer a stuck Redis never gives.
    const quit = this.client.quit().then(
      () => true,
      () => false,
    );
    if (!(await Promise.race([quit, new Promise<false>((r) => setTimeout(r, 1_000, false).unref())])))
      this.client.destroy();
  }
}

function unknownPersistence(): RedisPersistence {
  return { appendonly: 'unknown', appendfsync: 'unknown', save: 'unknown', survivesRestart: 'unknown' };
}

/** One `field:value` line of an INFO section. */
function parseInfoField(info: string, field: string): string | undefined {
  const line = info.split(/\r?\n/).find((l) => l.startsWith(`${field}:`));
  return line?.slice(field.length + 1).trim();
}
