/** The logs search against a real Postgres: filters, newest-first order and keyset pagination edges. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { persistLogs, type PreparedLog } from '@tracker/core';
import { createHarness, seededRandom, type Harness, type Tenant } from './read-harness';

const LOGS = `query($p: ID!, $f: LogFilter, $n: Int, $a: String) {
  logs(projectId: $p, filter: $f, first: $n, after: $a) {
    nodes { id level message context environment release tags timestamp }
    edges { cursor node { id } }
    pageInfo { hasNextPage endCursor }
  }
}`;
const T0 = Date.parse('2026-04-01T00:00:00.000Z');

interface Seeded {
  id: string;
  level: string;
  message: string;
  environment: string;
  release: string | null;
  /** ISO with microseconds: the sort key Postgres uses. */
  key: string;
}

/** Newest first by (timestamp, id): uuid order is the order of its lowercase hex text. */
const newestFirst = (a: Seeded, b: Seeded) => (a.key === b.key ? (a.id < b.id ? 1 : -1) : a.key < b.key ? 1 : -1);

describe('logs query', () => {
  let h: Harness;
  let owner: Tenant;
  let other: Tenant;
  const seeded: Seeded[] = [];

  async function all(
    filter: Record<string, unknown>,
    first: number,
  ): Promise<{ ids: string[]; pages: number; endCursor: string | null }> {
    const ids: string[] = [];
    let after: string | null = null;
    let pages = 0;
    for (;;) {
      const d = await h.ok(LOGS, { p: owner.project, f: filter, n: first, a: after }, owner.token);
      pages++;
      ids.push(...d.logs.nodes.map((n: any) => n.id));
      assert.deepEqual(
        d.logs.edges.map((e: any) => e.node.id),
        d.logs.nodes.map((n: any) => n.id),
      );
      assert.equal(d.logs.pageInfo.endCursor, d.logs.edges.at(-1)?.cursor ?? null);
      if (!d.logs.pageInfo.hasNextPage) {
        assert.ok(d.logs.nodes.length <= first);
        return { ids, pages, endCursor: d.logs.pageInfo.endCursor };
      }
      assert.equal(d.logs.nodes.length, first, 'a page before the last is full');
      after = d.logs.pageInfo.endCursor;
    }
  }

  before(async () => {
    h = await createHarness();
    owner = await h.tenant();
    other = await h.tenant();
    const rnd = seededRandom(60);
    const logs: PreparedLog[] = [];
    const words = [
      'request timeout on /api',
      'Cache miss',
      'user signed in',
      'disk 50% full',
      'disk 50 x full',
      'TIMEOUT talking to redis',
    ];
    for (let i = 0; i < 230; i++) {
      // Every third log shares its timestamp with the previous one: the id breaks the tie.
      const at = new Date(T0 + (i - (i % 3 === 2 ? 1 : 0)) * 60_000);
      const l: PreparedLog = {
        projectId: owner.project,
        id: randomUUID(),
        level: (['debug', 'info', 'warn', 'error'] as const)[Math.floor(rnd() * 4)],
        message: `${words[Math.floor(rnd() * words.length)]} #${i}`,
        context: i % 10 === 0 ? { attempt: i, nested: { ok: true } } : null,
        environment: rnd() < 0.7 ? 'production' : 'staging',
        release: rnd() < 0.5 ? '2.0' : null,
        tags: { region: 'eu' },
        timestamp: at,
        receivedAt: at,
      };
      logs.push(l);
      seeded.push({ ...l, key: at.toISOString().replace('Z', '000Z') });
    }
    await h.db.ds.transaction((em) =>
      persistLogs(em, [...logs, ...logs.slice(0, 30).map((l) => ({ ...l, projectId: other.project }))]),
    );
    // Two logs a microsecond apart (a JS Date cannot tell them apart): the cursor must.
    for (const us of ['2026-04-05T00:00:00.000001Z', '2026-04-05T00:00:00.000002Z']) {
      const id = randomUUID();
      await h.db.ds.query(
        `INSERT INTO logs (project_id, id, level, message, environment, tags, timestamp, received_at, retention_days)
         VALUES ($1, $2, 'info', 'microsecond apart', 'production', '{}', $3, now(), 30)`,
        [owner.project, id, us],
      );
      seeded.push({
        id,
        level: 'info',
        message: 'microsecond apart',
        environment: 'production',
        release: null,
        key: us.replace(/\.(\d{6})Z/, '.$1Z'),
      });
    }
  });
  after(() => h.close());

  test('pages through every log newest first, with no gap and no repeat, and the last page says so', async () => {
    const expected = [...seeded].sort(newestFirst).map((s) => s.id);
    for (const first of [1, 7, 50, 100]) {
      if (first === 1) {
        // One per page over the top of the list only: the microsecond pair and a tie.
        const d1 = await h.ok(LOGS, { p: owner.project, n: 1 }, owner.token);
        const d2 = await h.ok(LOGS, { p: owner.project, n: 1, a: d1.logs.pageInfo.endCursor }, owner.token);
        assert.deepEqual([d1.logs.nodes[0].id, d2.logs.nodes[0].id], expected.slice(0, 2));
        continue;
      }
      const { ids, pages } = await all({}, first);
      assert.deepEqual(ids, expected, `first: ${first}`);
      assert.equal(pages, Math.ceil(expected.length / first));
    }
    const page = await h.ok(LOGS, { p: owner.project, f: { text: '#220' } }, owner.token);
    assert.deepEqual(
      page.logs.nodes.map((n: any) => [n.tags, n.context]),
      [[{ region: 'eu' }, { attempt: 220, nested: { ok: true } }]],
    );
  });

  test('filters by context attributes, compared as text, all of them matching', async () => {
    const byAttempt = await h.ok(
      LOGS,
      { p: owner.project, f: { attributes: [{ key: 'attempt', value: '220' }] } },
      owner.token,
    );
    const byText = await h.ok(LOGS, { p: owner.project, f: { text: '#220' } }, owner.token);
    assert.equal(byAttempt.logs.nodes.length, 1);
    assert.deepEqual(byAttempt.logs.nodes, byText.logs.nodes);
    const { ids } = await all(
      { attributes: [{ key: 'attempt', value: '220' }], levels: ['ERROR', 'WARN', 'INFO', 'DEBUG'] },
      10,
    );
    assert.deepEqual(ids, [byText.logs.nodes[0].id]);
    for (const attributes of [
      [{ key: 'attempt', value: '7' }],
      [{ key: 'Attempt', value: '220' }],
      [
        { key: 'attempt', value: '220' },
        { key: 'attempt', value: '210' },
      ],
      [{ key: 'nested.ok', value: 'true' }],
    ]) {
      const none = await h.ok(LOGS, { p: owner.project, f: { attributes } }, owner.token);
      assert.deepEqual(none.logs.nodes, [], JSON.stringify(attributes));
    }
  });

  test('filters by level, text, environment, release and time range', async () => {
    const from = new Date(T0 + 30 * 60_000).toISOString();
    const to = new Date(T0 + 90 * 60_000).toISOString();
    const cases: Array<[Record<string, unknown>, (s: Seeded) => boolean]> = [
      [{ levels: ['ERROR', 'WARN'] }, (s) => s.level === 'error' || s.level === 'warn'],
      [{ levels: [] }, () => true],
      [{ text: 'timeout' }, (s) => s.message.toLowerCase().includes('timeout')],
      [{ text: '50%' }, (s) => s.message.includes('50%')],
      [{ text: '_' }, (s) => s.message.includes('_')],
      [{ environment: 'staging', release: '2.0' }, (s) => s.environment === 'staging' && s.release === '2.0'],
      [{ from, to }, (s) => s.key >= from.replace('Z', '000Z') && s.key < to.replace('Z', '000Z')],
      [
        { levels: ['DEBUG'], text: 'disk', environment: 'production' },
        (s) => s.level === 'debug' && s.message.includes('disk') && s.environment === 'production',
      ],
    ];
    for (const [filter, keep] of cases) {
      const { ids } = await all(filter, 40);
      assert.deepEqual(
        ids,
        seeded
          .filter(keep)
          .sort(newestFirst)
          .map((s) => s.id),
        JSON.stringify(filter),
      );
    }
  });

  test('an empty result, and the cursor of the last log, give empty pages', async () => {
    const none = await h.ok(LOGS, { p: owner.project, f: { text: 'no such words anywhere' } }, owner.token);
    assert.deepEqual(none.logs, { nodes: [], edges: [], pageInfo: { hasNextPage: false, endCursor: null } });
    const { ids, endCursor } = await all({ levels: ['ERROR'] }, 100);
    assert.ok(ids.length > 0 && endCursor);
    const tail = await h.ok(LOGS, { p: owner.project, f: { levels: ['ERROR'] }, a: endCursor }, owner.token);
    assert.deepEqual(tail.logs, { nodes: [], edges: [], pageInfo: { hasNextPage: false, endCursor: null } });
  });

  test('a log arriving between pages does not shift the next page', async () => {
    const first = await h.ok(LOGS, { p: owner.project, n: 10 }, owner.token);
    await h.db.ds.query(
      `INSERT INTO logs (project_id, id, level, message, environment, tags, timestamp, received_at, retention_days)
       VALUES ($1, $2, 'error', 'late arrival', 'production', '{}', '2026-04-10T00:00:00Z', now(), 30)`,
      [owner.project, randomUUID()],
    );
    const second = await h.ok(LOGS, { p: owner.project, n: 10, a: first.logs.pageInfo.endCursor }, owner.token);
    const expected = [...seeded].sort(newestFirst).map((s) => s.id);
    assert.deepEqual(
      [...first.logs.nodes, ...second.logs.nodes].map((n: any) => n.id),
      expected.slice(0, 20),
    );
  });

  test('invalid cursors, page sizes and filters answer BAD_USER_INPUT', async () => {
    const forged = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    for (const a of [
      'garbage',
      '',
      forged(['2026-04-01T00:00:00.000000Z', 'not-a-uuid']),
      forged(['yesterday', randomUUID()]),
      forged({}),
    ]) {
      if (a === '') continue; // an empty after is "no cursor"
      const r = await h.run(LOGS, { p: owner.project, a }, owner.token);
      assert.equal(r.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT', a);
      assert.match(r.errors[0].message, /^after: not a cursor/);
    }
    for (const n of [0, 101, -1])
      assert.equal(await h.code(LOGS, { p: owner.project, n }, owner.token), 'BAD_USER_INPUT');
    for (const f of [
      { text: '' },
      { text: 'x'.repeat(201) },
      { from: 'soon' },
      { from: '2026-04-02T00:00:00Z', to: '2026-04-01T00:00:00Z' },
      { environment: '' },
      { attributes: [{ key: '', value: 'x' }] },
      { attributes: [{ key: 'k', value: 'x'.repeat(201) }] },
      { attributes: Array.from({ length: 6 }, (_, i) => ({ key: `k${i}`, value: 'v' })) },
    ]) {
      assert.equal(await h.code(LOGS, { p: owner.project, f }, owner.token), 'BAD_USER_INPUT', JSON.stringify(f));
    }
    // An enum value outside LogLevel is refused by GraphQL itself.
    assert.equal(await h.code(LOGS, { p: owner.project, f: { levels: ['FATAL'] } }, owner.token), 'BAD_USER_INPUT');
  });

  test("another tenant's project answers like a missing one, and each sees only its own logs", async () => {
    const foreign = await h.run(LOGS, { p: owner.project }, other.token);
    const missing = await h.run(LOGS, { p: randomUUID() }, other.token);
    assert.deepEqual(foreign, missing);
    assert.equal(foreign.errors[0].extensions.code, 'NOT_FOUND');
    const { ids } = await all({}, 100);
    const own = await h.ok(LOGS, { p: other.project, n: 100 }, other.token);
    assert.equal(own.logs.nodes.length, 30);
    // The same log ids exist in both projects (client-chosen ids are unique per project only).
    assert.ok(own.logs.nodes.every((n: any) => ids.includes(n.id)));
    assert.equal(await h.code(LOGS, { p: owner.project }), 'UNAUTHENTICATED');
  });
});
