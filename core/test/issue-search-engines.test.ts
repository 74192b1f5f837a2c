/**
 * The issue search language against real SQL on both engines (PostgreSQL 15 and embedded
 * PGlite): every key, its negation, free text and hostile values, over events written by the
 * worker's own persistence (so issue_tag_values is kept as in production).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { In } from 'typeorm';
import { sessionCaller } from '../src/access';
import { openDatabase, type Database } from '../src/db';
import { IssueRelease } from '../src/entities';
import { AppError } from '../src/errors';
import { persistEvents, prepareEvent } from '../src/events';
import {
  createSavedSearch,
  deleteSavedSearch,
  findIssueReleases,
  likePattern,
  listIssues,
  listSavedSearches,
  mergeIssues,
} from '../src/issues';
import { IssueSearch1796420000000 } from '../src/migrations/1796420000000-issue-search';
import { createTempDir, createTestPostgres, type TempDir, type TestPostgres } from '../src/testing';

const T0 = Date.parse('2026-06-01T12:00:00.000Z');
const MIN = 60_000;
const HOUR = 60 * MIN;

interface Spec {
  type: string;
  message: string;
  level: 'fatal' | 'error' | 'warning' | 'info';
  environment: string;
  release?: string;
  tags?: Record<string, string>;
  user?: { id?: string; email?: string };
  events: number;
  agoMs: number;
}

/** Five issues, one letter each, chosen so every key separates them differently. */
const ISSUES: Record<string, Spec> = {
  A: {
    type: 'TypeError',
    message: 'card declined at checkout',
    level: 'error',
    environment: 'production',
    release: '1.0',
    tags: { 'browser.name': 'Chrome' },
    user: { id: 'u1', email: 'Ann@Example.com' },
    events: 3,
    agoMs: 2 * HOUR,
  },
  B: {
    type: 'RangeError',
    message: 'timeout talking to bank',
    level: 'warning',
    environment: 'staging',
    release: '2.0',
    tags: { 'browser.name': 'Firefox', os: 'linux' },
    user: { id: 'u2' },
    events: 1,
    agoMs: 3 * 24 * HOUR,
  },
  C: {
    type: 'TypeError',
    message: 'x is undefined',
    level: 'fatal',
    environment: 'production',
    events: 5,
    agoMs: 30 * MIN,
  },
  D: {
    type: 'Error',
    message: '50% off_sale \\ wildcard',
    level: 'info',
    environment: 'production',
    tags: { 'browser.name': 'Chrome', plan: 'pro' },
    user: { email: 'bob@example.com' },
    events: 1,
    agoMs: 5 * HOUR,
  },
  E: {
    type: 'SyntaxError',
    message: 'unexpected token',
    level: 'error',
    environment: 'production',
    release: '1.0',
    tags: { os: 'mac' },
    events: 2,
    agoMs: 10 * 24 * HOUR,
  },
};

interface Seeded {
  projectId: string;
  viewer: ReturnType<typeof sessionCaller>;
  other: ReturnType<typeof sessionCaller>;
  stranger: ReturnType<typeof sessionCaller>;
  letterOf: Map<string, string>;
}

async function seed(db: Database): Promise<Seeded> {
  const org = randomUUID();
  const projectId = randomUUID();
  const viewer = sessionCaller(randomUUID());
  const other = sessionCaller(randomUUID());
  const stranger = sessionCaller(randomUUID());
  await db.ds.query(`INSERT INTO organizations (id, name, slug, plan) VALUES ($1, 'O', $2, 'free')`, [org, `o-${org}`]);
  await db.ds.query(`INSERT INTO projects (id, organization_id, name) VALUES ($1, $2, 'P')`, [projectId, org]);
  const strangerOrg = randomUUID();
  await db.ds.query(`INSERT INTO organizations (id, name, slug, plan) VALUES ($1, 'S', $2, 'free')`, [
    strangerOrg,
    `s-${strangerOrg}`,
  ]);
  for (const [caller, email, o] of [
    [viewer, 'viewer@example.com', org],
    [other, 'bob@example.com', org],
    [stranger, 'stranger@example.com', strangerOrg],
  ] as const) {
    await db.ds.query(`INSERT INTO users (id, email, password_hash) VALUES ($1, $2, 'x')`, [caller.userId, email]);
    await db.ds.query(`INSERT INTO memberships (organization_id, user_id, role) VALUES ($1, $2, 'member')`, [
      o,
      caller.userId,
    ]);
  }
  const jobs = Object.entries(ISSUES).flatMap(([letter, s]) =>
    Array.from({ length: s.events }, (_, n) =>
      prepareEvent({
        v: 1,
        kind: 'error',
        projectId,
        receivedAt: new Date(T0).toISOString(),
        event: {
          eventId: randomUUID(),
          type: s.type,
          message: s.message,
          level: s.level,
          environment: s.environment,
          release: s.release,
          tags: s.tags ?? {},
          user: s.user,
          fingerprint: [letter],
          // The newest event of each issue is `agoMs` ago; the others a minute before each.
          timestamp: new Date(T0 - s.agoMs - n * MIN).toISOString(),
        } as never,
      }),
    ),
  );
  await db.ds.transaction((em) => persistEvents(em, jobs));
  const rows: Array<{ id: string; title: string }> = await db.ds.query(
    'SELECT id, title FROM issues WHERE project_id = $1',
    [projectId],
  );
  const letterOf = new Map<string, string>();
  for (const r of rows) {
    const letter = Object.entries(ISSUES).find(([, s]) => r.title === `${s.type}: ${s.message}`)![0];
    letterOf.set(r.id, letter);
  }
  const idOf = (l: string) => [...letterOf].find(([, x]) => x === l)![0];
  await db.ds.query(`UPDATE issues SET status = 'resolved', resolved_at = now() WHERE id = $1`, [idOf('C')]);
  await db.ds.query(
    `UPDATE issues SET status = 'snoozed', snoozed_until = now() + interval '1 day', assignee_id = $2 WHERE id = $1`,
    [idOf('D'), viewer.userId],
  );
  await db.ds.query(`UPDATE issues SET is_regression = true, assignee_id = $2 WHERE id = $1`, [
    idOf('E'),
    other.userId,
  ]);
  return { projectId, viewer, other, stranger, letterOf };
}

/** What each query must find, by letter. Every key, and its negation. */
const EXPECTED: Array<[string, string]> = [
  ['', 'ABCDE'],
  ['is:unresolved', 'ABE'],
  ['!is:unresolved', 'CD'],
  ['is:resolved', 'C'],
  ['is:snoozed', 'D'],
  ['is:regressed', 'E'],
  ['!is:regressed', 'ABCD'],
  ['level:fatal', 'C'],
  ['level:error', 'AE'],
  ['!level:error', 'BCD'],
  ['environment:staging', 'B'],
  ['!environment:production', 'B'],
  ['release:1.0', 'AE'],
  ['!release:1.0', 'BCD'],
  ['assigned:me', 'D'],
  ['!assigned:me', 'ABCE'],
  ['assigned:none', 'ABC'],
  ['!assigned:none', 'DE'],
  ['assigned:Bob@Example.com', 'E'],
  ['assigned:nobody@example.com', ''],
  ['!assigned:bob@example.com', 'ABCD'],
  ['!assigned:nobody@example.com', 'ABCDE'],
  ['user.email:ann@example.com', 'A'],
  ['user.email:BOB@example.com', 'D'],
  ['!user.email:ann@example.com', 'BCDE'],
  ['user.id:u2', 'B'],
  ['!user.id:u2', 'ACDE'],
  ['browser.name:Chrome', 'AD'],
  ['browser.name:"Chrome"', 'AD'],
  // Tag values match case-insensitively (decision 046); keys exactly.
  ['browser.name:chrome', 'AD'],
  ['browser.name:CHROME', 'AD'],
  ['!browser.name:chrome', 'BCE'],
  ['user.id:U2', 'B'],
  ['!browser.name:Chrome', 'BCE'],
  ['plan:pro', 'D'],
  ['os:mac', 'E'],
  ['first-seen:-1h', 'C'],
  ['first-seen:-3h', 'AC'],
  ['!first-seen:-3h', 'BDE'],
  ['last-seen:+2d', 'BE'],
  ['!last-seen:+2d', 'ACD'],
  ['first-seen:>=2026-06-01', 'ACD'],
  ['last-seen:<2026-05-25T00:00:00Z', 'E'],
  ['times-seen:>2', 'AC'],
  ['times-seen:1', 'BD'],
  ['times-seen:<=2', 'BDE'],
  ['!times-seen:>2', 'BDE'],
  ['declined', 'A'],
  ['typeerror', 'AC'],
  ['!typeerror', 'BDE'],
  ['"card declined"', 'A'],
  ['"card  declined"', ''],
  ['50%', 'D'],
  ['ff%s', ''],
  ['off_sale', 'D'],
  ['f_s', 'D'],
  ['o_f', ''],
  ['\\', 'D'],
  ['message:"card declined"', 'A'],
  ['!message:declined', 'BCDE'],
  ['type:TypeError', 'AC'],
  ['!type:TypeError', 'BDE'],
  ['is:unresolved level:error browser.name:Chrome', 'A'],
  ['is:unresolved !level:warning first-seen:-7d', 'A'],
  [`release:"1.0' OR '1'='1"`, ''],
  [`"'; DELETE FROM issues; --"`, ''],
];

async function lettersFound(db: Database, s: Seeded, query: string): Promise<string> {
  const page = await listIssues(db.ds, s.viewer, { projectId: s.projectId, query, now: T0, first: 100 });
  const letters = page.issues
    .map((i) => s.letterOf.get(i.id)!)
    .sort()
    .join('');
  assert.equal(page.totalCount, letters.length, `totalCount of ${query}`);
  return letters;
}

async function refusal(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof AppError, String(err));
    return err;
  }
  assert.fail('expected a refusal');
}

for (const engine of ['PostgreSQL', 'PGlite'] as const) {
  describe(`issue search on ${engine}`, () => {
    let pg: TestPostgres | undefined;
    let dir: TempDir | undefined;
    let db: Database;
    let s: Seeded;
    before(async () => {
      if (engine === 'PostgreSQL') {
        pg = await createTestPostgres();
        db = await openDatabase({ databaseUrl: pg.url, dataDir: 'unused' }, { migrate: true });
      } else {
        dir = createTempDir();
        db = await openDatabase({ databaseUrl: undefined, dataDir: dir.path }, { migrate: true });
      }
      s = await seed(db);
    });
    after(async () => {
      await db.close();
      await pg?.drop();
      dir?.remove();
    });

    test('every key and its negation finds the issues it names', async () => {
      const wrong: string[] = [];
      for (const [query, expected] of EXPECTED) {
        const found = await lettersFound(db, s, query);
        if (found !== expected) wrong.push(`${query}: found ${found || '(none)'}, expected ${expected || '(none)'}`);
      }
      assert.deepEqual(wrong, []);
      // The hostile values left the data alone.
      assert.equal(await lettersFound(db, s, ''), 'ABCDE');
    });

    test('combines with the other filters and pages with the query', async () => {
      const page = await listIssues(db.ds, s.viewer, {
        projectId: s.projectId,
        query: 'level:error',
        environment: 'production',
        level: 'error',
        now: T0,
        first: 1,
      });
      assert.equal(page.totalCount, 2);
      assert.equal(page.issues.length, 1);
      const next = await listIssues(db.ds, s.viewer, {
        projectId: s.projectId,
        query: 'level:error',
        now: T0,
        first: 1,
        after: page.cursors[0],
      });
      assert.equal(next.issues.length, 1);
      assert.notEqual(next.issues[0].id, page.issues[0].id);
    });

    test("refuses a key that is neither the language's nor a tag of the project, naming the term", async () => {
      const err = await refusal(
        listIssues(db.ds, s.viewer, { projectId: s.projectId, query: 'level:error lvl:error', now: T0 }),
      );
      assert.equal(err.code, 'BAD_USER_INPUT');
      assert.match(
        err.message,
        /"lvl:error" at character 13: "lvl" is not a search key, and no event of this project has a tag of that name: use is, level/,
      );
    });

    test('a tag of another project is still unknown here', async () => {
      const projectId = randomUUID();
      const orgId: string = (await db.ds.query('SELECT organization_id FROM projects WHERE id = $1', [s.projectId]))[0]
        .organization_id;
      await db.ds.query(`INSERT INTO projects (id, organization_id, name) VALUES ($1, $2, 'Q')`, [projectId, orgId]);
      const err = await refusal(listIssues(db.ds, s.viewer, { projectId, query: 'plan:pro', now: T0 }));
      assert.match(err.message, /"plan" is not a search key/);
    });

    test('a stranger gets NOT_FOUND before the query is looked at', async () => {
      const err = await refusal(listIssues(db.ds, s.stranger, { projectId: s.projectId, query: 'plan:pro', now: T0 }));
      assert.equal(err.code, 'NOT_FOUND');
    });

    /** A project of its own, with issues of the given titles, newest first; answers their ids in that order. */
    async function projectWithTitles(titles: string[]): Promise<{ projectId: string; ids: string[] }> {
      const projectId = randomUUID();
      const orgId: string = (await db.ds.query('SELECT organization_id FROM projects WHERE id = $1', [s.projectId]))[0]
        .organization_id;
      await db.ds.query(`INSERT INTO projects (id, organization_id, name) VALUES ($1, $2, 'Titles')`, [
        projectId,
        orgId,
      ]);
      const ids: string[] = [];
      for (const [n, title] of titles.entries()) {
        const [row] = await db.ds.query(
          `INSERT INTO issues (project_id, fingerprint, title, type, culprit, level, first_seen, last_seen, event_count)
           VALUES ($1, $2, $3, 'Error', '', 'error', $4, $4, $5) RETURNING id`,
          [projectId, `t${n}`, title, new Date(T0 - n * MIN).toISOString(), titles.length - n],
        );
        ids.push(row.id);
      }
      return { projectId, ids };
    }

    test('free text matches exactly what title ILIKE matches, letters of any case and script', async () => {
      const titles = [
        'Error: ÉCHEC de paiement',
        'Error: échec de paiement',
        'Error: STRASSE',
        'Error: Straße',
        'Error: İstanbul',
        'Error: istanbul',
        'Error: ΣΊΣΥΦΟΣ',
        'Error: MiXeD CaSe 100%_done',
        'Error: plain',
      ];
      const { projectId, ids } = await projectWithTitles(titles);
      const queries = [
        'échec',
        'ÉCHEC',
        'straße',
        'STRASSE',
        'ss',
        'istanbul',
        'İSTANBUL',
        'σίσυφος',
        'mixed case',
        '100%_',
        '"E: P"',
        'error',
      ];
      const wrong: string[] = [];
      for (const query of queries) {
        const text = query.replace(/^"|"$/g, '');
        const expected: Array<{ id: string }> = await db.ds.query(
          `SELECT id FROM issues WHERE project_id = $1 AND title ILIKE $2 ORDER BY last_seen DESC, id DESC`,
          [projectId, likePattern(text)],
        );
        const page = await listIssues(db.ds, s.viewer, { projectId, query, now: T0, first: 100 });
        const found = page.issues.map((i) => ids.indexOf(i.id)).join(',');
        const want = expected.map((r) => ids.indexOf(r.id)).join(',');
        if (found !== want || page.totalCount !== expected.length) {
          wrong.push(`${query}: found [${found}] (${page.totalCount}), ILIKE [${want}]`);
        }
      }
      assert.deepEqual(wrong, []);
    });

    test('a free-text search pages through every match once, with the same total on every page', async () => {
      const titles = Array.from({ length: 12 }, (_, n) => (n % 3 === 2 ? `Error: other ${n}` : `Error: Timeout ${n}`));
      const { projectId, ids } = await projectWithTitles(titles);
      const matching = ids.filter((_, n) => n % 3 !== 2);
      for (const sort of ['last_seen', 'events'] as const) {
        const seen: string[] = [];
        let after: string | null = null;
        for (let pages = 0; pages < 10; pages++) {
          const page = await listIssues(db.ds, s.viewer, {
            projectId,
            query: 'timeout',
            sort,
            now: T0,
            first: 3,
            after,
          });
          assert.equal(page.totalCount, matching.length, `totalCount, ${sort}`);
          seen.push(...page.issues.map((i) => i.id));
          if (!page.hasNextPage) break;
          after = page.cursors.at(-1)!;
        }
        // Both orders put the newest (and most seen) issue first here.
        assert.deepEqual(seen, matching, sort);
      }
    });

    test("findIssueReleases answers each issue's releases as TypeORM's find did, latest first", async () => {
      const { ids } = await projectWithTitles(['Error: one', 'Error: two', 'Error: none']);
      const rows: Array<[number, string, string, number, number, number]> = [
        // issue, environment, release, first seen (min ago), last seen (min ago), events
        [0, 'production', '1.0', 90, 40, 3],
        [0, 'production', '1.1', 30, 5, 2],
        [0, 'staging', '1.0', 60, 20, 7],
        [1, 'production', '2.0', 10, 1, 12345678901],
      ];
      for (const [i, environment, release, first, last, n] of rows) {
        await db.ds.query(
          `INSERT INTO issue_releases (issue_id, environment, release, first_seen, last_seen, event_count)
           VALUES ($1, $2, $3, $4, $5, $6)`,
          [ids[i], environment, release, new Date(T0 - first * MIN), new Date(T0 - last * MIN), n],
        );
      }
      const found = await findIssueReleases(db.ds, [ids[2], ids[0], ids[1]]);
      assert.deepEqual([...found.keys()], [ids[2], ids[0], ids[1]]);
      const before = await db.ds.manager.find(IssueRelease, {
        where: { issueId: In(ids) },
        order: { lastSeen: 'DESC' },
      });
      for (const id of ids) {
        assert.deepEqual(
          found.get(id),
          before
            .filter((r) => r.issueId === id)
            .map((r) => ({
              release: r.release,
              environment: r.environment,
              firstSeen: r.firstSeen,
              lastSeen: r.lastSeen,
              eventCount: r.eventCount,
            })),
        );
      }
      assert.deepEqual(
        found.get(ids[0])!.map((r) => `${r.environment}/${r.release}`),
        ['production/1.1', 'staging/1.0', 'production/1.0'],
      );
      assert.equal(found.get(ids[1])![0].eventCount, 12345678901);
      assert.deepEqual(await findIssueReleases(db.ds, []), new Map());
    });

    test('saved searches: validated, personal, deleted by their owner only', async () => {
      const saved = await createSavedSearch(db.ds, s.viewer, {
        projectId: s.projectId,
        name: ' Chrome ',
        query: 'browser.name:Chrome is:unresolved',
      });
      assert.equal(saved.name, 'Chrome');
      await createSavedSearch(db.ds, s.other, { projectId: s.projectId, name: 'Mine', query: 'assigned:me' });
      assert.deepEqual(
        (await listSavedSearches(db.ds, s.viewer, s.projectId)).map((x) => [x.name, x.query]),
        [['Chrome', 'browser.name:Chrome is:unresolved']],
      );
      assert.deepEqual(
        (await listSavedSearches(db.ds, s.other, s.projectId)).map((x) => x.name),
        ['Mine'],
      );
      assert.equal(
        (
          await refusal(
            createSavedSearch(db.ds, s.viewer, { projectId: s.projectId, name: 'Chrome', query: 'level:error' }),
          )
        ).code,
        'CONFLICT',
      );
      const bad = await refusal(
        createSavedSearch(db.ds, s.viewer, { projectId: s.projectId, name: 'Bad', query: 'is:open' }),
      );
      assert.equal(bad.code, 'BAD_USER_INPUT');
      assert.match(bad.message, /"is:open" at character 1/);
      assert.equal(
        (
          await refusal(
            createSavedSearch(db.ds, s.viewer, { projectId: s.projectId, name: '  ', query: 'level:error' }),
          )
        ).code,
        'BAD_USER_INPUT',
      );
      assert.equal(
        (
          await refusal(
            createSavedSearch(db.ds, s.stranger, { projectId: s.projectId, name: 'X', query: 'level:error' }),
          )
        ).code,
        'NOT_FOUND',
      );
      assert.equal((await refusal(listSavedSearches(db.ds, s.stranger, s.projectId))).code, 'NOT_FOUND');
      // Another member cannot delete it (nor tell it exists); the owner can, once.
      assert.equal((await refusal(deleteSavedSearch(db.ds, s.other, saved.id))).code, 'NOT_FOUND');
      assert.equal((await refusal(deleteSavedSearch(db.ds, s.stranger, saved.id))).code, 'NOT_FOUND');
      assert.equal(await deleteSavedSearch(db.ds, s.viewer, saved.id), saved.id);
      assert.equal((await refusal(deleteSavedSearch(db.ds, s.viewer, saved.id))).code, 'NOT_FOUND');
      assert.equal((await refusal(deleteSavedSearch(db.ds, s.viewer, 'not-a-uuid'))).code, 'NOT_FOUND');
      assert.deepEqual(await listSavedSearches(db.ds, s.viewer, s.projectId), []);
    });

    test("merge moves the source's tag values to the target", async () => {
      const idOf = (l: string) => [...s.letterOf].find(([, x]) => x === l)![0];
      await mergeIssues(db.ds, { caller: s.viewer, targetId: idOf('E'), sourceId: idOf('B') });
      s.letterOf.delete(idOf('B'));
      assert.equal(await lettersFound(db, s, 'user.id:u2'), 'E');
      assert.equal(await lettersFound(db, s, 'browser.name:Firefox'), 'E');
    });

    test("the migration's backfill from the events gives what the worker and merge kept", async () => {
      const rows = async () =>
        (
          (await db.ds.query(
            'SELECT issue_id, project_id, key, value FROM issue_tag_values ORDER BY issue_id, key, value',
          )) as unknown[]
        ).map((r) => JSON.stringify(r));
      const kept = await rows();
      assert.ok(kept.length >= 10, `only ${kept.length} rows`);
      const runner = db.ds.createQueryRunner();
      try {
        await new IssueSearch1796420000000().down(runner);
        await new IssueSearch1796420000000().up(runner);
      } finally {
        await runner.release();
      }
      assert.deepEqual(await rows(), kept);
    });
  });
}
