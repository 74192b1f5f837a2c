/**
 * Usage and remaining quota through GraphQL (issue 5), in both storage modes, and the GraphQL
 * rate limit per token.
 *
 * Counts sent through the real ingest edge are read with `waitFor`: the edge reserves quota in
 * blocks and gives unused units back after ~2 s idle (docs/quotas.md), so a reading right after a
 * burst may include reserved units; once the edge is idle it is exact.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { quotaPeriod, usageRedisKey } from '@tracker/core';
import { createClient } from 'redis';
import { createTracker, type Tracker } from '../src';
import { createTestEnv, gql, gqlOk, MODES, sendError, signUpWithProject, waitFor, type TestEnv } from './helpers';

const EVENT = { type: 'TypeError', message: 'usage', environment: 'production' };

const USAGE = `query($o: ID!) { usage(organizationId: $o) {
  period periodEnd events { used limit remaining } logs { used limit remaining } } }`;

function nextMonthStart(now = new Date()): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString();
}

for (const mode of MODES) {
  describe(`usage in GraphQL (${mode})`, () => {
    let env: TestEnv;
    let tracker: Tracker;
    let redis: ReturnType<typeof createClient> | undefined;

    before(async () => {
      env = await createTestEnv(mode);
      tracker = await createTracker({ config: env.config });
      await tracker.listen();
      if (env.config.redisUrl) {
        redis = createClient({ url: env.config.redisUrl });
        await redis.connect();
      }
    });
    after(async () => {
      await redis?.quit().catch(() => undefined);
      await tracker?.close();
      await env?.cleanup();
    });

    /** Sets an organization's count for one meter where this mode keeps it (the row / key the edge counts in). */
    async function setUsage(organizationId: string, meter: 'events' | 'logs', count: number) {
      const period = quotaPeriod();
      if (redis) {
        await redis.set(usageRedisKey(env.config.redisPrefix, meter, organizationId, period), String(count));
      } else {
        await tracker.db.ds.query(
          `INSERT INTO org_usage (organization_id, meter, period, count) VALUES ($1, $2, $3, $4)
           ON CONFLICT (organization_id, meter, period) DO UPDATE SET count = excluded.count`,
          [organizationId, meter, period, count],
        );
      }
    }

    test('a member reads used, limit and remaining per meter; the period ends at the next UTC month', async () => {
      const a = await signUpWithProject(tracker.url);
      const fresh = await gqlOk(tracker.url, USAGE, { o: a.organization.id }, a.token);
      assert.deepEqual(fresh.usage, {
        period: quotaPeriod(),
        periodEnd: nextMonthStart(),
        events: { used: 0, limit: 5_000, remaining: 5_000 },
        logs: { used: 0, limit: 50_000, remaining: 50_000 },
      });
      await setUsage(a.organization.id, 'events', 4_321);
      await setUsage(a.organization.id, 'logs', 12);
      const d = await gqlOk(
        tracker.url,
        `query($o: ID!) { usage(organizationId: $o) { events { used limit remaining } logs { used remaining } }
           viewer { organizations { id usage { events { used } } } } }`,
        { o: a.organization.id },
        a.token,
      );
      assert.deepEqual(d.usage.events, { used: 4_321, limit: 5_000, remaining: 679 });
      assert.deepEqual(d.usage.logs, { used: 12, remaining: 49_988 });
      assert.equal(d.viewer.organizations[0].usage.events.used, 4_321);
      // Over the limit (a plan lowered mid-month): remaining stays at 0.
      await setUsage(a.organization.id, 'events', 6_000);
      const over = await gqlOk(tracker.url, USAGE, { o: a.organization.id }, a.token);
      assert.deepEqual(over.usage.events, { used: 6_000, limit: 5_000, remaining: 0 });
    });

    test('counts errors sent through the ingest edge', async () => {
      const a = await signUpWithProject(tracker.url);
      for (let i = 0; i < 7; i++) assert.equal((await sendError(tracker.url, a.key, EVENT)).status, 202);
      // Blocks reserved by the edge and not used go back after ~2 s idle (docs/quotas.md).
      const used = await waitFor('usage to settle at 7', async () => {
        const d = await gqlOk(tracker.url, USAGE, { o: a.organization.id }, a.token);
        return d.usage.events.used === 7 ? d.usage.events : undefined;
      });
      assert.deepEqual(used, { used: 7, limit: 5_000, remaining: 4_993 });
    });

    test('lists only organizations with a counter in the period, with their counts', async () => {
      const a = await signUpWithProject(tracker.url);
      const b = await signUpWithProject(tracker.url);
      await setUsage(a.organization.id, 'events', 10);
      await setUsage(b.organization.id, 'logs', 20);
      const lastMonth = quotaPeriod(new Date(Date.now() - 40 * 86_400_000));
      const strangers = [randomUUID(), randomUUID(), randomUUID()];
      if (redis) {
        const p = env.config.redisPrefix;
        await redis.set(usageRedisKey(p, 'events', strangers[0], lastMonth), '5');
        // Other keys under the prefix are not counters (rate windows, anything else the edge adds).
        await redis.set(`${p}:quota:reserved:${strangers[1]}:${quotaPeriod()}`, '7');
        await redis.set(`${p}:rate:${strangers[2]}:${quotaPeriod()}`, '1');
      } else {
        await tracker.db.ds.query(
          `INSERT INTO org_usage (organization_id, meter, period, count) VALUES ($1, 'events', $2, 5)`,
          [b.organization.id, lastMonth],
        );
      }
      const active = await tracker.usage!.listActive(quotaPeriod());
      assert.deepEqual(active.get(a.organization.id), { events: 10, logs: 0 });
      assert.deepEqual(active.get(b.organization.id), { events: 0, logs: 20 });
      for (const id of strangers) assert.equal(active.has(id), false, id);
      for (const [id, counts] of active) assert.ok(counts.events + counts.logs > 0, `${id} listed without a count`);
    });

    test("another organization's usage answers exactly like a missing one", async () => {
      const a = await signUpWithProject(tracker.url);
      const b = await signUpWithProject(tracker.url);
      await setUsage(a.organization.id, 'events', 99);
      const foreign = await gql(tracker.url, USAGE, { o: a.organization.id }, b.token);
      const missing = await gql(tracker.url, USAGE, { o: randomUUID() }, b.token);
      assert.equal(foreign.errors?.[0]?.extensions?.code, 'NOT_FOUND');
      assert.deepEqual(foreign, missing);
      assert.equal(JSON.stringify(foreign).includes('99'), false);
      const viaOrg = await gql(
        tracker.url,
        `query($o: ID!) { organization(id: $o) { usage { events { used } } } }`,
        {
          o: a.organization.id,
        },
        b.token,
      );
      assert.deepEqual(viaOrg, { data: { organization: null } });
      const anonymous = await gql(tracker.url, USAGE, { o: a.organization.id });
      assert.equal(anonymous.errors?.[0]?.extensions?.code, 'UNAUTHENTICATED');
    });
  });
}
