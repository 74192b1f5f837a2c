/**
 * Issue 29: the issue page's event reads at scale. Seeds `EVENTS` events (default 1,000,000) over
 * 100 issues, issue 0 holding `BIG` of them (default 200,000), on PostgreSQL, and times
 * `findEventNeighbours` (oldest / older / newer / latest) and `findIssueEvent` (the event by its
 * UUID within the issue's project) for events at the start, middle and end of the big issue,
 * each run 20 times after a warm-up (median), and prints the plan of the neighbours' statement.
 *
 *   npx tsx --tsconfig ../tsconfig.json --conditions=@tracker/source bench/event-navigation.bench.ts
 */
import { randomUUID } from 'node:crypto';
import { createProject, findEventNeighbours, findIssueEvent, loadConfig, openDatabase, signUp } from '../src';
import { createTempDir, createTestPostgres, seedIssues } from '../src/testing';

const EVENTS = Number(process.env.EVENTS ?? 1_000_000);
const BIG = Number(process.env.BIG ?? 200_000);

async function main() {
  const pg = await createTestPostgres();
  const dir = createTempDir();
  const db = await openDatabase(
    loadConfig({ DATABASE_URL: pg.url, TRACKER_DATA_DIR: dir.path, TRACKER_LOG_LEVEL: 'silent' }),
    { migrate: true },
  );
  try {
    const ds = db.ds;
    const account = await signUp(
      ds,
      { email: `nav-${randomUUID()}@example.com`, password: 'correct horse battery', organizationName: 'Nav' },
      'pro',
    );
    const { project } = await createProject(ds, account.user.id, account.organization!.id, 'Web');
    const started = performance.now();
    const seeded = await seedIssues(ds, project.id, { events: EVENTS, issues: 100, bigIssueEvents: BIG });
    console.log(
      `seeded ${seeded.events} events over ${seeded.issues} issues in ${((performance.now() - started) / 1000).toFixed(0)} s (${seeded.tableSize}, ${seeded.serverVersion})`,
    );
    await ds.query('ANALYZE events');
    const [issue] = await ds.query(
      `SELECT i.id, i.project_id AS "projectId" FROM issues i WHERE i.project_id = $1 ORDER BY i.event_count DESC LIMIT 1`,
      [project.id],
    );
    const picks: Array<{ where: string; eventId: string }> = [];
    for (const [where, order, offset] of [
      ['oldest', 'ASC', 0],
      ['middle', 'ASC', Math.floor(BIG / 2)],
      ['latest', 'DESC', 0],
    ] as const) {
      const [row] = await ds.query(
        `SELECT event_id FROM events WHERE issue_id = $1 ORDER BY timestamp ${order}, id ${order} OFFSET $2 LIMIT 1`,
        [issue.id, offset],
      );
      picks.push({ where, eventId: row.event_id });
    }
    const median = async (f: () => Promise<unknown>) => {
      await f();
      const times: number[] = [];
      for (let i = 0; i < 20; i++) {
        const t = performance.now();
        await f();
        times.push(performance.now() - t);
      }
      return times.sort((a, b) => a - b)[10];
    };
    for (const p of picks) {
      const nav = await median(() =>
        findEventNeighbours(ds, { issueId: issue.id, projectId: issue.projectId, eventId: p.eventId }),
      );
      const one = await median(() => findIssueEvent(ds, issue, p.eventId));
      console.log(
        `${p.where} event of a ${BIG}-event issue: navigation ${nav.toFixed(2)} ms, Issue.event(id) ${one.toFixed(2)} ms (median of 20)`,
      );
    }
    const [me] = await ds.query(
      `SELECT to_char(timestamp AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS ts, id::text AS id
         FROM events WHERE event_id = $1`,
      [picks[1].eventId],
    );
    const plan = await ds.query(
      `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) SELECT event_id FROM events WHERE issue_id = $1
         AND (timestamp, id) < ($2::timestamptz, $3::bigint) ORDER BY timestamp DESC, id DESC LIMIT 1`,
      [issue.id, me.ts, me.id],
    );
    console.log(plan.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n'));
  } finally {
    await db.close();
    await pg.drop();
    dir.remove();
  }
}

void main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
