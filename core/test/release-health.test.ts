import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { signUp } from '../src/accounts';
import { openDatabase, type Database } from '../src/db';
import { ensurePartitionsBetween } from '../src/partitions';
import { createProject } from '../src/projects';
import {
  findReleaseHealth,
  hasEnoughHealthSample,
  MIN_HEALTH_EVENTS,
  MIN_HEALTH_WINDOW_MS,
  registerRelease,
} from '../src/releases';
import { createTestPostgres, type TestPostgres } from '../src/testing';

const HOUR = 3_600_000;
/** Years from the wall clock: a window that read it would end elsewhere. */
const DEPLOYED = Date.parse('2031-03-15T10:00:00.000Z');

describe('release health windows follow the time they are given (postgres)', () => {
  let pg: TestPostgres;
  let db: Database;

  before(async () => {
    pg = await createTestPostgres();
    db = await openDatabase({ databaseUrl: pg.url, dataDir: '' }, { migrate: true });
  });
  after(async () => {
    await db.close();
    await pg.drop();
  });

  test("the newest release's window ends at the given now and counts only events inside it", async () => {
    const s = await signUp(
      db.ds,
      { email: `${randomUUID()}@example.com`, password: 'correct horse battery', organizationName: 'Org' },
      'business',
    );
    const { project } = await createProject(db.ds, s.user.id, s.organization.id, 'p');
    const release = await registerRelease(db.ds, { projectId: project.id, version: '1.0.0', at: new Date(DEPLOYED) });
    const [issue] = await db.ds.query(
      `INSERT INTO issues (project_id, fingerprint, title, type, level, first_seen, last_seen, event_count)
       VALUES ($1, 'fp', 't', 'Error', 'error', $2, $2, 3) RETURNING id`,
      [project.id, new Date(DEPLOYED).toISOString()],
    );
    // Ten events at each of three times: the window's figures move with the now given.
    await ensurePartitionsBetween(db.ds, 'events', 365, new Date(DEPLOYED), new Date(DEPLOYED + 3 * HOUR));
    for (const after of [10 * 60_000, 30 * 60_000, 3 * HOUR]) {
      const at = new Date(DEPLOYED + after).toISOString();
      for (let i = 0; i < 10; i++) {
        await db.ds.query(
          `INSERT INTO events (project_id, issue_id, event_id, timestamp, received_at, level, type, message, environment, release, frames, tags, retention_days)
           VALUES ($1, $2, $3, $4, $4, 'error', 'Error', 'm', 'production', '1.0.0', '[]', '{}', 365)`,
          [project.id, issue.id, randomUUID(), at],
        );
      }
    }
    const health = (await findReleaseHealth(db.ds, [release.id], new Date(DEPLOYED + 2 * HOUR))).get(release.id)!;
    assert.equal(health.windowStart.getTime(), DEPLOYED);
    assert.equal(health.windowEnd.getTime(), DEPLOYED + 2 * HOUR);
    assert.equal(health.windowEvents, 20, 'the events after now are outside the window');
    assert.equal(health.enoughData, true);
    assert.equal(health.eventsPerHour, 10);

    const later = (await findReleaseHealth(db.ds, [release.id], new Date(DEPLOYED + 4 * HOUR))).get(release.id)!;
    assert.equal(later.windowEvents, 30);
    assert.equal(later.eventsPerHour, 7.5);

    // Twenty minutes after the deploy: ten events, too few and too soon for a rate.
    const early = (await findReleaseHealth(db.ds, [release.id], new Date(DEPLOYED + 20 * 60_000))).get(release.id)!;
    assert.equal(early.windowEvents, 10);
    assert.equal(early.enoughData, false);
    assert.equal(early.eventsPerHour, null, 'no rate below the minimum sample');
    // 35 minutes in, the twenty events of the first half hour make the sample.
    const enough = (await findReleaseHealth(db.ds, [release.id], new Date(DEPLOYED + 35 * 60_000))).get(release.id)!;
    assert.equal(enough.windowEvents, 20);
    assert.equal(enough.enoughData, true);
    assert.ok(enough.eventsPerHour !== null && Math.abs(enough.eventsPerHour - 20 / (35 / 60)) < 1e-9);
  });
});

describe('the minimum sample for release health', () => {
  const start = new Date(DEPLOYED);
  const at = (ms: number) => new Date(DEPLOYED + ms);

  test('needs both 30 minutes and 20 events', () => {
    const window = (ms: number, events: number) => ({ windowStart: start, windowEnd: at(ms), windowEvents: events });
    assert.equal(hasEnoughHealthSample(window(MIN_HEALTH_WINDOW_MS, MIN_HEALTH_EVENTS), at(HOUR)), true);
    assert.equal(hasEnoughHealthSample(window(MIN_HEALTH_WINDOW_MS - 1, 500), at(HOUR)), false, 'a busy minute');
    assert.equal(
      hasEnoughHealthSample(window(7 * 24 * HOUR, MIN_HEALTH_EVENTS - 1), at(8 * 24 * HOUR)),
      false,
      'a quiet week',
    );
    // One event a minute after the deploy: the walkthrough's "94.9 events/h".
    assert.equal(hasEnoughHealthSample(window(60_000, 1), at(60_000)), false);
  });

  test('measures the window up to the now it is given', () => {
    // A window whose end is later than now (a clock behind the database's) counts only to now.
    const window = { windowStart: start, windowEnd: at(HOUR), windowEvents: 100 };
    assert.equal(hasEnoughHealthSample(window, at(10 * 60_000)), false);
    assert.equal(hasEnoughHealthSample(window, at(HOUR)), true);
  });
});
