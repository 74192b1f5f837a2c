/**
 * `issues(query:)` and saved searches over GraphQL: the language reaches core with the API's
 * clock, errors come back as BAD_USER_INPUT naming the term, and saved searches are personal.
 * Every key's SQL is checked on both engines in core/test/issue-search-engines.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createIssueFixture, HOUR_MS, type IssueFixture } from './issue-fixtures';

const LIST = `query($p: ID!, $query: String, $search: String, $environment: String) {
  issues(projectId: $p, query: $query, search: $search, environment: $environment) { totalCount nodes { title } }
}`;
const SAVED = `query($p: ID!) { savedSearches(projectId: $p) { id name query projectId createdAt } }`;
const CREATE = `mutation($p: ID!, $name: String!, $query: String!) {
  createSavedSearch(projectId: $p, name: $name, query: $query) { id name query }
}`;
const DELETE = `mutation($id: ID!) { deleteSavedSearch(id: $id) }`;

describe('issues(query:) and saved searches', () => {
  /** The API's clock, held: events are placed against it, and `-24h` must count back from it. */
  const NOW = Date.parse('2026-03-10T12:00:00.000Z');
  let f: IssueFixture;
  let owner: Awaited<ReturnType<IssueFixture['account']>>;
  let member: { token: string; userId: string };
  let stranger: Awaited<ReturnType<IssueFixture['account']>>;

  before(async () => {
    f = await createIssueFixture('postgres', { clock: () => NOW });
    owner = await f.account('pro');
    stranger = await f.account('pro');
    const m = await f.account('pro');
    member = { token: m.token, userId: m.userId };
    await f.db.ds.query(`INSERT INTO memberships (organization_id, user_id, role) VALUES ($1, $2, 'member')`, [
      owner.organizationId,
      member.userId,
    ]);
    const at = (hoursAgo: number) => new Date(NOW - hoursAgo * HOUR_MS);
    await f.ingest(owner.projectId, [
      {
        fingerprint: ['pay'],
        type: 'PaymentError',
        message: 'card declined',
        at: at(2),
        tags: { 'browser.name': 'Chrome' },
        user: { email: 'ann@example.com' },
      },
      {
        fingerprint: ['pay'],
        type: 'PaymentError',
        message: 'card declined',
        at: at(1),
        tags: { 'browser.name': 'Chrome' },
      },
      {
        fingerprint: ['old'],
        type: 'TypeError',
        message: 'x is undefined',
        at: at(48),
        level: 'warning',
        environment: 'staging',
        tags: { 'browser.name': 'Firefox' },
      },
    ]);
  });
  after(() => f.close());

  const titles = async (vars: Record<string, unknown>, token = owner.token) =>
    (await f.ok(LIST, { p: owner.projectId, ...vars }, token)).issues.nodes
      .map((n: { title: string }) => n.title)
      .sort();

  test('filters by the query, counting relative times back from the API clock', async () => {
    assert.deepEqual(await titles({ query: 'browser.name:Chrome' }), ['PaymentError: card declined']);
    assert.deepEqual(await titles({ query: 'first-seen:-24h' }), ['PaymentError: card declined']);
    assert.deepEqual(await titles({ query: '!first-seen:-24h' }), ['TypeError: x is undefined']);
    assert.deepEqual(await titles({ query: 'times-seen:>1 user.email:ANN@example.com is:unresolved' }), [
      'PaymentError: card declined',
    ]);
    assert.deepEqual(await titles({ query: '"card declined" !level:warning' }), ['PaymentError: card declined']);
    assert.deepEqual(await titles({ query: 'assigned:none' }), [
      'PaymentError: card declined',
      'TypeError: x is undefined',
    ]);
    assert.deepEqual(await titles({ query: '  ' }), ['PaymentError: card declined', 'TypeError: x is undefined']);
  });

  test('keeps working beside the other arguments, search included', async () => {
    assert.deepEqual(await titles({ query: 'level:warning', environment: 'staging' }), ['TypeError: x is undefined']);
    assert.deepEqual(await titles({ query: 'level:warning', environment: 'production' }), []);
    assert.deepEqual(await titles({ search: 'declined', query: 'browser.name:Chrome' }), [
      'PaymentError: card declined',
    ]);
  });

  test('answers BAD_USER_INPUT naming the term, its position and the keys', async () => {
    const r = await f.run(LIST, { p: owner.projectId, query: 'is:unresolved brwoser:Chrome' }, owner.token);
    assert.equal(r.errors[0].extensions.code, 'BAD_USER_INPUT');
    assert.match(
      r.errors[0].message,
      /"brwoser:Chrome" at character 15: "brwoser" is not a search key.*use is, level, release, environment, assigned/,
    );
    assert.equal(r.data, null);
    const quote = await f.run(LIST, { p: owner.projectId, query: 'message:"card' }, owner.token);
    assert.match(quote.errors[0].message, /A quote opened at character 9 is never closed/);
    const many = await f.run(LIST, { p: owner.projectId, query: 'a '.repeat(21) }, owner.token);
    assert.match(many.errors[0].message, /Too many terms: at most 20/);
  });

  test('another tenant gets NOT_FOUND whatever the query', async () => {
    const r = await f.run(LIST, { p: owner.projectId, query: 'browser.name:Chrome' }, stranger.token);
    assert.equal(r.errors[0].extensions.code, 'NOT_FOUND');
  });

  test('saved searches are validated, listed for their owner only, and deleted by them', async () => {
    const created = (
      await f.ok(
        CREATE,
        { p: owner.projectId, name: 'Chrome today', query: 'browser.name:Chrome first-seen:-24h' },
        owner.token,
      )
    ).createSavedSearch;
    assert.equal(created.name, 'Chrome today');
    const bad = await f.run(CREATE, { p: owner.projectId, name: 'Typo', query: 'level:critical' }, owner.token);
    assert.equal(bad.errors[0].extensions.code, 'BAD_USER_INPUT');
    assert.match(bad.errors[0].message, /"level:critical" at character 1: level: takes fatal, error, warning, info/);
    const dup = await f.run(CREATE, { p: owner.projectId, name: 'Chrome today', query: 'level:error' }, owner.token);
    assert.equal(dup.errors[0].extensions.code, 'CONFLICT');

    const mine = (await f.ok(SAVED, { p: owner.projectId }, owner.token)).savedSearches;
    assert.deepEqual(
      mine.map((s: { id: string; query: string; projectId: string }) => [s.id, s.query, s.projectId]),
      [[created.id, 'browser.name:Chrome first-seen:-24h', owner.projectId]],
    );
    // The member of the same organization sees none of the owner's and cannot delete them.
    assert.deepEqual((await f.ok(SAVED, { p: owner.projectId }, member.token)).savedSearches, []);
    assert.equal((await f.run(DELETE, { id: created.id }, member.token)).errors[0].extensions.code, 'NOT_FOUND');
    // Another tenant: NOT_FOUND for the project and for the id, as for missing ones.
    assert.equal((await f.run(SAVED, { p: owner.projectId }, stranger.token)).errors[0].extensions.code, 'NOT_FOUND');
    assert.equal(
      (await f.run(CREATE, { p: owner.projectId, name: 'x', query: 'level:error' }, stranger.token)).errors[0]
        .extensions.code,
      'NOT_FOUND',
    );
    assert.equal((await f.run(DELETE, { id: created.id }, stranger.token)).errors[0].extensions.code, 'NOT_FOUND');

    assert.equal((await f.ok(DELETE, { id: created.id }, owner.token)).deleteSavedSearch, created.id);
    assert.deepEqual((await f.ok(SAVED, { p: owner.projectId }, owner.token)).savedSearches, []);
    assert.equal((await f.run(DELETE, { id: created.id }, owner.token)).errors[0].extensions.code, 'NOT_FOUND');
  });
});
