/** Monitors in GraphQL (issue 33): create, edit, pause, delete, list, plan limits and bad input. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createHarness, type Harness, type Tenant } from './read-harness';

const FIELDS = `id slug name kind crontab timezone intervalMinutes checkinMarginMinutes maxRuntimeMinutes
  failureTolerance recoveryThreshold url timeoutSeconds paused status environments { environment } checkIns(first: 5) { id }`;
const CREATE = `mutation($p: ID!, $k: MonitorKind!, $i: MonitorInput!) { createMonitor(projectId: $p, kind: $k, input: $i) { ${FIELDS} } }`;
const UPDATE = `mutation($id: ID!, $i: MonitorInput!) { updateMonitor(id: $id, input: $i) { ${FIELDS} } }`;

describe('monitors in GraphQL (issue 33)', () => {
  let h: Harness;
  let a: Tenant;
  let b: Tenant;
  before(async () => {
    h = await createHarness();
    a = await h.tenant();
    b = await h.tenant();
  });
  after(async () => h?.close());

  async function errorOf(source: string, variables: Record<string, unknown>, token: string) {
    const r = await h.run(source, variables, token);
    assert.ok(r.errors?.length, `expected an error, got ${JSON.stringify(r.data)}`);
    return { code: r.errors[0].extensions?.code as string, message: r.errors[0].message as string };
  }

  test('creates a cron monitor with Sentry-like defaults, lists it, edits, pauses and deletes it', async () => {
    const created = await h.ok(
      CREATE,
      { p: a.project, k: 'CRON', i: { slug: 'nightly-backup', crontab: '0 2 * * *', timezone: 'Europe/Berlin' } },
      a.token,
    );
    const m = created.createMonitor;
    assert.equal(m.slug, 'nightly-backup');
    assert.equal(m.name, 'nightly-backup');
    assert.equal(m.kind, 'CRON');
    assert.equal(m.crontab, '0 2 * * *');
    assert.equal(m.timezone, 'Europe/Berlin');
    assert.equal(m.failureTolerance, 1);
    assert.equal(m.recoveryThreshold, 1);
    assert.equal(m.checkinMarginMinutes, 1);
    assert.equal(m.maxRuntimeMinutes, 30);
    assert.equal(m.status, 'PENDING');
    assert.deepEqual(m.checkIns, []);

    const list = await h.ok(`query($p: ID!) { monitors(projectId: $p) { id slug } }`, { p: a.project }, a.token);
    assert.deepEqual(list.monitors, [{ id: m.id, slug: 'nightly-backup' }]);

    const edited = await h.ok(UPDATE, { id: m.id, i: { intervalMinutes: 10, failureTolerance: 3 } }, a.token);
    assert.equal(edited.updateMonitor.crontab, null);
    assert.equal(edited.updateMonitor.intervalMinutes, 10);
    assert.equal(edited.updateMonitor.failureTolerance, 3);

    const paused = await h.ok(`mutation($id: ID!) { pauseMonitor(id: $id) { paused status } }`, { id: m.id }, a.token);
    assert.deepEqual(paused.pauseMonitor, { paused: true, status: 'PAUSED' });
    const resumed = await h.ok(
      `mutation($id: ID!) { pauseMonitor(id: $id, paused: false) { paused } }`,
      { id: m.id },
      a.token,
    );
    assert.equal(resumed.pauseMonitor.paused, false);

    // Another tenant sees nothing and changes nothing.
    assert.equal(
      (await errorOf(`query($p: ID!) { monitors(projectId: $p) { id } }`, { p: a.project }, b.token)).code,
      'NOT_FOUND',
    );
    assert.equal((await errorOf(UPDATE, { id: m.id, i: { name: 'x' } }, b.token)).code, 'NOT_FOUND');
    assert.equal(
      (await errorOf(`mutation($id: ID!) { deleteMonitor(id: $id) }`, { id: m.id }, b.token)).code,
      'NOT_FOUND',
    );

    const deleted = await h.ok(`mutation($id: ID!) { deleteMonitor(id: $id) }`, { id: m.id }, a.token);
    assert.equal(deleted.deleteMonitor, m.id);
    const empty = await h.ok(`query($p: ID!) { monitors(projectId: $p) { id } }`, { p: a.project }, a.token);
    assert.deepEqual(empty.monitors, []);
  });

  test('refuses bad input with a message naming the field, and stores nothing', async () => {
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ['CRON', { slug: 'bad', crontab: '61 * * * *' }, /crontab/],
      ['CRON', { slug: 'bad', crontab: 'every day' }, /crontab/],
      ['CRON', { slug: 'bad', crontab: '0 2 * * *', timezone: 'Mars/Olympus' }, /timezone.*Mars\/Olympus/],
      ['CRON', { slug: 'bad' }, /schedule/],
      ['CRON', { slug: 'Bad Slug', crontab: '0 2 * * *' }, /slug/],
      ['CRON', { slug: 'bad', crontab: '0 2 * * *', checkinMarginMinutes: 0 }, /checkinMarginMinutes/],
      ['UPTIME', { slug: 'bad', url: 'https://user:pw@example.com/' }, /password/],
      ['UPTIME', { slug: 'bad', url: 'ftp://example.com/' }, /http and https/],
      ['UPTIME', { slug: 'bad', url: 'http://127.0.0.1:8080/' }, /url:.*(private|loopback)/i],
      ['UPTIME', { slug: 'bad', url: 'https://example.com/', intervalMinutes: 61 }, /intervalMinutes/],
      ['UPTIME', { slug: 'bad', url: 'https://example.com/', timeoutSeconds: 0 }, /timeoutSeconds/],
    ];
    for (const [k, i, message] of cases) {
      const e = await errorOf(CREATE, { p: b.project, k, i }, b.token);
      assert.equal(e.code, 'BAD_USER_INPUT', JSON.stringify(i));
      assert.match(e.message, message, JSON.stringify(i));
    }
    const list = await h.ok(`query($p: ID!) { monitors(projectId: $p) { id } }`, { p: b.project }, b.token);
    assert.deepEqual(list.monitors, []);
  });

  test("holds the plan's monitors per organization: Free has 1 cron and 1 uptime", async () => {
    const t = await h.tenant();
    await h.ok(CREATE, { p: t.project, k: 'CRON', i: { slug: 'one', intervalMinutes: 5 } }, t.token);
    const up = await h.ok(
      CREATE,
      { p: t.project, k: 'UPTIME', i: { slug: 'site', url: 'https://example.com/' } },
      t.token,
    );
    assert.equal(up.createMonitor.failureTolerance, 3, 'uptime opens an issue after 3 failures by default');
    assert.equal(up.createMonitor.timeoutSeconds, 10);
    const cron2 = await errorOf(CREATE, { p: t.project, k: 'CRON', i: { slug: 'two', intervalMinutes: 5 } }, t.token);
    assert.equal(cron2.code, 'PLAN_REQUIRED');
    assert.match(cron2.message, /Free plan includes 1 cron monitor/);
    const up2 = await errorOf(
      CREATE,
      { p: t.project, k: 'UPTIME', i: { slug: 'site2', url: 'https://example.org/' } },
      t.token,
    );
    assert.equal(up2.code, 'PLAN_REQUIRED');
    // The slug is unique in a project.
    await h.db.ds.query(`UPDATE organizations SET plan = 'pro' WHERE id = $1`, [t.organization]);
    const dup = await errorOf(CREATE, { p: t.project, k: 'CRON', i: { slug: 'one', intervalMinutes: 5 } }, t.token);
    assert.equal(dup.code, 'CONFLICT');
    await h.ok(CREATE, { p: t.project, k: 'CRON', i: { slug: 'two', intervalMinutes: 5 } }, t.token);
  });
});
