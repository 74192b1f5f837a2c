import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { pruneAlertRuleState } from '../src/alerts';
import { signUp } from '../src/accounts';
import { openDatabase, type Database } from '../src/db';
import { createProject } from '../src/projects';
import { createTempDir, createTestPostgres, type TestPostgres } from '../src/testing';

const NOW = new Date('2026-11-25T12:00:00.000Z');
const daysAgo = (d: number) => new Date(NOW.getTime() - d * 86_400_000).toISOString();

for (const kind of ['postgres', 'pglite'] as const) {
  describe(`alert rule state pruning (${kind})`, () => {
    let pg: TestPostgres | undefined;
    const dir = createTempDir();
    let db: Database;
    let projectId: string;

    before(async () => {
      pg = kind === 'postgres' ? await createTestPostgres() : undefined;
      db = await openDatabase({ databaseUrl: pg?.url, dataDir: dir.path }, { migrate: true });
      const owner = await signUp(
        db.ds,
        { email: `prune-${kind}@example.com`, password: 'correct horse battery', organizationName: 'Prune' },
        'pro',
      );
      projectId = (await createProject(db.ds, owner.user.id, owner.organization.id, 'p')).project.id;
    });
    after(async () => {
      await db.close();
      await pg?.drop();
      dir.remove();
    });

    async function issue(lastSeenDaysAgo: number): Promise<string> {
      const [row] = await db.ds.query(
        `INSERT INTO issues (project_id, fingerprint, title, type, level, first_seen, last_seen, event_count)
         VALUES ($1, $2, 'TypeError: x', 'TypeError', 'error', $3, $3, 1) RETURNING id`,
        [projectId, randomUUID(), daysAgo(lastSeenDaysAgo)],
      );
      return row.id;
    }
    async function rule(intervalMinutes: number): Promise<string> {
      const [row] = await db.ds.query(
        `INSERT INTO alert_rules (project_id, kind, channel_type, url, action_interval_minutes)
         VALUES ($1, 'ISSUE_FREQUENCY', 'WEBHOOK', 'https://hooks.example.com/x', $2) RETURNING id`,
        [projectId, intervalMinutes],
      );
      return row.id;
    }
    async function state(ruleId: string, subject: string, firedDaysAgo: number | null): Promise<void> {
      await db.ds.query(
        `INSERT INTO alert_rule_state (rule_id, subject, last_fired_at, events_since) VALUES ($1, $2, $3, 4)`,
        [ruleId, subject, firedDaysAgo === null ? null : daysAgo(firedDaysAgo)],
      );
    }

    test('deleted and long-quiet issues lose their state once the interval has passed; the rest stays', async () => {
      const halfHour = await rule(30);
      const month = await rule(43_200);
      const deleted = randomUUID(); // an issue merged away or deleted: no row in issues
      const quiet = await issue(40);
      const active = await issue(1);
      await state(halfHour, deleted, 2);
      await state(halfHour, quiet, 35);
      await state(halfHour, active, 35);
      await state(month, quiet, 10); // its 30-day interval has not passed: it still holds back the next alert
      await state(halfHour, 'project', 90); // the kinds without an issue keep their one row
      const quietNeverFired = await issue(31);
      await state(halfHour, quietNeverFired, null);

      assert.equal(await pruneAlertRuleState(db.ds, { now: NOW }), 3);
      const left = await db.ds.query(`SELECT rule_id, subject FROM alert_rule_state ORDER BY subject`);
      assert.deepEqual(
        left.map((r: any) => [r.rule_id === month ? 'month' : 'halfHour', r.subject]).sort(),
        [
          ['halfHour', active],
          ['halfHour', 'project'],
          ['month', quiet],
        ].sort(),
      );
      assert.equal(await pruneAlertRuleState(db.ds, { now: NOW }), 0, 'a second run has nothing to do');
    });
  });
}
