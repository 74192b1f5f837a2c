import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import {
  createProject,
  deadLetterSink,
  deleteIssue,
  discardIssue,
  mergeIssues,
  openDatabase,
  sessionCaller,
  signUp,
  type Database,
} from '@tracker/core';
import { createTestPostgres, createTestRedisPrefix, TEST_REDIS_URL, type TestPostgres } from '@tracker/core/testing';
import { Client } from 'pg';
import { createClient } from 'redis';
import { RedisStreamQueue } from '../src/queue';
import { processBatch } from '../src/worker/process-batch';
import { startWorker, type RunningWorker } from '../src/worker/worker';

/** An error job as the edge queues it, its stack (and so its issue) named after `handler`. */
function errorJob(projectId: string, handler: string, event: Record<string, unknown>): string {
  return JSON.stringify({
    v: 1,
    kind: 'error',
    projectId,
    receivedAt: new Date().toISOString(),
    event: {
      eventId: randomUUID(),
      type: 'TypeError',
      message: `boom in ${handler}`,
      environment: 'production',
      stack: `TypeError: boom\n    at ${handler} (/srv/app/dist/${handler}.js:10:5)\n    at main (/srv/app/dist/main.js:3:1)`,
      ...event,
    },
  });
}

/**
 * The worker takes its issues' row locks late (decision 033): events, users and tag values go in
 * first, the issues are locked only for the counters, the lifecycle and the alerts. These tests
 * play, on a second connection, the user actions that can land in between (discard, delete,
 * unmerge) by holding the issue's lock while the worker's insert waits for it, and check that the
 * batch ends as if the action had come first. Real PostgreSQL: the races need two connections.
 */
describe('issue locks taken late, against user actions in between', () => {
  let pg: TestPostgres;
  let db: Database;
  let other: Client;
  /** Polls pg_stat_activity: not `other`, whose open transaction would keep seeing one snapshot of it. */
  let watcher: Client;

  before(async () => {
    pg = await createTestPostgres();
    db = await openDatabase({ databaseUrl: pg.url, dataDir: '' }, { migrate: true });
    other = new Client({ connectionString: pg.url });
    await other.connect();
    watcher = new Client({ connectionString: pg.url });
    await watcher.connect();
  });

  after(async () => {
    await other.end();
    await watcher.end();
    await db.close();
    await pg.drop();
  });

  async function newProject(): Promise<string> {
    const account = await signUp(
      db.ds,
      { email: `locks-${randomUUID()}@example.com`, password: 'correct horse battery', organizationName: 'Locks' },
      'business',
    );
    return (await createProject(db.ds, account.user.id, account.organization.id, 'Locks')).project.id;
  }

  function job(projectId: string, handler: string): string {
    return errorJob(projectId, handler, { user: { id: `u-${randomUUID()}` }, tags: { region: 'eu' } });
  }

  async function issueOf(projectId: string): Promise<{ id: string; fingerprint: string }[]> {
    const { rows } = await other.query('SELECT id, fingerprint FROM issues WHERE project_id = $1 ORDER BY first_seen', [
      projectId,
    ]);
    return rows;
  }

  /** Resolves once a backend of this database other than `other` waits for a row lock; answers its statement. */
  async function workerWaitingForLock(): Promise<string> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const { rows } = await watcher.query(
        `SELECT query FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'active' AND wait_event_type = 'Lock'`,
      );
      if (rows.length > 0) return rows[0].query as string;
      if (Date.now() > deadline) throw new Error('the worker never waited for the lock');
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  test('an issue discarded while the batch waits for it: the batch is redone and its events dropped', async () => {
    const projectId = await newProject();
    await processBatch(db.ds, [job(projectId, 'checkout')]);
    const [issue] = await issueOf(projectId);

    await other.query('BEGIN');
    await other.query('SELECT id FROM issues WHERE id = $1 FOR UPDATE', [issue.id]);
    await other.query('UPDATE issues SET discarded_at = now() WHERE id = $1', [issue.id]);
    const running = processBatch(db.ds, [job(projectId, 'checkout'), job(projectId, 'checkout')]);
    // Late locks: the issue was read as live, and its events' insert waits for the action.
    assert.match(await workerWaitingForLock(), /INSERT INTO events/);
    await other.query('COMMIT');
    const outcome = await running;

    assert.equal(outcome.relocked, true);
    assert.equal(outcome.inserted, 0);
    assert.equal(
      outcome.discarded.reduce((n, d) => n + d.count, 0),
      2,
    );
    const { rows } = await other.query(
      'SELECT event_count, (SELECT count(*)::int FROM events WHERE issue_id = $1) AS stored FROM issues WHERE id = $1',
      [issue.id],
    );
    assert.deepEqual(rows[0], { event_count: '1', stored: 1 });
  });

  test('an issue deleted while the batch waits for it: the batch is redone into a new issue', async () => {
    const projectId = await newProject();
    await processBatch(db.ds, [job(projectId, 'cart')]);
    const [issue] = await issueOf(projectId);

    await other.query('BEGIN');
    await other.query('SELECT id FROM issues WHERE id = $1 FOR UPDATE', [issue.id]);
    await other.query('DELETE FROM issues WHERE id = $1', [issue.id]);
    const running = processBatch(db.ds, [job(projectId, 'cart'), job(projectId, 'cart')]);
    await workerWaitingForLock();
    await other.query('COMMIT');
    const outcome = await running;

    assert.equal(outcome.relocked, true);
    assert.equal(outcome.inserted, 2);
    const issues = await issueOf(projectId);
    assert.equal(issues.length, 1);
    assert.notEqual(issues[0].id, issue.id);
    assert.equal(issues[0].fingerprint, issue.fingerprint);
    const { rows } = await other.query(
      'SELECT event_count, user_count, (SELECT count(*)::int FROM events WHERE issue_id = $1) AS stored FROM issues WHERE id = $1',
      [issues[0].id],
    );
    assert.deepEqual(rows[0], { event_count: '2', user_count: 2, stored: 2 });
  });

  test('a merged key unmerged while the batch waits: its events go to the issue the key has now', async () => {
    const projectId = await newProject();
    await processBatch(db.ds, [job(projectId, 'search')]);
    await processBatch(db.ds, [job(projectId, 'filters')]);
    const [target, source] = await issueOf(projectId);
    // The merge as mergeIssues leaves it: the source's key an alias of the target, the source gone.
    await other.query('INSERT INTO issue_aliases (project_id, fingerprint, issue_id) VALUES ($1, $2, $3)', [
      projectId,
      source.fingerprint,
      target.id,
    ]);
    await other.query('DELETE FROM issues WHERE id = $1', [source.id]);

    // The unmerge, held open: the key leaves the target for an issue of its own.
    await other.query('BEGIN');
    await other.query('SELECT id FROM issues WHERE id = $1 FOR UPDATE', [target.id]);
    await other.query('DELETE FROM issue_aliases WHERE project_id = $1 AND fingerprint = $2', [
      projectId,
      source.fingerprint,
    ]);
    const {
      rows: [restored],
    } = await other.query(
      `INSERT INTO issues (project_id, fingerprint, title, type, culprit, level, first_seen, last_seen)
       VALUES ($1, $2, 'TypeError: boom in filters', 'TypeError', 'filters', 'error', now(), now()) RETURNING id`,
      [projectId, source.fingerprint],
    );
    const running = processBatch(db.ds, [job(projectId, 'filters')]);
    await workerWaitingForLock();
    await other.query('COMMIT');
    const outcome = await running;

    assert.equal(outcome.relocked, true);
    assert.equal(outcome.inserted, 1);
    const { rows } = await other.query(
      'SELECT issue_id, count(*)::int AS n FROM events WHERE project_id = $1 GROUP BY 1',
      [projectId],
    );
    const byIssue = Object.fromEntries(rows.map((r) => [r.issue_id, r.n]));
    // The target keeps its own event (the source's went with the raw delete above); the new one is the restored issue's.
    assert.deepEqual(byIssue, { [target.id]: 1, [restored.id]: 1 });
  });

  test('with the locks first, an action that gets there first makes the batch read again; its new issue stays new', async () => {
    const projectId = await newProject();
    await processBatch(db.ds, [job(projectId, 'orders')]);
    const [issue] = await issueOf(projectId);

    await other.query('BEGIN');
    await other.query('SELECT id FROM issues WHERE id = $1 FOR UPDATE', [issue.id]);
    await other.query('UPDATE issues SET discarded_at = now() WHERE id = $1', [issue.id]);
    const running = processBatch(db.ds, [job(projectId, 'orders'), job(projectId, 'invoices')], {
      lockIssuesEarly: true,
    });
    assert.match(await workerWaitingForLock(), /FOR NO KEY UPDATE/);
    await other.query('COMMIT');
    const outcome = await running;

    assert.equal(outcome.relocked, false, 'settled by reading again inside the same transaction');
    assert.equal(outcome.inserted, 1, "the invoices event; the orders one is its discarded issue's");
    assert.equal(
      outcome.discarded.reduce((n, d) => n + d.count, 0),
      1,
    );
    const created = (await issueOf(projectId)).filter((i) => i.id !== issue.id);
    assert.deepEqual(outcome.newIssueIds, [created[0].id], 'NEW_ISSUE alerts and the lifecycle see it as new');
  });

  test("another worker's counters on the same issue hold the batch only at its lock, after its inserts", async () => {
    const projectId = await newProject();
    await processBatch(db.ds, [job(projectId, 'profile')]);
    const [issue] = await issueOf(projectId);

    // What a second worker holds from its lock to its commit.
    await other.query('BEGIN');
    await other.query('SELECT id FROM issues WHERE id = $1 FOR NO KEY UPDATE', [issue.id]);
    const running = processBatch(db.ds, [job(projectId, 'profile'), job(projectId, 'profile')]);
    const waitingIn = await workerWaitingForLock();
    // With the locks taken first it would wait in its first statement, the issue upsert.
    assert.match(waitingIn, /FOR NO KEY UPDATE/);
    await other.query('COMMIT');
    const outcome = await running;

    assert.equal(outcome.relocked, false);
    assert.equal(outcome.inserted, 2);
    const { rows } = await other.query('SELECT event_count FROM issues WHERE id = $1', [issue.id]);
    assert.equal(rows[0].event_count, '3');
  });
});

/**
 * Two workers on one stream while a user merges, discards and deletes the issues they write to,
 * all on real PostgreSQL and Redis: whatever interleaving the run finds, every issue's counters
 * must equal what it holds, no event id may be stored twice, and no batch may fail.
 */
describe('two workers and user actions at once', () => {
  let pg: TestPostgres;
  const dbs: Database[] = [];
  const queues: RedisStreamQueue[] = [];
  const workers: RunningWorker[] = [];
  const prefix = createTestRedisPrefix();
  let admin: ReturnType<typeof createClient>;

  before(async () => {
    pg = await createTestPostgres();
    for (let i = 0; i < 3; i++)
      dbs.push(await openDatabase({ databaseUrl: pg.url, dataDir: '' }, { migrate: i === 0 }));
    admin = createClient({ url: TEST_REDIS_URL });
    await admin.connect();
  });

  after(async () => {
    for (const w of workers) await w.stop();
    for (const q of queues) await q.close();
    const keys = await admin.keys(`${prefix}:*`);
    if (keys.length > 0) await admin.del(keys);
    await admin.close();
    for (const db of dbs) await db.close();
    await pg.drop();
  });

  test('counters match the rows and nothing is stored twice', async () => {
    const [actions, ...workerDbs] = dbs;
    const account = await signUp(
      actions.ds,
      { email: `race-${randomUUID()}@example.com`, password: 'correct horse battery', organizationName: 'Race' },
      'business',
    );
    const caller = sessionCaller(account.user.id);
    const projectId = (await createProject(actions.ds, account.user.id, account.organization.id, 'Race')).project.id;
    const open = async (): Promise<RedisStreamQueue> => {
      const q = await RedisStreamQueue.connect({
        url: TEST_REDIS_URL,
        prefix,
        reclaimIdleMs: 60_000,
        deadLetters: deadLetterSink(actions.ds),
      });
      queues.push(q);
      return q;
    };
    const producer = await open();
    const logs: string[] = [];
    for (const db of workerDbs)
      workers.push(
        startWorker({
          ds: db.ds,
          queue: await open(),
          batchSize: 100,
          waitMs: 50,
          log: (level, msg, fields) => {
            if (level !== 'info') logs.push(`${msg} ${JSON.stringify(fields ?? {})}`);
          },
        }),
      );

    const HANDLERS = 40;
    const TOTAL = 2_400;
    const payload = (i: number) =>
      errorJob(projectId, `handler${i % HANDLERS}`, {
        environment: i % 3 ? 'production' : 'staging',
        release: `web@1.${i % 4}`,
        user: { id: `u${i % 97}` },
        tags: { region: ['eu', 'us'][i % 2] },
      });
    const sending = (async () => {
      for (let i = 0; i < TOTAL; i += 30) {
        await producer.enqueue(Array.from({ length: 30 }, (_, k) => payload(i + k)));
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    // Meanwhile a user merges, discards and deletes whatever issues exist at that moment.
    const done: Record<string, number> = { merge: 0, discard: 0, delete: 0, refused: 0 };
    let step = 0;
    let sent = false;
    void sending.then(() => (sent = true));
    const actionsUntil = Date.now() + 30_000;
    // While the events go in, and on a slow machine until at least 10 actions ran (the workers
    // are still draining then); each turn lets I/O in first.
    for (;;) {
      await new Promise((r) => setTimeout(r, 5));
      const acted = done.merge + done.discard + done.delete;
      if ((sent && acted >= 10) || Date.now() > actionsUntil) break;
      const ids = (
        await actions.ds.query(
          'SELECT id FROM issues WHERE project_id = $1 AND discarded_at IS NULL ORDER BY random()',
          [projectId],
        )
      ).map((r: { id: string }) => r.id);
      if (ids.length < 3) continue;
      try {
        const kind = ['merge', 'discard', 'merge', 'delete'][step++ % 4];
        if (kind === 'merge') await mergeIssues(actions.ds, { caller, targetId: ids[0], sourceId: ids[1] });
        else if (kind === 'discard') await discardIssue(actions.ds, { caller, id: ids[0], discard: true });
        else await deleteIssue(actions.ds, caller, ids[0]);
        done[kind] += 1;
      } catch {
        done.refused += 1; // e.g. the issue went between the read and the action
      }
    }
    await sending;
    const settled = Date.now() + 60_000;
    const handled = () => workers.reduce((n, w) => n + w.stats.events + w.stats.duplicates, 0) + dropped();
    const dropped = () => workers.reduce((n, w) => n + w.stats.discardedByReason.discarded_issue, 0);
    while (Date.now() < settled && handled() < TOTAL) await new Promise((r) => setTimeout(r, 50));
    for (const w of workers) await w.stop();

    assert.ok(done.merge + done.discard + done.delete >= 10, `user actions ran: ${JSON.stringify(done)}`);
    assert.equal(handled(), TOTAL, 'every job stored, found a duplicate, or dropped for a discarded issue');
    assert.ok(
      workers.every((w) => w.stats.batches > 0),
      'both workers took batches',
    );
    for (const w of workers) {
      assert.equal(w.stats.failures, 0, JSON.stringify(w.stats));
      // A race is redone in place with the locks first, not by splitting the batch as a failure.
      assert.equal(w.stats.failuresByCause.batch, 0, logs.join('\n'));
      assert.equal(w.stats.deadLettered, 0);
    }
    const drift = await actions.ds.query(
      `SELECT i.id, i.event_count, (SELECT count(*) FROM events e WHERE e.issue_id = i.id) AS stored,
              i.user_count, (SELECT count(*) FROM issue_users u WHERE u.issue_id = i.id) AS users
         FROM issues i WHERE i.project_id = $1`,
      [projectId],
    );
    for (const d of drift) {
      assert.equal(Number(d.event_count), Number(d.stored), `issue ${d.id}: event_count against its events`);
      assert.equal(Number(d.user_count), Number(d.users), `issue ${d.id}: user_count against its users`);
    }
    const [twice] = await actions.ds.query(
      'SELECT count(*)::int AS n FROM (SELECT event_id FROM events WHERE project_id = $1 GROUP BY 1 HAVING count(*) > 1) d',
      [projectId],
    );
    assert.equal(twice.n, 0);
    const relocked = workers.reduce((n, w) => n + w.stats.relockedBatches, 0);
    console.log(`user actions ${JSON.stringify(done)}; batches redone with early locks: ${relocked}`);
  });
});
