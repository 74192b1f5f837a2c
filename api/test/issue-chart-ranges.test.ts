import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createIssueFixture, HOUR_MS, type IssueFixture } from './issue-fixtures';

const DAY_MS = 24 * HOUR_MS;

const SERIES = `query($id: ID!) { issue(id: $id) {
  hour: eventSeries(range: LAST_HOUR) { ts count }
  day: eventSeries(range: LAST_24_HOURS) { ts count }
  week: eventSeries(range: LAST_7_DAYS) { ts count }
  month: eventSeries(range: LAST_30_DAYS) { ts count }
  latestEvent { frames { filename minified { filename } } }
} }`;

for (const kind of ['postgres', 'pglite'] as const)
  describe(`the issue page's chart ranges and de-minified paths (${kind})`, () => {
    let f: IssueFixture;
    let owner: Awaited<ReturnType<IssueFixture['account']>>;
    let issueId: string;

    before(async () => {
      f = await createIssueFixture(kind);
      owner = await f.account('free');
      const now = Date.now();
      // One event in each range only: 3 minutes, 2 hours, 3 days, 20 days and 40 days ago.
      await f.ingest(
        owner.projectId,
        [40 * DAY_MS, 20 * DAY_MS, 3 * DAY_MS, 2 * HOUR_MS, 3 * 60_000].map((ago) => ({
          fingerprint: ['chart'],
          at: new Date(now - ago),
        })),
      );
      [{ id: issueId }] = await f.db.ds.query(`SELECT id FROM issues WHERE project_id = $1`, [owner.projectId]);
    });
    after(() => f.close());

    test('each range has its buckets, oldest first, and counts only its own events', async () => {
      const { issue } = await f.ok(SERIES, { id: issueId }, owner.token);
      const shape = (points: Array<{ ts: string; count: number }>) => ({
        buckets: points.length,
        step: Date.parse(points[1].ts) - Date.parse(points[0].ts),
        total: points.reduce((n, p) => n + p.count, 0),
      });
      assert.deepEqual(shape(issue.hour), { buckets: 12, step: 5 * 60_000, total: 1 });
      assert.deepEqual(shape(issue.day), { buckets: 24, step: HOUR_MS, total: 2 });
      assert.deepEqual(shape(issue.week), { buckets: 28, step: 6 * HOUR_MS, total: 3 });
      assert.deepEqual(shape(issue.month), { buckets: 30, step: DAY_MS, total: 4 });
      // Days start at midnight UTC.
      assert.ok(issue.month.every((p: { ts: string }) => p.ts.endsWith('T00:00:00.000Z')));
    });

    test('an unknown range is refused by the schema', async () => {
      const r = await f.run(
        `query($id: ID!) { issue(id: $id) { eventSeries(range: LAST_YEAR) { count } } }`,
        { id: issueId },
        owner.token,
      );
      assert.equal(r.errors[0].extensions.code, 'GRAPHQL_VALIDATION_FAILED');
    });

    test('frames de-minified before paths were tidied read as the developer wrote them', async () => {
      // As the worker stored them before sourcePathFromMap: the map's source as trace-mapping resolved it.
      await f.db.ds.query(`UPDATE events SET frames = $2::jsonb WHERE issue_id = $1`, [
        issueId,
        JSON.stringify([
          {
            filename: 'webpack:///src/app/cart.ts',
            function: 'addItem',
            lineno: 3,
            colno: 7,
            inApp: true,
            minified: { filename: 'https://shop.example/app.js', function: 'a', lineno: 1, colno: 99 },
          },
          { filename: '../../lib/no-map.js', function: 'x', lineno: 1, colno: 1, inApp: true },
        ]),
      ]);
      const { issue } = await f.ok(SERIES, { id: issueId }, owner.token);
      assert.deepEqual(
        issue.latestEvent.frames.map((fr: { filename: string }) => fr.filename),
        // A frame no map touched is shown as the engine printed it.
        ['src/app/cart.ts', '../../lib/no-map.js'],
      );
      assert.equal(issue.latestEvent.frames[0].minified.filename, 'https://shop.example/app.js');
    });
  });
