import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { registerRelease } from '@tracker/core';
import { createIssueFixture, HOUR_MS, type IssueFixture } from './issue-fixtures';

const RELEASES = `query($p: ID!, $env: String) { releases(projectId: $p, environment: $env) {
  version environment deployedAt
  health { issuesIntroduced regressions usersSeen crashedUsers crashFreeUsers windowStart windowEnd windowEvents
           enoughData eventsPerHour previousVersion previousEventsPerHour eventsPerHourRatio
           previousIssuesIntroduced previousRegressions previousCrashFreeUsers }
} }`;

/**
 * A seeded scenario whose figures are computed by hand below. Production deploys: 1.0 at D,
 * 1.1 at D+10h, 1.2 at D+20h (so 1.0 and 1.1 have closed ten-hour windows).
 *
 * 1.0 events: D+1h X u1 handled · D+2h X u2 handled:false · D+3h Z u3 fatal · D+4h X no user;
 *   staging D+2h X u9 fatal (another environment: ignored by production's figures).
 * X is resolved (in 1.0) before 1.1 is deployed.
 * 1.1 events: D+11h X u1 (regresses X) · D+12h Y u4 · D+25h Y u5 fatal (after 1.1's window).
 * Plus 20 events without a user in each of 1.0 (X, D+5h) and 1.1 (Y, D+13h), so both windows
 * are a large enough sample for a rate (hasEnoughHealthSample: 30 minutes and 20 events); 1.2
 * has none and gets no rate.
 */
const filler = (fingerprint: string, release: string, at: Date) =>
  Array.from({ length: 20 }, () => ({ fingerprint: [fingerprint], release, at }));
describe('release health (Pro and above)', () => {
  let f: IssueFixture;
  let owner: Awaited<ReturnType<IssueFixture['account']>>;
  const D = Math.floor(Date.now() / HOUR_MS) * HOUR_MS - 40 * HOUR_MS;
  const at = (h: number) => new Date(D + h * HOUR_MS);

  before(async () => {
    f = await createIssueFixture();
    owner = await f.account('pro');
    const p = owner.projectId;
    await registerRelease(f.db.ds, { projectId: p, version: '1.0', at: at(0) });
    await f.ingest(p, [
      { fingerprint: ['X'], release: '1.0', at: at(1), user: { id: 'u1' }, handled: true },
      { fingerprint: ['X'], release: '1.0', at: at(2), user: { id: 'u2' }, handled: false },
      { fingerprint: ['Z'], release: '1.0', at: at(3), user: { email: 'U3@example.com' }, level: 'fatal' },
      { fingerprint: ['X'], release: '1.0', at: at(4) },
      { fingerprint: ['X'], release: '1.0', at: at(2), environment: 'staging', user: { id: 'u9' }, level: 'fatal' },
      ...filler('X', '1.0', at(5)),
    ]);
    const [x]: Array<{ id: string }> = await f.db.ds.query(
      `SELECT DISTINCT issue_id AS id FROM events WHERE fingerprint = '["X"]'::jsonb AND project_id = $1`,
      [p],
    );
    await f.ok(`mutation($id: ID!) { resolveIssue(id: $id) { status } }`, { id: x.id }, owner.token);
    await registerRelease(f.db.ds, { projectId: p, version: '1.1', at: at(10) });
    await f.ingest(p, [{ fingerprint: ['X'], release: '1.1', at: at(11), user: { id: 'u1' } }]);
    await f.ingest(p, [
      { fingerprint: ['Y'], release: '1.1', at: at(12), user: { id: 'u4' } },
      { fingerprint: ['Y'], release: '1.1', at: at(25), user: { id: 'u5' }, level: 'fatal' },
      ...filler('Y', '1.1', at(13)),
    ]);
    await registerRelease(f.db.ds, { projectId: p, version: '1.2', at: at(20) });
    const regressed = (
      await f.ok(`query($id: ID!) { issue(id: $id) { status isRegression } }`, { id: x.id }, owner.token)
    ).issue;
    assert.deepEqual(regressed, { status: 'OPEN', isRegression: true });
  });
  after(() => f.close());

  test('figures match the hand-computed scenario', async () => {
    const releases = (await f.ok(RELEASES, { p: owner.projectId, env: 'production' }, owner.token)).releases;
    assert.deepEqual(
      releases.map((r: any) => r.version),
      ['1.2', '1.1', '1.0'],
    );
    const [r12, r11, r10] = releases.map((r: any) => r.health);
    assert.deepEqual(r10, {
      issuesIntroduced: 2, // X and Z
      regressions: 0,
      usersSeen: 3, // u1, u2, u3 (u9 is staging)
      crashedUsers: 2, // u2 unhandled, u3 fatal
      crashFreeUsers: 1 / 3,
      windowStart: at(0).toISOString(),
      windowEnd: at(10).toISOString(),
      windowEvents: 24,
      enoughData: true,
      eventsPerHour: 2.4,
      previousVersion: null,
      previousEventsPerHour: null,
      eventsPerHourRatio: null,
      previousIssuesIntroduced: null,
      previousRegressions: null,
      previousCrashFreeUsers: null,
    });
    assert.deepEqual(r11, {
      issuesIntroduced: 1, // Y (X was first seen in 1.0)
      regressions: 1, // X
      usersSeen: 3, // u1, u4, u5
      crashedUsers: 1, // u5 fatal (after the window, still in the release)
      crashFreeUsers: 2 / 3,
      windowStart: at(10).toISOString(),
      windowEnd: at(20).toISOString(),
      windowEvents: 22, // D+11h, D+12h and the 20 at D+13h; D+25h is after 1.2's deploy
      enoughData: true,
      eventsPerHour: 2.2,
      previousVersion: '1.0',
      previousEventsPerHour: 2.4,
      eventsPerHourRatio: 2.2 / 2.4,
      previousIssuesIntroduced: 2, // 1.0's figures, as above
      previousRegressions: 0,
      previousCrashFreeUsers: 1 / 3,
    });
    assert.equal(r12.usersSeen, 0);
    assert.equal(r12.crashFreeUsers, null);
    assert.equal(r12.windowEvents, 0);
    // No events for 20 hours: not a sample, so no rate and no trend (not "−100 %").
    assert.equal(r12.enoughData, false);
    assert.equal(r12.eventsPerHour, null);
    assert.equal(r12.previousVersion, '1.1');
    assert.equal(r12.previousEventsPerHour, 2.2);
    assert.equal(r12.eventsPerHourRatio, null);
    assert.equal(r12.previousIssuesIntroduced, 1);
    assert.equal(r12.previousRegressions, 1);
    assert.equal(r12.previousCrashFreeUsers, 2 / 3);
  });

  test('the previous release is compared even when the list stops before it', async () => {
    // The newest release alone: its previous deploy (1.1) is not in the answer, yet every
    // figure to compare with is there (a client comparing neighbours in the list could not).
    const [only] = (
      await f.ok(
        RELEASES.replace('environment: $env)', 'environment: $env, first: 1)'),
        {
          p: owner.projectId,
          env: 'production',
        },
        owner.token,
      )
    ).releases;
    assert.equal(only.version, '1.2');
    assert.deepEqual(
      [only.health.previousVersion, only.health.previousIssuesIntroduced, only.health.previousRegressions],
      ['1.1', 1, 1],
    );
    assert.equal(only.health.previousCrashFreeUsers, 2 / 3);
    assert.equal(only.health.previousEventsPerHour, 2.2);
  });

  test('on Free, health answers PLAN_REQUIRED while the releases themselves still list', async () => {
    await f.db.ds.query(`UPDATE organizations SET plan = 'free' WHERE id = $1`, [owner.organizationId]);
    try {
      const r = await f.run(RELEASES, { p: owner.projectId }, owner.token);
      assert.equal(r.data.releases.length, 3);
      assert.ok(r.data.releases.every((x: any) => x.health === null));
      assert.equal(r.errors.length, 3);
      assert.ok(r.errors.every((e: any) => e.extensions.code === 'PLAN_REQUIRED'));
      const plain = await f.ok(
        `query($p: ID!) { releases(projectId: $p) { version } }`,
        { p: owner.projectId },
        owner.token,
      );
      assert.equal(plain.releases.length, 3);
    } finally {
      await f.db.ds.query(`UPDATE organizations SET plan = 'pro' WHERE id = $1`, [owner.organizationId]);
    }
  });
});
