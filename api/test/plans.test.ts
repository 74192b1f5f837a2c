import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createApiToken, PLAN_IDS, PLANS, releaseHealthPlanNames, type Plan } from '@tracker/core';
import { createIssueFixture, type IssueFixture } from './issue-fixtures';

const PLANS_QUERY = `{ plans { id name eventsPerMonth logsPerMonth retentionDays releaseHealth cronMonitors uptimeMonitors } }`;

/** Core's table in catalogue order: what the API must answer, field for field. */
const coreCatalogue = () =>
  PLAN_IDS.map((id) => {
    const { name, eventsPerMonth, logsPerMonth, retentionDays, releaseHealth, cronMonitors, uptimeMonitors } =
      PLANS[id];
    return { id, name, eventsPerMonth, logsPerMonth, retentionDays, releaseHealth, cronMonitors, uptimeMonitors };
  });

describe('plans: the catalogue from core', () => {
  let f: IssueFixture;
  let owner: Awaited<ReturnType<IssueFixture['account']>>;

  before(async () => {
    f = await createIssueFixture();
    owner = await f.account('free');
  });
  after(() => f.close());

  test("answers core's plan table, cheapest first, whatever the caller's plan", async () => {
    const { plans } = await f.ok(PLANS_QUERY, {}, owner.token);
    assert.deepEqual(plans, coreCatalogue());
    assert.deepEqual(
      plans.map((p: Plan) => p.id),
      ['free', 'pro', 'business'],
    );
    // The plan table of docs/quotas.md, as a sanity check on the table itself.
    assert.deepEqual(
      plans.map((p: Plan) => [p.eventsPerMonth, p.retentionDays, p.releaseHealth, p.cronMonitors, p.uptimeMonitors]),
      [
        [5_000, 30, false, 1, 1],
        [100_000, 90, true, 20, 20],
        [1_000_000, 365, true, 100, 100],
      ],
    );
  });

  test('reads the table on every call: a change to core shows at once (nothing copied in the API)', async () => {
    // The table is the one source the quotas, retention and release-health checks read; a
    // copy in the resolver would pass the comparison above today and drift tomorrow.
    const pro = PLANS.pro as { -readonly [K in keyof Plan]: Plan[K] };
    const saved = { ...pro };
    try {
      Object.assign(pro, { name: 'Pro Plus', eventsPerMonth: 123_456, logsPerMonth: 7, retentionDays: 42 });
      const { plans } = await f.ok(PLANS_QUERY, {}, owner.token);
      assert.deepEqual(plans, coreCatalogue());
      assert.deepEqual(plans[1], {
        id: 'pro',
        name: 'Pro Plus',
        eventsPerMonth: 123_456,
        logsPerMonth: 7,
        retentionDays: 42,
        releaseHealth: true,
        cronMonitors: 20,
        uptimeMonitors: 20,
      });
      // The refusal on Free names the plans that include release health from the same table.
      assert.equal(releaseHealthPlanNames(), 'Pro Plus or Business');
      Object.assign(pro, { releaseHealth: false });
      assert.equal(releaseHealthPlanNames(), 'Business');
    } finally {
      Object.assign(pro, saved);
    }
    assert.equal(releaseHealthPlanNames(), 'Pro or Business');
  });

  test('an API token of the least scope (read) may read it; signed out, it answers UNAUTHENTICATED', async () => {
    const { token } = await createApiToken(f.db.ds, owner.userId, { name: 'status page', scopes: ['read'] });
    assert.deepEqual((await f.ok(PLANS_QUERY, {}, token)).plans, coreCatalogue());
    const signedOut = await f.run(PLANS_QUERY);
    assert.equal(signedOut.errors?.[0]?.extensions?.code, 'UNAUTHENTICATED');
    assert.equal(signedOut.data, null);
  });
});
