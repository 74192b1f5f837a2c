import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { registerRelease } from '@tracker/core';
import { createIssueFixture, HOUR_MS, type IssueFixture } from './issue-fixtures';

/**
 * The same SQL on the embedded database (PGlite, PostgreSQL 18 in WASM): the other suites run
 * on PostgreSQL 15. One pass over each new statement: the filtered page and its cursor, the
 * detail's tags, series and events, release health, merge (with the worker's alias lookup) and
 * delete.
 */
describe('issue queries on PGlite', () => {
  let f: IssueFixture;
  let owner: Awaited<ReturnType<IssueFixture['account']>>;
  const D = Math.floor(Date.now() / HOUR_MS) * HOUR_MS - 10 * HOUR_MS;
  const at = (h: number) => new Date(D + h * HOUR_MS);
  const idOf = async (fp: string) =>
    (
      await f.db.ds.query(`SELECT DISTINCT issue_id AS id FROM events WHERE fingerprint = $1::jsonb`, [
        JSON.stringify([fp]),
      ])
    )[0].id as string;

  before(async () => {
    f = await createIssueFixture('pglite');
    owner = await f.account('pro');
    await registerRelease(f.db.ds, { projectId: owner.projectId, version: '1.0', at: at(0) });
    await f.ingest(owner.projectId, [
      { fingerprint: ['P'], message: 'pear failed', release: '1.0', at: at(1), user: { id: 'a' }, tags: { t: 'x' } },
      { fingerprint: ['P'], message: 'pear failed', release: '1.0', at: at(2), user: { id: 'b' }, handled: false },
      { fingerprint: ['Q'], message: 'quince failed', environment: 'staging', at: at(3) },
      { fingerprint: ['R'], message: 'rowan failed', release: '1.0', at: at(4), level: 'fatal', user: { id: 'c' } },
    ]);
  });
  after(() => f.close());

  test('list, detail, health, merge and delete', async () => {
    const LIST = `query($p: ID!, $after: String, $env: String, $search: String) {
      issues(projectId: $p, first: 1, after: $after, environment: $env, search: $search, sort: EVENTS) {
        totalCount nodes { title } pageInfo { hasNextPage endCursor } } }`;
    const one = (await f.ok(LIST, { p: owner.projectId, env: 'production' }, owner.token)).issues;
    assert.deepEqual([one.totalCount, one.nodes[0].title, one.pageInfo.hasNextPage], [2, 'Error: pear failed', true]);
    const two = (
      await f.ok(LIST, { p: owner.projectId, env: 'production', after: one.pageInfo.endCursor }, owner.token)
    ).issues;
    assert.deepEqual([two.nodes[0].title, two.pageInfo.hasNextPage], ['Error: rowan failed', false]);
    const found = (await f.ok(LIST, { p: owner.projectId, search: 'QUINCE' }, owner.token)).issues;
    assert.deepEqual([found.totalCount, found.nodes[0].title], [1, 'Error: quince failed']);

    const p = await idOf('P');
    const d = (
      await f.ok(
        `query($id: ID!) { issue(id: $id) { tags { key count } series(hours: 12) { count } events(first: 1) { pageInfo { hasNextPage } } } }`,
        { id: p },
        owner.token,
      )
    ).issue;
    assert.deepEqual(d.tags, [{ key: 't', count: 1 }]);
    assert.equal(
      d.series.reduce((n: number, s: { count: number }) => n + s.count, 0),
      2,
    );
    assert.equal(d.events.pageInfo.hasNextPage, true);

    const health = (
      await f.ok(
        `query($p: ID!) { releases(projectId: $p) { health { issuesIntroduced usersSeen crashedUsers crashFreeUsers windowEvents } } }`,
        { p: owner.projectId },
        owner.token,
      )
    ).releases[0].health;
    assert.deepEqual(health, {
      issuesIntroduced: 2,
      usersSeen: 3,
      crashedUsers: 2,
      crashFreeUsers: 1 / 3,
      windowEvents: 3,
    });

    const r = await idOf('R');
    const merged = (
      await f.ok(
        `mutation($t: ID!, $s: ID!) { mergeIssues(targetId: $t, sourceId: $s) { eventCount userCount } }`,
        { t: p, s: r },
        owner.token,
      )
    ).mergeIssues;
    assert.deepEqual(merged, { eventCount: 3, userCount: 3 });
    await f.ingest(owner.projectId, [{ fingerprint: ['R'], message: 'rowan failed', at: at(5) }]);
    const after = (await f.ok(`query($id: ID!) { issue(id: $id) { eventCount } }`, { id: p }, owner.token)).issue;
    assert.equal(after.eventCount, 4);

    assert.deepEqual(await f.ok(`mutation($id: ID!) { deleteIssue(id: $id) }`, { id: p }, owner.token), {
      deleteIssue: p,
    });
    const left = (await f.ok(LIST, { p: owner.projectId }, owner.token)).issues;
    assert.equal(left.totalCount, 1);
  });
});
