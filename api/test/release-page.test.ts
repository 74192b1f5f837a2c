import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { registerRelease, setReleaseCommits, storeSourceMaps } from '@tracker/core';
import { createIssueFixture, HOUR_MS, type IssueFixture } from './issue-fixtures';

// Issue 31 §3: the release detail page's query. A version with the characters URLs mangle.
const V = 'web@2.0/rc+1';
const MAP = JSON.stringify({ version: 3, sources: ['a.ts'], names: [], mappings: 'AAAA' });

const RELEASE = `query($p: ID!, $v: String!, $first: Int) { release(projectId: $p, version: $v) {
  version projectId dateCreated dateReleased
  deploys { version environment deployedAt }
  newIssues(first: $first) { totalCount nodes { environments at issue { id title status } } }
  regressedIssues { totalCount nodes { environments issue { title status isRegression } } }
  resolvedIssues { totalCount nodes { environments issue { title status } } }
  sourceMaps { totalCount totalBytes nodes { filename sizeBytes uploadedAt } }
  artifactBundles { checksum dist fileCount assembledAt }
  commits { id message }
} }`;

describe('release(projectId, version): the release detail page', () => {
  let f: IssueFixture;
  let owner: Awaited<ReturnType<IssueFixture['account']>>;
  let stranger: Awaited<ReturnType<IssueFixture['account']>>;
  const started = Date.now() - 1_000;
  const D = Math.floor(Date.now() / HOUR_MS) * HOUR_MS - 40 * HOUR_MS;
  const at = (h: number) => new Date(D + h * HOUR_MS);
  const issueId = async (fingerprint: string) =>
    (
      await f.db.ds.query(
        `SELECT DISTINCT issue_id AS id FROM events WHERE fingerprint = $1::jsonb AND project_id = $2`,
        [JSON.stringify([fingerprint]), owner.projectId],
      )
    )[0].id as string;
  const resolve = (id: string) => f.ok(`mutation($id: ID!) { resolveIssue(id: $id) { status } }`, { id }, owner.token);

  before(async () => {
    f = await createIssueFixture();
    owner = await f.account('pro');
    stranger = await f.account('pro');
    const p = owner.projectId;
    await registerRelease(f.db.ds, { projectId: p, version: '1.0', at: at(0) });
    await f.ingest(p, [
      { fingerprint: ['X'], message: 'X', release: '1.0', at: at(1) },
      { fingerprint: ['O'], message: 'O', release: '1.0', at: at(2) },
    ]);
    await resolve(await issueId('X')); // resolved in 1.0
    await registerRelease(f.db.ds, { projectId: p, version: V, at: at(10) });
    await registerRelease(f.db.ds, { projectId: p, version: V, environment: 'staging', at: at(11) });
    await f.ingest(p, [
      { fingerprint: ['X'], message: 'X', release: V, at: at(12) }, // regresses X
      { fingerprint: ['O'], message: 'O', release: V, at: at(12) }, // old: neither new nor regressed
      { fingerprint: ['N'], message: 'N', release: V, at: at(12) },
      { fingerprint: ['N'], message: 'N', release: V, environment: 'staging', at: at(13) },
      { fingerprint: ['Q'], message: 'Q', release: V, environment: 'staging', at: at(14) },
      { fingerprint: ['R'], message: 'R', release: V, at: at(15) },
      // Seen only: never registered, so it has no page.
      { fingerprint: ['S'], message: 'S', release: 'seen-only', at: at(15) },
    ]);
    await resolve(await issueId('Q')); // resolved in V (staging: the newest deploy)
    // Resolved in V, then reopened by hand: no longer resolved in it.
    const r = await issueId('R');
    await resolve(r);
    await f.ok(`mutation($id: ID!) { reopenIssue(id: $id) { status } }`, { id: r }, owner.token);
    await storeSourceMaps(f.db.ds, {
      projectId: p,
      release: V,
      files: [
        { filename: 'main.js.map', map: MAP },
        { filename: 'vendor.js.map', map: MAP },
      ],
    });
    await storeSourceMaps(f.db.ds, { projectId: p, release: '1.0', files: [{ filename: 'old.js.map', map: MAP }] });
    await f.db.ds.query(
      `INSERT INTO artifact_bundles (project_id, checksum, release, dist, file_count) VALUES ($1, $2, $3, 'web', 4)`,
      [p, 'a'.repeat(40), V],
    );
    await setReleaseCommits(f.db.ds, {
      projectId: p,
      version: V,
      commits: [
        {
          id: 'c'.repeat(40),
          repository: 'web',
          authorName: null,
          authorEmail: null,
          message: 'Fix',
          timestamp: null,
          files: [],
        },
      ],
    });
  });
  after(() => f.close());

  test('answers its deploys, its new, regressed and resolved issues, its files and commits', async () => {
    const { release } = await f.ok(RELEASE, { p: owner.projectId, v: V }, owner.token);
    assert.equal(release.version, V);
    // When it was first registered: by this test, not the deploy time it was given.
    assert.ok(Date.parse(release.dateCreated) >= started && Date.parse(release.dateCreated) <= Date.now());
    assert.equal(release.dateReleased, null);
    assert.deepEqual(release.deploys, [
      { version: V, environment: 'staging', deployedAt: at(11).toISOString() },
      { version: V, environment: 'production', deployedAt: at(10).toISOString() },
    ]);
    assert.equal(release.newIssues.totalCount, 3);
    assert.deepEqual(
      release.newIssues.nodes.map((n: any) => [n.issue.title, n.environments, n.at]),
      [
        ['Error: R', ['production'], at(15).toISOString()],
        ['Error: Q', ['staging'], at(14).toISOString()],
        ['Error: N', ['production', 'staging'], at(12).toISOString()],
      ],
    );
    assert.deepEqual(release.regressedIssues, {
      totalCount: 1,
      nodes: [{ environments: ['production'], issue: { title: 'Error: X', status: 'OPEN', isRegression: true } }],
    });
    assert.deepEqual(release.resolvedIssues, {
      totalCount: 1,
      nodes: [{ environments: ['staging'], issue: { title: 'Error: Q', status: 'RESOLVED' } }],
    });
    assert.equal(release.sourceMaps.totalCount, 2);
    assert.equal(release.sourceMaps.totalBytes, 2 * Buffer.byteLength(MAP));
    assert.deepEqual(release.sourceMaps.nodes.map((n: any) => [n.filename, n.sizeBytes]).sort(), [
      ['main.js.map', Buffer.byteLength(MAP)],
      ['vendor.js.map', Buffer.byteLength(MAP)],
    ]);
    assert.deepEqual(
      release.artifactBundles.map((b: any) => [b.checksum, b.dist, b.fileCount]),
      [['a'.repeat(40), 'web', 4]],
    );
    assert.deepEqual(release.commits, [{ id: 'c'.repeat(40), message: 'Fix' }]);
  });

  test('bounds each list by first and still counts them all', async () => {
    const { release } = await f.ok(RELEASE, { p: owner.projectId, v: V, first: 1 }, owner.token);
    assert.equal(release.newIssues.totalCount, 3);
    assert.equal(release.newIssues.nodes.length, 1);
  });

  test('an older version lists only what is its own', async () => {
    const { release } = await f.ok(RELEASE, { p: owner.projectId, v: '1.0' }, owner.token);
    assert.deepEqual(
      release.newIssues.nodes.map((n: any) => n.issue.title),
      ['Error: O', 'Error: X'],
    );
    // X was resolved in 1.0 but regressed since: resolved-in was cleared.
    assert.equal(release.resolvedIssues.totalCount, 0);
    assert.deepEqual(
      release.sourceMaps.nodes.map((n: any) => n.filename),
      ['old.js.map'],
    );
    assert.deepEqual(release.artifactBundles, []);
  });

  test('answers null for a version the project never registered, seen on events or not', async () => {
    for (const v of ['seen-only', '9.9.9', 'x'.repeat(201), '', V.toUpperCase()]) {
      const r = await f.ok(RELEASE, { p: owner.projectId, v }, owner.token);
      assert.equal(r.release, null, v);
    }
  });

  test("another organization's member gets NOT_FOUND, exactly as for a project that does not exist", async () => {
    const theirs = await f.run(RELEASE, { p: owner.projectId, v: V }, stranger.token);
    const missing = await f.run(RELEASE, { p: '00000000-0000-4000-8000-000000000000', v: V }, stranger.token);
    assert.deepEqual(theirs, missing);
    assert.equal(theirs.errors[0].extensions.code, 'NOT_FOUND');
    assert.deepEqual(theirs.data, { release: null });
    assert.ok(!JSON.stringify(theirs).includes(owner.projectId));
  });

  test('health on a Free plan is refused with PLAN_REQUIRED, as on the Releases page; the rest still answers', async () => {
    const free = await f.account('free');
    await registerRelease(f.db.ds, { projectId: free.projectId, version: V, at: at(0) });
    const r = await f.run(
      `query($p: ID!, $v: String!) { release(projectId: $p, version: $v) { version deploys { environment health { usersSeen } } } }`,
      { p: free.projectId, v: V },
      free.token,
    );
    assert.equal(r.errors[0].extensions.code, 'PLAN_REQUIRED');
    assert.deepEqual(r.data.release, { version: V, deploys: [{ environment: 'production', health: null }] });
    const pro = await f.ok(
      `query($p: ID!, $v: String!) { release(projectId: $p, version: $v) { deploys { environment health { issuesIntroduced regressions } } } }`,
      { p: owner.projectId, v: V },
      owner.token,
    );
    assert.deepEqual(pro.release.deploys, [
      { environment: 'staging', health: { issuesIntroduced: 2, regressions: 0 } },
      { environment: 'production', health: { issuesIntroduced: 2, regressions: 1 } },
    ]);
  });
});
