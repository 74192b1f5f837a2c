/**
 * Tag values match case-insensitively (decision 046) without losing the plans of decision 034:
 * the statement `listIssues` sends for a tag term is explained on a seeded project, on PostgreSQL
 * (the engine of the 10,000,000-event figures). A rare value must be read from the lowered index,
 * never by scanning the project's tag rows; a common one (a quarter of the issues) must be known
 * as common, so the page walks the issues' last-seen index instead of hashing them all.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { signUp } from '../src/accounts';
import { sessionCaller } from '../src/access/caller';
import { loadConfig } from '../src/config';
import { openDatabase, type Database } from '../src/db';
import { listIssues } from '../src/issues';
import { createProject } from '../src/projects';
import { captureQueries, createTempDir, createTestPostgres, seedIssues, type TestPostgres } from '../src/testing';

const EVENTS = 40_000;
const ISSUES = 4_000;

describe('tag search plans with case-insensitive values (PostgreSQL)', () => {
  let pg: TestPostgres | undefined;
  const dir = createTempDir();
  let db: Database;
  let projectId: string;
  let caller: ReturnType<typeof sessionCaller>;

  before(async () => {
    pg = await createTestPostgres();
    db = await openDatabase(loadConfig({ TRACKER_DATA_DIR: dir.path, DATABASE_URL: pg.url }), { migrate: true });
    const s = await signUp(
      db.ds,
      { email: 'plans@example.com', password: 'correct horse battery', organizationName: 'Org' },
      'pro',
    );
    projectId = (await createProject(db.ds, s.user.id, s.organization!.id, 'p')).project.id;
    caller = sessionCaller(s.user.id);
    // browser.name: one of four values per issue; customer: acme-<k mod 500>, 8 issues each.
    await seedIssues(db.ds, projectId, { events: EVENTS, issues: ISSUES });
    await db.ds.query('ANALYZE');
  });

  after(async () => {
    await db?.close().catch(() => undefined);
    await pg?.drop().catch(() => undefined);
    dir.remove();
  });

  /** The plans (EXPLAIN ANALYZE, JSON) of the statements listIssues sends for `query`. */
  async function plansOf(query: string): Promise<{ total: number; plans: any[] }> {
    const { result, sent } = await captureQueries(db.ds, () =>
      listIssues(db.ds, caller, { projectId, query, now: Date.now(), first: 50 }),
    );
    const total = result.totalCount;
    const plans = [];
    for (const s of sent.filter((x) => /issue_tag_values/.test(x.sql) && /^\s*(WITH|SELECT)/i.test(x.sql))) {
      const [{ 'QUERY PLAN': plan }] = await db.ds.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${s.sql}`, s.params);
      plans.push((typeof plan === 'string' ? JSON.parse(plan) : plan)[0].Plan);
    }
    return { total, plans };
  }

  function nodes(plan: any): any[] {
    return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
  }

  test('a rare value in any case is read from the lowered index', async () => {
    const exact = await plansOf('customer:acme-7');
    const upper = await plansOf('customer:ACME-7');
    assert.equal(exact.total, ISSUES / 500);
    assert.equal(upper.total, exact.total, 'the case of the value does not matter');
    for (const { plans } of [exact, upper]) {
      assert.ok(plans.length > 0, 'a statement on issue_tag_values was sent');
      const all = plans.flatMap(nodes);
      const tagReads = all.filter((n) => n['Relation Name'] === 'issue_tag_values');
      assert.ok(
        tagReads.some((n) => n['Index Name'] === 'issue_tag_values_project_key_lower_idx'),
        JSON.stringify(tagReads.map((n) => [n['Node Type'], n['Index Name']])),
      );
      assert.ok(!tagReads.some((n) => n['Node Type'] === 'Seq Scan'), 'no scan of the tag table');
    }
  });

  test('a common value is estimated as common: the page walks the last-seen index', async () => {
    const { total, plans } = await plansOf('browser.name:chrome');
    assert.equal(total, ISSUES / 4);
    const all = plans.flatMap(nodes);
    assert.ok(!all.some((n) => n['Relation Name'] === 'issue_tag_values' && n['Node Type'] === 'Seq Scan'));
    const estimates = all.filter((n) => n['Index Name'] === 'issue_tag_values_project_key_lower_idx');
    for (const n of estimates) {
      // Decision 034's failure was a tenth of the real count; within a factor of 2 here.
      assert.ok(n['Plan Rows'] * n['Actual Loops'] >= ISSUES / 4 / 2 || n['Actual Loops'] > 1, JSON.stringify(n));
    }
    assert.ok(
      all.some((n) => n['Index Name'] === 'issues_project_last_seen_idx'),
      JSON.stringify(all.map((n) => [n['Node Type'], n['Relation Name'], n['Index Name']])),
    );
  });
});
