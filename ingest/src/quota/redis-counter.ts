import { usageRedisKey, type UsageMeter } from '@tracker/core';
import { createRecycler, createRedisClient, recycleOnTimeout, type Recycler } from '../queue/redis-client';
import type { Counter, Reservation } from './counter';

/**
 * Adds min(ARGV[2], ARGV[1] - count) to KEYS[1] and answers {added, count}; the first addition
 * sets the expiry ARGV[3]. One round trip, atomic, so concurrent processes never overshoot.
 */
const RESERVE = `local c = tonumber(redis.call('GET', KEYS[1]) or '0')
local n = math.min(tonumber(ARGV[2]), tonumber(ARGV[1]) - c)
if n <= 0 then return {0, c} end
local after = redis.call('INCRBY', KEYS[1], n)
if after == n then redis.call('EXPIRE', KEYS[1], ARGV[3]) end
return {n, after}`;

/** Takes back ARGV[1] units, never below zero. */
const RELEASE = `local c = tonumber(redis.call('GET', KEYS[1]) or '0')
local n = math.min(tonumber(ARGV[1]), c)
if n > 0 then redis.call('DECRBY', KEYS[1], n) end
return n`;

/**
 * A count not answered in this time fails, and the connection is made again. Counts are asked
 * once per block of units, not per request, so a timer each costs nothing that matters.
 */
const COUNTER_TIMEOUT_MS = 2_000;

type RedisClient = ReturnType<typeof createRedisClient>;

/** Production: counts in Redis, shared by every ingest process. */
export class RedisCounter implements Counter {
  private readonly recycler: Recycler;

  private constructor(
    private readonly client: RedisClient,
    private readonly prefix: string,
  ) {
    this.recycler = createRecycler(client);
  }

  static async connect(url: string, prefix: string): Promise<RedisCounter> {
    const client = createRedisClient(url, COUNTER_TIMEOUT_MS);
    client.on('error', () => undefined); // reconnects by itself; callers see failed commands
    await client.connect();
    return new RedisCounter(client, prefix);
  }

  reserve(
    organizationId: string,
    meter: UsageMeter,
    period: string,
    limit: number,
    want: number,
    ttlSeconds: number,
  ): Promise<Reservation> {
    return this.reserveAt(usageRedisKey(this.prefix, meter, organizationId, period), limit, want, ttlSeconds);
  }

  async release(organizationId: string, meter: UsageMeter, period: string, units: number): Promise<void> {
    await recycleOnTimeout(
      this.client.eval(RELEASE, {
        keys: [usageRedisKey(this.prefix, meter, organizationId, period)],
        arguments: [String(units)],
      }),
      this.recycler,
      COUNTER_TIMEOUT_MS,
    );
  }

  reserveRate(keyId: string, second: string, limit: number, want: number): Promise<Reservation> {
    return this.reserveAt(`${this.prefix}:rate:${keyId}:${second}`, limit, want, 2);
  }

  private async reserveAt(key: string, limit: number, want: number, ttlSeconds: number): Promise<Reservation> {
    const result = (await recycleOnTimeout(
      this.client.eval(RESERVE, { keys: [key], arguments: [String(limit), String(want), String(ttlSeconds)] }),
      this.recycler,
      COUNTER_TIMEOUT_MS,
    )) as unknown as [number, number];
    return { granted: Number(result[0]), used: Number(result[1]) };
  }

  async close(): Promise<void> {
    this.recycler.stop();
    // QUIT waits for Redis's answer, which a stuck Redis never gives.
    const quit = this.client.quit().then(
      () => true,
      () => true,
    );
    const answered = await Promise.race([quit, new Promise<false>((r) => setTimeout(r, 1_000, false).unref())]);
    if (!answered) this.client.destroy();
  }
}
