import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { errorEventSchema, queuedErrorEventSchema } from '@tracker/core';
import { createIssueFixture, HOUR_MS, type IssueFixture } from './issue-fixtures';

const EVENT = `query($id: ID!) { event(id: $id) {
  id eventId issueId componentStack
  exceptions { type value stack frames { function lineno inApp context { pre line post } preContext contextLine postContext vars { name value } } }
  breadcrumbs { timestamp category message level data }
  request { method url queryString headers { name value } data }
  navigation { oldest older newer latest }
  json
} }`;

const ISSUE_EVENT = `query($issue: ID!, $id: ID!) { issue(id: $issue) {
  latestEvent { id navigation { oldest older newer latest } }
  events(first: 10) { nodes { id } }
  event(id: $id) { id message }
} }`;

/** Issue 29 over GraphQL: the evidence fields, `Event.id` the UUID, and navigation; on both engines. */
for (const kind of ['postgres', 'pglite'] as const) {
  describe(`an event's evidence and navigation over GraphQL (${kind})`, () => {
    let f: IssueFixture;
    let owner: Awaited<ReturnType<IssueFixture['account']>>;
    const D = Math.floor(Date.now() / HOUR_MS) * HOUR_MS - 10 * HOUR_MS;
    const at = (h: number) => new Date(D + h * HOUR_MS);
    const ids = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    let issueId: string;

    before(async () => {
      f = await createIssueFixture(kind);
      owner = await f.account('pro');
      const evidence = queuedErrorEventSchema.parse({
        type: 'TypeError',
        message: 'x is undefined',
        environment: 'production',
        frames: [
          {
            filename: '/app/cart.js',
            function: 'load',
            lineno: 12,
            colno: 3,
            inApp: true,
            context: { pre: ['a'], line: 'x.y()', post: ['b'] },
            vars: { n: '1' },
          },
        ],
        causes: [
          {
            type: 'RangeError',
            message: 'index',
            frames: [{ filename: 'node:internal/x', function: null, lineno: 1, colno: 1, inApp: false }],
          },
        ],
        breadcrumbs: [
          { timestamp: at(2).toISOString(), category: 'navigation', message: '/cart', level: 'info' },
          { timestamp: at(2).toISOString(), category: 'http', level: 'error', data: { url: '/api', status: 500 } },
        ],
        request: {
          method: 'POST',
          url: 'https://shop.example/cart',
          queryString: 'q=1',
          headers: { Accept: 'text/html' },
          data: { n: 2 },
        },
        context: { react: { componentStack: '\n    at Cart\n    at App' } },
        fingerprint: ['nav'],
      });
      const plain = errorEventSchema.parse({
        type: 'TypeError',
        message: 'x is undefined',
        environment: 'production',
        fingerprint: ['nav'],
      });
      await f.ingest(owner.projectId, [
        { ...plain, eventId: ids[0], at: at(1) },
        { ...(evidence as typeof plain), eventId: ids[1], at: at(2) },
        { ...plain, eventId: ids[2], at: at(3) },
        { ...plain, eventId: ids[3], at: at(4) },
      ]);
      const [row] = await f.db.ds.query(`SELECT issue_id FROM events WHERE event_id = $1`, [ids[1]]);
      issueId = row.issue_id;
    });

    after(() => f?.close());

    test('Event.id is the event UUID the dashboard shows; the evidence fields read as stored', async () => {
      const e = (await f.ok(EVENT, { id: ids[1] }, owner.token)).event;
      assert.equal(e.id, ids[1]);
      assert.equal(e.eventId, ids[1]);
      assert.equal(e.issueId, issueId);
      assert.deepEqual(e.exceptions, [
        {
          type: 'TypeError',
          value: 'x is undefined',
          stack: null,
          frames: [
            {
              function: 'load',
              lineno: 12,
              inApp: true,
              context: { pre: ['a'], line: 'x.y()', post: ['b'] },
              preContext: ['a'],
              contextLine: 'x.y()',
              postContext: ['b'],
              vars: [{ name: 'n', value: '1' }],
            },
          ],
        },
        {
          type: 'RangeError',
          value: 'index',
          stack: null,
          frames: [
            {
              function: null,
              lineno: 1,
              inApp: false,
              context: null,
              preContext: [],
              contextLine: null,
              postContext: [],
              vars: [],
            },
          ],
        },
      ]);
      assert.deepEqual(e.breadcrumbs, [
        { timestamp: at(2).toISOString(), category: 'navigation', message: '/cart', level: 'info', data: null },
        {
          timestamp: at(2).toISOString(),
          category: 'http',
          message: null,
          level: 'error',
          data: { url: '/api', status: 500 },
        },
      ]);
      assert.deepEqual(e.request, {
        method: 'POST',
        url: 'https://shop.example/cart',
        queryString: 'q=1',
        headers: [{ name: 'Accept', value: 'text/html' }],
        data: { n: 2 },
      });
      assert.equal(e.componentStack, '\n    at Cart\n    at App');
      assert.equal(e.json.eventId, ids[1]);
      assert.deepEqual(
        e.json.request,
        e.request && {
          method: 'POST',
          url: 'https://shop.example/cart',
          queryString: 'q=1',
          headers: { Accept: 'text/html' },
          data: { n: 2 },
        },
      );
      assert.equal(e.json.causes[0].type, 'RangeError');
      assert.equal('grouping_key' in e.json || 'groupingKey' in e.json || 'id' in e.json, false);
    });

    test('navigation: oldest, older, newer and latest by timestamp; null at either end', async () => {
      const nav = async (id: string) => (await f.ok(EVENT, { id }, owner.token)).event.navigation;
      assert.deepEqual(await nav(ids[1]), { oldest: ids[0], older: ids[0], newer: ids[2], latest: ids[3] });
      assert.deepEqual(await nav(ids[0]), { oldest: null, older: null, newer: ids[1], latest: ids[3] });
      assert.deepEqual(await nav(ids[3]), { oldest: ids[0], older: ids[2], newer: null, latest: null });
    });

    test("Issue.event(id) answers only this issue's events; the list's ids are the UUIDs", async () => {
      const r = (await f.ok(ISSUE_EVENT, { issue: issueId, id: ids[2] }, owner.token)).issue;
      assert.equal(r.event.id, ids[2]);
      assert.equal(r.latestEvent.id, ids[3]);
      assert.deepEqual(r.latestEvent.navigation, { oldest: ids[0], older: ids[2], newer: null, latest: null });
      assert.deepEqual(
        r.events.nodes.map((n: { id: string }) => n.id),
        [...ids].reverse(),
      );
      for (const id of [randomUUID(), '7', 'abc']) {
        const other = (await f.ok(ISSUE_EVENT, { issue: issueId, id }, owner.token)).issue;
        assert.equal(other.event, null, id);
      }
    });

    test("another organization's caller gets null for the event", async () => {
      const stranger = await f.account('free');
      assert.deepEqual(await f.run(EVENT, { id: ids[1] }, stranger.token), { data: { event: null } });
    });
  });
}
