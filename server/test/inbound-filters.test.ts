import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import {
  gql,
  gqlOk,
  MODES,
  createTestEnv,
  sendError,
  signUpWithProject,
  startTracker,
  waitFor,
  type TestEnv,
} from './helpers';
import type { Tracker } from '../src';
import { ALL_ON, CHROME_131, SAMPLES } from './inbound-filter-samples';

/**
 * Issue 31: inbound filters drop error events at the edge, before the quota is counted. Each
 * filter's sample event answers 202 (an SDK must not retry it), is never stored, is counted per
 * filter (shown in settings, last 30 days, and in /metrics), and leaves the quota as it was; an
 * event no filter matches is stored and charged as usual. Both doors (our wire, through the fast
 * path and fastify's route, and Sentry's store/envelope) and both runtimes.
 */
const FILTERS = `query($p: ID!) { projectInboundFilters(projectId: $p) {
  browserExtensions localhost legacyBrowsers webCrawlers errorMessages releases
  legacyBrowserMinVersions { browser minVersion } dropped { filter dropped } } }`;
const UPDATE = `mutation($p: ID!, $input: ProjectInboundFiltersInput!, $confirm: Boolean) {
  updateProjectInboundFilters(projectId: $p, input: $input, confirmDropAll: $confirm) { errorMessages releases localhost } }`;
const USAGE = `query($o: ID!) { usage(organizationId: $o) { events { used } } }`;

function baseEvent(extra: Record<string, unknown>) {
  return {
    type: 'TypeError',
    message: 'cart total is NaN',
    environment: 'production',
    url: 'https://shop.example.com/cart',
    context: { userAgent: CHROME_131 },
    ...extra,
  };
}

for (const mode of MODES) {
  describe(`inbound filters (${mode})`, () => {
    let env: TestEnv;
    let tracker: Tracker;
    let url: string;

    before(async () => {
      env = await createTestEnv(mode);
      tracker = await startTracker(env);
      url = tracker.url;
    });
    after(async () => {
      await tracker?.close();
      await env?.cleanup();
    });

    async function metric(labels: string): Promise<number> {
      const text = await (await fetch(`${url}/metrics`)).text();
      const line = text.split('\n').find((l) => l.startsWith(`tracker_events_discarded_total${labels} `));
      return line ? Number(line.split(' ').pop()) : 0;
    }

    async function stored(projectId: string): Promise<number> {
      const [row] = await tracker.db.ds.query('SELECT count(*)::int AS n FROM events WHERE project_id = $1', [
        projectId,
      ]);
      return row.n;
    }

    test('each filter drops its sample on both paths of /ingest/error: 202, not stored, counted, not charged', async () => {
      const a = await signUpWithProject(url);
      const p = { p: a.project.id };
      await gqlOk(url, UPDATE, { ...p, input: ALL_ON }, a.token);
      const before = await metric('{reason="inbound_filter_localhost",where="edge"}');
      for (const { filter, event } of SAMPLES) {
        for (const type of ['application/json', 'application/json; charset=utf-8']) {
          const r = await sendError(url, a.key, baseEvent({ ...event, eventId: randomUUID() }), {
            'content-type': type,
          });
          assert.equal(r.status, 202, `${filter} via ${type}: ${JSON.stringify(r.body)}`);
        }
      }
      assert.ok(tracker.ingestFastPath!.taken > 0, 'the fast path took some');
      // One event no filter matches: stored and charged.
      const kept = await sendError(url, a.key, baseEvent({ eventId: randomUUID() }));
      assert.equal(kept.status, 202);
      await waitFor('the kept event', async () => (await stored(a.project.id)) === 1, 30_000);

      const counts = await waitFor(
        'the drops counted',
        async () => {
          const f = (await gqlOk(url, FILTERS, p, a.token)).projectInboundFilters;
          const by = Object.fromEntries(
            f.dropped.map((d: { filter: string; dropped: number }) => [d.filter, d.dropped]),
          );
          return SAMPLES.every((s) => by[s.filter] === 2) ? by : undefined;
        },
        30_000,
      );
      assert.deepEqual(Object.keys(counts).sort(), SAMPLES.map((s) => s.filter).sort());
      assert.equal(await stored(a.project.id), 1, 'nothing filtered was stored');
      assert.equal((await gqlOk(url, USAGE, { o: a.organization.id }, a.token)).usage.events.used, 1);
      assert.equal(await metric('{reason="inbound_filter_localhost",where="edge"}'), before + 2);
    });

    test("Sentry's store and envelope doors are filtered too", async () => {
      const a = await signUpWithProject(url);
      await gqlOk(url, UPDATE, { p: a.project.id, input: { releases: ['*-dev'], localhost: true } }, a.token);
      const number = new URL(a.dsn).pathname.split('/').pop();
      const sentryEvent = (extra: Record<string, unknown>) => ({
        event_id: randomUUID().replace(/-/g, ''),
        platform: 'javascript',
        exception: { values: [{ type: 'Error', value: 'from sentry' }] },
        ...extra,
      });
      const store = await fetch(`${url}/api/${number}/store/`, {
        method: 'POST',
        headers: {
          'x-sentry-auth': `Sentry sentry_version=7, sentry_key=${a.key}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify(sentryEvent({ release: 'api@1.0.0-dev' })),
      });
      assert.equal(store.status, 200);
      const event = sentryEvent({ request: { url: 'http://127.0.0.1:8000/orders' } });
      const envelope = [
        JSON.stringify({ event_id: event.event_id }),
        JSON.stringify({ type: 'event' }),
        JSON.stringify(event),
      ].join('\n');
      const env2 = await fetch(`${url}/api/${number}/envelope/?sentry_key=${a.key}&sentry_version=7`, {
        method: 'POST',
        body: envelope,
      });
      assert.equal(env2.status, 200);
      await waitFor(
        'both counted',
        async () => {
          const f = (await gqlOk(url, FILTERS, { p: a.project.id }, a.token)).projectInboundFilters;
          const by = Object.fromEntries(
            f.dropped.map((d: { filter: string; dropped: number }) => [d.filter, d.dropped]),
          );
          return by.RELEASES === 1 && by.LOCALHOST === 1;
        },
        30_000,
      );
      assert.equal(await stored(a.project.id), 0);
      assert.equal((await gqlOk(url, USAGE, { o: a.organization.id }, a.token)).usage.events.used, 0);
    });

    test('bad input is refused with a clear message and changes nothing; a drop-all pattern needs confirmation', async () => {
      const a = await signUpWithProject(url);
      const p = { p: a.project.id };
      await gqlOk(url, UPDATE, { ...p, input: { errorMessages: ['*timeout*'], localhost: true } }, a.token);
      const saved = (await gqlOk(url, FILTERS, p, a.token)).projectInboundFilters;

      const long = await gql(
        url,
        UPDATE,
        { ...p, input: { errorMessages: ['x'.repeat(10_000)], localhost: false } },
        a.token,
      );
      assert.equal(long.errors?.[0].extensions?.code, 'BAD_USER_INPUT');
      assert.match(
        long.errors![0].message,
        /errorMessages: a pattern may have at most 200 characters \(one has 10,000\)/,
      );

      const all = await gql(url, UPDATE, { ...p, input: { errorMessages: ['*'], localhost: false } }, a.token);
      assert.equal(all.errors?.[0].extensions?.code, 'BAD_USER_INPUT');
      assert.match(all.errors![0].message, /matches everything, so every error event would be dropped.*confirmDropAll/);
      assert.deepEqual((await gqlOk(url, FILTERS, p, a.token)).projectInboundFilters, saved, 'nothing changed');

      const confirmed = await gqlOk(url, UPDATE, { ...p, input: { errorMessages: ['*'] }, confirm: true }, a.token);
      assert.deepEqual(confirmed.updateProjectInboundFilters.errorMessages, ['*']);
      const r = await sendError(url, a.key, baseEvent({ eventId: randomUUID() }));
      assert.equal(r.status, 202);
      await waitFor(
        'the drop counted',
        async () =>
          (await gqlOk(url, FILTERS, p, a.token)).projectInboundFilters.dropped.find(
            (d: { filter: string }) => d.filter === 'ERROR_MESSAGES',
          ).dropped === 1,
        30_000,
      );
      assert.equal(await stored(a.project.id), 0);
    });
  });
}
