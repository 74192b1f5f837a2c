import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { signUp } from '../src/accounts';
import { openDatabase, type Database } from '../src/db';
import { createProject } from '../src/projects';
import { findReleaseHealth, registerRelease } from '../src/releases';
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
    for (const after of [10 * 60_000, 30 * 60_000, 3 * HOUR]) {
      const at = new Date(DEPLOYED + after).toISOString();
      await db.ds.query(
        `INSERT INTO events (project_id, issue_id, event_id, timestamp, received_at, level, type, message, environment, release, frames, tags)
         VALUES ($1, $2, $3, $4, $4, 'error', 'Error', 'm', 'production', '1.0.0', '[]', '{}')`,
        [project.id, issue.id, randomUUID(), at],
      );
    }
    const health = (await findReleaseHealth(db.ds, [release.id], new Date(DEPLOYED + 2 * HOUR))).get(release.id)!;
    assert.equal(health.windowStart.getTime(), DEPLOYED);
    assert.equal(health.windowEnd.getTime(), DEPLOYED + 2 * HOUR);
    assert.equal(health.windowEvents, 2, 'the event after now is outside the window');
    assert.equal(health.eventsPerHour, 1);

    const later = (await findReleaseHealth(db.ds, [release.id], new Date(DEPLOYED + 4 * HOUR))).get(release.id)!;
    assert.equal(later.windowEvents, 3);
    assert.equal(later.eventsPerHour, 0.75);
  });
});
