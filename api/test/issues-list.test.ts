import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createIssueFixture, HOUR_MS, type IssueFixture } from './issue-fixtures';

const LIST = `query($p: ID!, $status: IssueStatus, $first: Int, $after: String, $environment: String, $release: String,
  $level: Level, $firstSeenFrom: String, $firstSeenTo: String, $lastSeenFrom: String, $lastSeenTo: String,
  $search: String, $sort: IssueSort) {
  issues(projectId: $p, status: $status, first: $first, after: $after, environment: $environment, release: $release,
    level: $level, firstSeenFrom: $firstSeenFrom, firstSeenTo: $firstSeenTo, lastSeenFrom: $lastSeenFrom,
    lastSeenTo: $lastSeenTo, search: $search, sort: $sort) {
    totalCount nodes { id title } edges { cursor node { id } } pageInfo { hasNextPage endCursor }
  }
}`;

describe('issues(projectId, …): filters, sort orders, pagination', () => {
  let f: IssueFixture;
  let owner: Awaited<ReturnType<IssueFixture['account']>>;
  let stranger: Awaited<ReturnType<IssueFixture['account']>>;
  /** Whole hour, 10 hours ago: every event is inside a 12-hour series. */
  const T0 = Math.floor(Date.now() / HOUR_MS) * HOUR_MS - 10 * HOUR_MS;
  const at = (hours: number) => new Date(T0 + hours * HOUR_MS);
  const iso = (hours: number) => at(hours).toISOString();
  const ids: Record<'A' | 'B' | 'C', string> = { A: '', B: '', C: '' };

  before(async () => {
    f = await createIssueFixture();
    owner = await f.account('pro');
    stranger = await f.account('pro');
    // A: production, release 1.0, 2 users, first seen +1h, last +3h, 3 events.
    // B: staging, warning, 1 user, first +4h, last +5h, 2 events.
    // C: production, release 1.1, no user, first +0.5h, last +6h, 5 events; "needle" only in its message.
    const A = { fingerprint: ['A'], type: 'TypeError', message: 'alpha failed', release: '1.0' };
    const B = {
      fingerprint: ['B'],
      type: 'RangeError',
      message: 'beta out of range',
      environment: 'staging',
      level: 'warning' as const,
    };
    const C = {
      fingerprint: ['C'],
      type: 'ReferenceError',
      message: 'gamma undefined\nneedle in line two',
      release: '1.1',
    };
    await f.ingest(owner.projectId, [
      { ...A, at: at(1), user: { id: 'u1' }, tags: { browser: 'chrome' } },
      { ...A, at: at(2), user: { id: 'u2' }, tags: { browser: 'chrome' } },
      {
        ...A,
        at: at(3),
        user: { id: 'u1' },
        tags: { browser: 'firefox' },
        url: 'https://app.example.com/a',
        context: { route: '/a' },
      },
      { ...B, at: at(4) },
      { ...B, at: at(5), user: { email: 'b@example.com' } },
      ...[0.5, 1.5, 2.5, 3.5, 6].map((h) => ({ ...C, at: at(h) })),
    ]);
    const rows: Array<{ id: string; title: string }> = await f.db.ds.query(
      'SELECT id, title FROM issues WHERE project_id = $1',
      [owner.projectId],
    );
    for (const r of rows) ids[r.title[0] === 'T' ? 'A' : r.title[0] === 'R' && r.title[1] === 'a' ? 'B' : 'C'] = r.id;
    assert.ok(ids.A && ids.B && ids.C);
  });
  after(() => f.close());

  async function list(vars: Record<string, unknown>) {
    return (await f.ok(LIST, { p: owner.projectId, ...vars }, owner.token)).issues;
  }
  const names = (page: { nodes: Array<{ id: string }> }) =>
    page.nodes.map((n) => (Object.entries(ids).find(([, id]) => id === n.id) ?? ['?'])[0]);

  test('sorts by last seen (default), first seen, events and users', async () => {
    assert.deepEqual(names(await list({})), ['C', 'B', 'A']);
    assert.deepEqual(names(await list({ sort: 'LAST_SEEN' })), ['C', 'B', 'A']);
    assert.deepEqual(names(await list({ sort: 'FIRST_SEEN' })), ['B', 'A', 'C']);
    assert.deepEqual(names(await list({ sort: 'EVENTS' })), ['C', 'A', 'B']);
    assert.deepEqual(names(await list({ sort: 'USERS' })), ['A', 'B', 'C']);
  });

  test('filters by environment, release, level and text, each with its totalCount', async () => {
    const staging = await list({ environment: 'staging' });
    assert.deepEqual(names(staging), ['B']);
    assert.equal(staging.totalCount, 1);
    assert.deepEqual(names(await list({ environment: 'production' })), ['C', 'A']);
    assert.deepEqual(names(await list({ environment: 'nowhere' })), []);
    assert.deepEqual(names(await list({ release: '1.0' })), ['A']);
    assert.deepEqual(names(await list({ release: '1.1', environment: 'production' })), ['C']);
    assert.deepEqual(names(await list({ release: '1.1', environment: 'staging' })), []);
    assert.deepEqual(names(await list({ level: 'WARNING' })), ['B']);
    assert.deepEqual(names(await list({ level: 'ERROR' })), ['C', 'A']);
    assert.deepEqual(names(await list({ search: 'BETA' })), ['B']);
    // Only in C's message (its title is the first line).
    assert.deepEqual(names(await list({ search: 'needle' })), ['C']);
    // LIKE wildcards are literal text.
    assert.deepEqual(names(await list({ search: '%' })), []);
    assert.deepEqual(names(await list({ search: 'a_pha' })), []);
    const combined = await list({ environment: 'production', search: 'alpha', level: 'ERROR' });
    assert.deepEqual(names(combined), ['A']);
    assert.equal(combined.totalCount, 1);
  });

  test('filters by first and last seen ranges (start included, end excluded)', async () => {
    assert.deepEqual(names(await list({ firstSeenFrom: iso(1) })), ['B', 'A']);
    assert.deepEqual(names(await list({ firstSeenTo: iso(1) })), ['C']);
    assert.deepEqual(names(await list({ firstSeenFrom: iso(1), firstSeenTo: iso(4) })), ['A']);
    assert.deepEqual(names(await list({ lastSeenFrom: iso(5) })), ['C', 'B']);
    assert.deepEqual(names(await list({ lastSeenTo: iso(5) })), ['A']);
    const bad = await f.run(LIST, { p: owner.projectId, lastSeenFrom: 'yesterday' }, owner.token);
    assert.equal(bad.errors[0].extensions.code, 'BAD_USER_INPUT');
    assert.match(bad.errors[0].message, /^lastSeenFrom:/);
  });

  test('filters by status', async () => {
    await f.ok(`mutation($id: ID!) { resolveIssue(id: $id) { id } }`, { id: ids.A }, owner.token);
    try {
      assert.deepEqual(names(await list({ status: 'RESOLVED' })), ['A']);
      assert.deepEqual(names(await list({ status: 'OPEN' })), ['C', 'B']);
      assert.deepEqual(names(await list({ status: 'OPEN', environment: 'production' })), ['C']);
      assert.equal((await list({ status: 'SNOOZED' })).totalCount, 0);
    } finally {
      await f.ok(`mutation($id: ID!) { reopenIssue(id: $id) { id } }`, { id: ids.A }, owner.token);
    }
  });

  test('pages with first/after to the last page; totalCount stays the whole set', async () => {
    const one = await list({ first: 2 });
    assert.deepEqual(names(one), ['C', 'B']);
    assert.equal(one.totalCount, 3);
    assert.equal(one.pageInfo.hasNextPage, true);
    assert.equal(one.pageInfo.endCursor, one.edges[1].cursor);
    const two = await list({ first: 2, after: one.pageInfo.endCursor });
    assert.deepEqual(names(two), ['A']);
    assert.equal(two.totalCount, 3);
    assert.equal(two.pageInfo.hasNextPage, false);
    const past = await list({ first: 2, after: two.pageInfo.endCursor });
    assert.deepEqual(past.nodes, []);
    assert.equal(past.pageInfo.endCursor, null);
    assert.equal(past.pageInfo.hasNextPage, false);
    // Sorted by events, one at a time.
    const seen: string[] = [];
    let cursor: string | null = null;
    for (;;) {
      const page: any = await list({ first: 1, sort: 'EVENTS', after: cursor });
      seen.push(...names(page));
      if (!page.pageInfo.hasNextPage) break;
      cursor = page.pageInfo.endCursor;
    }
    assert.deepEqual(seen, ['C', 'A', 'B']);
  });

  test('an empty project answers an empty page', async () => {
    const empty = (await f.ok(LIST, { p: stranger.projectId }, stranger.token)).issues;
    assert.deepEqual(empty, { totalCount: 0, nodes: [], edges: [], pageInfo: { hasNextPage: false, endCursor: null } });
  });

  test('an invalid cursor, a cursor of another sort order and first outside 1..100 are BAD_USER_INPUT', async () => {
    const page = await list({ first: 1 });
    for (const vars of [
      { after: 'garbage' },
      { after: Buffer.from('["last_seen","x","y"]').toString('base64url') },
      { after: page.pageInfo.endCursor, sort: 'EVENTS' },
      { first: 0 },
      { first: 101 },
      { search: 'x'.repeat(201) },
    ]) {
      const r = await f.run(LIST, { p: owner.projectId, ...vars }, owner.token);
      assert.equal(r.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT', JSON.stringify(vars));
    }
  });

  test('pages by the exact stored time: issues microseconds apart are neither skipped nor repeated', async () => {
    const p = await f.account('free');
    await f.db.ds.query(
      `INSERT INTO issues (project_id, fingerprint, title, type, level, first_seen, last_seen, event_count)
       SELECT $1, 'us-' || n, 'E' || n, 'E', 'error', '2026-01-01T00:00:00.000100Z', ('2026-01-01T00:00:00.000' || n || '00Z')::timestamptz, 1
         FROM generate_series(1, 5) n`,
      [p.projectId],
    );
    const titles: string[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 6; i++) {
      const page: any = (await f.ok(LIST, { p: p.projectId, first: 2, after: cursor }, p.token)).issues;
      titles.push(...page.nodes.map((n: any) => n.title));
      if (!page.pageInfo.hasNextPage) break;
      cursor = page.pageInfo.endCursor;
    }
    assert.deepEqual(titles, ['E5', 'E4', 'E3', 'E2', 'E1']);
  });

  test("another organization's project answers exactly like a missing one", async () => {
    const theirs = await f.run(LIST, { p: owner.projectId }, stranger.token);
    const missing = await f.run(LIST, { p: randomUUID() }, stranger.token);
    assert.deepEqual(theirs, missing);
    assert.equal(theirs.errors[0].extensions.code, 'NOT_FOUND');
    assert.equal(theirs.data, null);
  });
});
