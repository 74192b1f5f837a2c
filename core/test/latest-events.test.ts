/**
 * `findLatestEvents` (every issue's `latestEvent`: the issue page, the issues list's API) must
 * cost one index probe per issue, not a read of the issue's events: an issue with 100,000 events
 * took 1.3 s to render before (docs/benchmarks.md, dashboard render bench). Checked on both
 * engines through the plan of the statement it actually sends.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { signUp } from '../src/accounts';
import { loadConfig } from '../src/config';
import { openDatabase, type Database } from '../src/db';
import { findLatestEvents } from '../src/issues';
import { ensurePartitionsBetween } from '../src/partitions';
import { createProject } from '../src/projects';
import { captureQueries, createTempDir, createTestPostgres, type TestPostgres } from '../src/testing';

const BIG_ISSUE_EVENTS = 5_000;

for (const kind of ['postgres', 'pglite'] as const) {
  describe(`latest event per issue (${kind})`, () => {
    let pg: TestPostgres | undefined;
    const dir = createTempDir();
    let db: Database;
    const issue: Record<'big' | 'tied' | 'empty', string> = { big: '', tied: '', empty: '' };

    before(async () => {
      pg = kind === 'postgres' ? await createTestPostgres() : undefined;
      db = await openDatabase(loadConfig({ TRACKER_DATA_DIR: dir.path, ...(pg ? { DATABASE_URL: pg.url } : {}) }), {
        migrate: true,
      });
      const s = await signUp(
        db.ds,
        { email: `${randomUUID()}@example.com`, password: 'correct horse battery', organizationName: 'Org' },
        'free',
      );
      const { project } = await createProject(db.ds, s.user.id, s.organization.id, 'p');
      for (const name of Object.keys(issue) as Array<keyof typeof issue>) {
        const [row] = await db.ds.query(
          `INSERT INTO issues (project_id, fingerprint, title, type, level, first_seen, last_seen)
           VALUES ($1, $2, $2, 'Error', 'error', now(), now()) RETURNING id`,
          [project.id, name],
        );
        issue[name] = row.id;
      }
      // The big issue's newest event is in the middle of the insert order; the tied issue's two
      // newest share a timestamp, and the later-inserted one (larger id) is the latest.
      const insert = (issueId: string, message: string, seconds: string) =>
        db.ds.query(
          `INSERT INTO events (project_id, issue_id, event_id, timestamp, received_at, level, type, message,
                               environment, frames, tags, retention_days)
           SELECT $1, $2, gen_random_uuid(), ts, ts, 'error', 'Error', ${message}, 'production', '[]', '{}', 30
             FROM generate_series(0, $3::int - 1) s
            CROSS JOIN LATERAL (SELECT '2026-06-01T00:00:00Z'::timestamptz + (${seconds} || ' seconds')::interval AS ts) t`,
          [project.id, issueId, issueId === issue.big ? BIG_ISSUE_EVENTS : 3],
        );
      await ensurePartitionsBetween(
        db.ds,
        'events',
        30,
        new Date('2026-06-01T00:00:00Z'),
        new Date('2026-06-13T00:00:00Z'),
      );
      await insert(issue.big, `'big ' || s`, `CASE WHEN s = 1234 THEN 999999 ELSE s END`);
      await insert(issue.tied, `'tied ' || s`, `least(s, 1)`);
      await db.ds.query('ANALYZE events');
    });
    after(async () => {
      await db.close();
      await pg?.drop();
      dir.remove();
    });

    test('answers the newest event of each issue (ties: the larger id), none for an issue without events', async () => {
      const latest = await findLatestEvents(db.ds, [issue.big, issue.tied, issue.empty]);
      assert.deepEqual(
        [...latest.entries()].map(([id, e]) => [id, e.issueId, e.message]).sort(),
        [
          [issue.big, issue.big, 'big 1234'],
          [issue.tied, issue.tied, 'tied 2'],
        ].sort(),
      );
      const big = latest.get(issue.big)!;
      assert.equal(big.timestamp.toISOString(), '2026-06-12T13:46:39.000Z');
      assert.equal(typeof big.id, 'string');
      assert.deepEqual([big.frames, big.tags, big.environment], [[], {}, 'production']);
    });

    test('reads one event row per issue, however many events an issue has', async () => {
      const { sent } = await captureQueries(db.ds, () => findLatestEvents(db.ds, [issue.big, issue.tied]));
      assert.equal(sent.length, 1, 'one statement');
      const [{ 'QUERY PLAN': plan }] = await db.ds.query(
        `EXPLAIN (ANALYZE, FORMAT JSON) ${sent[0].sql}`,
        sent[0].params,
      );
      const parsed = typeof plan === 'string' ? JSON.parse(plan) : plan;
      let eventRowsRead = 0;
      const walk = (node: any) => {
        // The week partitions of events (decision 029): events_r30_20260601, …
        if (/^events(_r\d+_\d{8})?$/.test(node['Relation Name'] ?? ''))
          eventRowsRead += Math.round(node['Actual Rows'] * node['Actual Loops']);
        for (const child of node.Plans ?? []) walk(child);
      };
      walk(parsed[0].Plan);
      // The merge of the week partitions reads the newest row of each week holding the issue's
      // events (the big issue's span two weeks, the tied one's one): bounded by weeks, not events.
      // (PostgreSQL 15 shows per-loop averages rounded down, so 3 can show as 2.)
      assert.ok(eventRowsRead >= 2 && eventRowsRead <= 3, JSON.stringify(parsed[0].Plan));
    });
  });
}
