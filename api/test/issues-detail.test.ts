import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { errorEventSchema } from '@tracker/core';
import { createIssueFixture, HOUR_MS, type IssueFixture } from './issue-fixtures';

const DETAIL = `query($id: ID!, $after: String) { issue(id: $id) {
  id title eventCount userCount firstSeen lastSeen isRegression status
  releases { version environment eventCount }
  environments { environment eventCount firstSeen lastSeen }
  tags { key count values { value count } }
  series(hours: 12) { ts count }
  events(first: 2, after: $after) { totalCount nodes { id timestamp } edges { cursor } pageInfo { hasNextPage endCursor } }
  feedback { message email }
  latestEvent { id frames { filename function lineno colno } }
} }`;

const EVENT = `query($id: ID!) { event(id: $id) {
  id eventId issueId message type level handled environment release url timestamp receivedAt stack
  tags { key value } context user sdk { name version } fingerprint
  frames { filename function lineno colno inApp minified { filename function lineno colno } context { pre line post } }
} }`;

describe('issue(id) detail, event(id), deleteIssue and mergeIssues', () => {
  let f: IssueFixture;
  let owner: Awaited<ReturnType<IssueFixture['account']>>;
  let stranger: Awaited<ReturnType<IssueFixture['account']>>;
  const T0 = Math.floor(Date.now() / HOUR_MS) * HOUR_MS - 10 * HOUR_MS;
  const at = (hours: number) => new Date(T0 + hours * HOUR_MS);
  let issueA: string;

  async function issueIdOf(projectId: string, fingerprintTag: string): Promise<string> {
    const rows: Array<{ id: string }> = await f.db.ds.query(
      `SELECT DISTINCT issue_id AS id FROM events WHERE project_id = $1 AND fingerprint = $2::jsonb`,
      [projectId, JSON.stringify([fingerprintTag])],
    );
    assert.equal(rows.length, 1);
    return rows[0].id;
  }

  before(async () => {
    f = await createIssueFixture();
    owner = await f.account('pro');
    stranger = await f.account('pro');
    const A = { fingerprint: ['A'], type: 'TypeError', message: 'alpha failed', release: '1.0' };
    await f.ingest(owner.projectId, [
      { ...A, at: at(1), user: { id: 'u1' }, tags: { browser: 'chrome', os: 'linux' } },
      { ...A, at: at(2), user: { id: 'u2' }, tags: { browser: 'chrome' } },
      {
        ...A,
        at: at(3),
        environment: 'staging',
        user: { id: 'u1', email: 'u1@example.com' },
        tags: { browser: 'firefox' },
        url: 'https://app.example.com/a',
        context: { route: '/a' },
        handled: false,
        sdk: { name: 'tracker.browser', version: '1.2.3' },
        stack: 'TypeError: alpha failed\n    at run (https://app.example.com/app.min.js:1:120)',
      },
    ]);
    issueA = await issueIdOf(owner.projectId, 'A');
    await f.db.ds.query(
      `INSERT INTO feedback (project_id, id, message, email, event_id, issue_id, received_at)
       VALUES ($1, $2, 'It broke when I clicked save', 'user@example.com', NULL, $3, now())`,
      [owner.projectId, randomUUID(), issueA],
    );
  });
  after(() => f.close());

  test('issue(id) has counts, releases and environments, tag breakdown, series, events and feedback', async () => {
    const d = (await f.ok(DETAIL, { id: issueA }, owner.token)).issue;
    assert.equal(d.eventCount, 3);
    assert.equal(d.userCount, 2);
    assert.equal(d.firstSeen, at(1).toISOString());
    assert.equal(d.lastSeen, at(3).toISOString());
    assert.equal(d.isRegression, false);
    assert.deepEqual(d.releases.map((r: any) => [r.version, r.environment, r.eventCount]).sort(), [
      ['1.0', 'production', 2],
      ['1.0', 'staging', 1],
    ]);
    assert.deepEqual(d.environments, [
      { environment: 'staging', eventCount: 1, firstSeen: at(3).toISOString(), lastSeen: at(3).toISOString() },
      { environment: 'production', eventCount: 2, firstSeen: at(1).toISOString(), lastSeen: at(2).toISOString() },
    ]);
    assert.deepEqual(d.tags, [
      {
        key: 'browser',
        count: 3,
        values: [
          { value: 'chrome', count: 2 },
          { value: 'firefox', count: 1 },
        ],
      },
      { key: 'os', count: 1, values: [{ value: 'linux', count: 1 }] },
    ]);
    // 12 hours ending with the current one: T0 is 10 hours before it, so T0+1h is index 2.
    assert.equal(d.series.length, 12);
    assert.equal(d.series[0].ts, new Date(T0 - HOUR_MS).toISOString());
    assert.deepEqual(
      d.series.map((p: any) => p.count),
      [0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0],
    );
    assert.deepEqual(d.feedback, [{ message: 'It broke when I clicked save', email: 'user@example.com' }]);
    assert.equal(d.events.totalCount, 3);
    assert.deepEqual(
      d.events.nodes.map((e: any) => e.timestamp),
      [at(3).toISOString(), at(2).toISOString()],
    );
    assert.equal(d.events.pageInfo.hasNextPage, true);
    const next = (await f.ok(DETAIL, { id: issueA, after: d.events.pageInfo.endCursor }, owner.token)).issue.events;
    assert.deepEqual(
      next.nodes.map((e: any) => e.timestamp),
      [at(1).toISOString()],
    );
    assert.equal(next.pageInfo.hasNextPage, false);
    assert.equal(d.latestEvent.id, d.events.nodes[0].id);
    assert.deepEqual(d.latestEvent.frames[0], {
      filename: 'https://app.example.com/app.min.js',
      function: 'run',
      lineno: 1,
      colno: 120,
    });
    const badCursor = await f.run(DETAIL, { id: issueA, after: 'nope' }, owner.token);
    assert.equal(badCursor.errors[0].extensions.code, 'BAD_USER_INPUT');
    const badHours = await f.run(
      `query($id: ID!) { issue(id: $id) { series(hours: 0) { ts } } }`,
      { id: issueA },
      owner.token,
    );
    assert.equal(badHours.errors[0].extensions.code, 'BAD_USER_INPUT');
  });

  test('event(id) has de-minified frames with their minified originals and source context, and every field', async () => {
    const [row]: Array<{ id: string; event_id: string }> = await f.db.ds.query(
      `SELECT id::text, event_id FROM events WHERE issue_id = $1 ORDER BY timestamp DESC LIMIT 1`,
      [issueA],
    );
    // What the worker stores when a source map of the release matched.
    await f.db.ds.query(`UPDATE events SET frames = $2::jsonb WHERE id = $1`, [
      row.id,
      JSON.stringify([
        {
          filename: 'src/app.ts',
          function: 'saveDocument',
          lineno: 42,
          colno: 7,
          inApp: true,
          minified: { filename: 'https://app.example.com/app.min.js', function: 'run', lineno: 1, colno: 120 },
          context: { pre: ['function saveDocument() {'], line: '  throw new TypeError("alpha failed");', post: ['}'] },
        },
      ]),
    ]);
    const e = (await f.ok(EVENT, { id: row.event_id }, owner.token)).event;
    assert.deepEqual(e, {
      id: row.event_id,
      eventId: row.event_id,
      issueId: issueA,
      message: 'alpha failed',
      type: 'TypeError',
      level: 'ERROR',
      handled: false,
      environment: 'staging',
      release: '1.0',
      url: 'https://app.example.com/a',
      timestamp: at(3).toISOString(),
      receivedAt: at(3).toISOString(),
      stack: 'TypeError: alpha failed\n    at run (https://app.example.com/app.min.js:1:120)',
      tags: [{ key: 'browser', value: 'firefox' }],
      context: { route: '/a' },
      user: { id: 'u1', email: 'u1@example.com' },
      sdk: { name: 'tracker.browser', version: '1.2.3' },
      fingerprint: ['A'],
      frames: [
        {
          filename: 'src/app.ts',
          function: 'saveDocument',
          lineno: 42,
          colno: 7,
          inApp: true,
          minified: { filename: 'https://app.example.com/app.min.js', function: 'run', lineno: 1, colno: 120 },
          context: { pre: ['function saveDocument() {'], line: '  throw new TypeError("alpha failed");', post: ['}'] },
        },
      ],
    });
    // Another organization's event, a missing one and a malformed id all answer null.
    for (const id of [row.event_id, row.id, randomUUID(), 'abc']) {
      const r = await f.run(EVENT, { id }, stranger.token);
      assert.deepEqual(r, { data: { event: null } }, id);
    }
    assert.deepEqual(
      await f.run(DETAIL, { id: issueA }, stranger.token),
      await f.run(DETAIL, { id: randomUUID() }, stranger.token),
    );
  });

  test("event(id) and the tag breakdown show a string fingerprint as its list, the context as sent and the worker's derived tags", async () => {
    const p = await f.account('pro');
    const iphone =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1';
    // As the edge validates them: the string fingerprint becomes the one-entry array.
    const wire = (body: Record<string, unknown>) =>
      errorEventSchema.parse({ type: 'Error', message: 'pay failed', environment: 'production', ...body });
    await f.ingest(p.projectId, [
      {
        ...wire({
          fingerprint: 'pay',
          tags: { tenant: 'acme' },
          user: { id: 'u9', email: 'u9@example.com', plan: 'pro', seats: 3 },
          context: { userAgent: iphone, cart: { items: 2 } },
          sdk: { name: 'tracker.browser', version: '0.5.0' },
          handled: true,
          level: 'warning',
        }),
        at: at(1),
      },
      {
        ...wire({
          fingerprint: ['pay'],
          context: { runtime: { name: 'node', version: '20.20.2' }, os: { name: 'Linux', version: '6.1' } },
          sdk: { name: 'tracker.node', version: '0.5.0' },
        }),
        at: at(2),
      },
    ]);
    const issueId = await issueIdOf(p.projectId, 'pay');
    const d = (await f.ok(DETAIL, { id: issueId }, p.token)).issue;
    assert.equal(d.eventCount, 2, 'the string and the one-entry array are one issue');
    assert.deepEqual(
      Object.fromEntries(d.tags.map((t: any) => [t.key, t.values.map((v: any) => `${v.value}:${v.count}`)])),
      {
        browser: ['Mobile Safari 17:1'],
        'browser.name': ['Mobile Safari:1'],
        device: ['iPhone:1'],
        os: ['Linux 6.1:1', 'iOS 17.1.1:1'],
        'os.name': ['Linux:1', 'iOS:1'],
        runtime: ['node 20.20.2:1'],
        'runtime.name': ['node:1'],
        tenant: ['acme:1'],
      },
    );
    const [first] = await f.db.ds.query(
      `SELECT event_id AS id FROM events WHERE issue_id = $1 ORDER BY timestamp LIMIT 1`,
      [issueId],
    );
    const e = (await f.ok(EVENT, { id: first.id }, p.token)).event;
    assert.deepEqual(
      [e.fingerprint, e.level, e.handled, e.sdk, e.user, e.context],
      [
        ['pay'],
        'WARNING',
        true,
        { name: 'tracker.browser', version: '0.5.0' },
        { id: 'u9', email: 'u9@example.com', plan: 'pro', seats: 3 },
        { userAgent: iphone, cart: { items: 2 } },
      ],
    );
    assert.deepEqual(
      e.tags.map((t: any) => t.key),
      ['browser', 'browser.name', 'device', 'os', 'os.name', 'tenant'],
    );
  });

  test('mergeIssues moves events, users, releases and feedback, recomputes counts, and later events follow', async () => {
    const p = await f.account('pro');
    await f.ingest(p.projectId, [
      { fingerprint: ['T'], message: 'target', at: at(2), user: { id: 'x' }, release: '2.0' },
      { fingerprint: ['T'], message: 'target', at: at(3), user: { id: 'y' }, release: '2.0' },
      { fingerprint: ['S'], message: 'source', at: at(1), user: { id: 'y' }, release: '2.1', environment: 'staging' },
      { fingerprint: ['S'], message: 'source', at: at(4), user: { id: 'z' }, release: '2.0' },
    ]);
    const target = await issueIdOf(p.projectId, 'T');
    const source = await issueIdOf(p.projectId, 'S');
    await f.db.ds.query(
      `INSERT INTO feedback (project_id, id, message, email, event_id, issue_id, received_at) VALUES ($1, $2, 'from source', NULL, NULL, $3, now())`,
      [p.projectId, randomUUID(), source],
    );
    const MERGE = `mutation($t: ID!, $s: ID!) { mergeIssues(targetId: $t, sourceId: $s) {
      id title eventCount userCount firstSeen lastSeen releases { version environment eventCount } environments { environment eventCount } feedback { message } } }`;
    for (const [t, s] of [
      [target, target],
      [target, issueA], // another project (and organization): not found
      [target, randomUUID()],
    ]) {
      const r = await f.run(MERGE, { t, s }, p.token);
      assert.ok(['BAD_USER_INPUT', 'NOT_FOUND'].includes(r.errors?.[0]?.extensions?.code), JSON.stringify(r));
    }
    assert.deepEqual(
      await f.run(MERGE, { t: target, s: issueA }, p.token),
      await f.run(MERGE, { t: target, s: randomUUID() }, p.token),
    );

    const m = (await f.ok(MERGE, { t: target, s: source }, p.token)).mergeIssues;
    assert.equal(m.id, target);
    assert.equal(m.title, 'Error: target');
    assert.equal(m.eventCount, 4);
    assert.equal(m.userCount, 3);
    assert.equal(m.firstSeen, at(1).toISOString());
    assert.equal(m.lastSeen, at(4).toISOString());
    assert.deepEqual(m.releases.map((r: any) => `${r.version}/${r.environment}/${r.eventCount}`).sort(), [
      '2.0/production/3',
      '2.1/staging/1',
    ]);
    assert.deepEqual(m.environments.map((e: any) => `${e.environment}/${e.eventCount}`).sort(), [
      'production/3',
      'staging/1',
    ]);
    assert.deepEqual(m.feedback, [{ message: 'from source' }]);
    assert.equal((await f.ok(`query($id: ID!) { issue(id: $id) { id } }`, { id: source }, p.token)).issue, null);

    // A later event of the source's grouping key joins the target; no issue is re-created.
    await f.ingest(p.projectId, [{ fingerprint: ['S'], message: 'source', at: at(5), user: { id: 'w' } }]);
    const after = (
      await f.ok(`query($id: ID!) { issue(id: $id) { eventCount userCount lastSeen } }`, { id: target }, p.token)
    ).issue;
    assert.deepEqual(after, { eventCount: 5, userCount: 4, lastSeen: at(5).toISOString() });
    const count: Array<{ n: string }> = await f.db.ds.query('SELECT count(*) AS n FROM issues WHERE project_id = $1', [
      p.projectId,
    ]);
    assert.equal(Number(count[0].n), 1);

    // Merging the merged issue into a third one carries the alias along.
    await f.ingest(p.projectId, [{ fingerprint: ['U'], message: 'third', at: at(6) }]);
    const third = await issueIdOf(p.projectId, 'U');
    await f.ok(MERGE, { t: third, s: target }, p.token);
    await f.ingest(p.projectId, [{ fingerprint: ['S'], message: 'source', at: at(7) }]);
    const final = (await f.ok(`query($id: ID!) { issue(id: $id) { eventCount } }`, { id: third }, p.token)).issue;
    assert.equal(final.eventCount, 7);
  });

  test('deleteIssue removes the issue and its events; members are FORBIDDEN, strangers NOT_FOUND', async () => {
    const p = await f.account('pro');
    await f.ingest(p.projectId, [{ fingerprint: ['D'], message: 'doomed', at: at(1) }]);
    const doomed = await issueIdOf(p.projectId, 'D');
    const DELETE = `mutation($id: ID!) { deleteIssue(id: $id) }`;
    const theirs = await f.run(DELETE, { id: doomed }, stranger.token);
    assert.deepEqual(theirs, await f.run(DELETE, { id: randomUUID() }, stranger.token));
    assert.equal(theirs.errors[0].extensions.code, 'NOT_FOUND');

    const member = await f.account('free');
    await f.db.ds.query(`INSERT INTO memberships (organization_id, user_id, role) VALUES ($1, $2, 'member')`, [
      p.organizationId,
      member.userId,
    ]);
    const forbidden = await f.run(DELETE, { id: doomed }, member.token);
    assert.equal(forbidden.errors[0].extensions.code, 'FORBIDDEN');

    assert.deepEqual(await f.ok(DELETE, { id: doomed }, p.token), { deleteIssue: doomed });
    assert.equal((await f.ok(`query($id: ID!) { issue(id: $id) { id } }`, { id: doomed }, p.token)).issue, null);
    const left: Array<{ n: string }> = await f.db.ds.query('SELECT count(*) AS n FROM events WHERE issue_id = $1', [
      doomed,
    ]);
    assert.equal(Number(left[0].n), 0);
    const again = await f.run(DELETE, { id: doomed }, p.token);
    assert.equal(again.errors[0].extensions.code, 'NOT_FOUND');
  });
});
