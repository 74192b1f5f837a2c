import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, describe, test } from 'node:test';
import { encodeJob, type ErrorJob } from '@tracker/core';
import { MAX_ATTEMPTS } from '@tracker/ingest';
import { createTestEnv, MODES, sendError, signUpWithProject, startTracker, waitFor, type TestEnv } from './helpers';

/**
 * Issue 15 §1, as measured on the main: one event the database refuses (a NUL in its
 * release and stack) failed its whole batch, and after five deliveries 261 of 300 events of
 * another organization were dead-lettered with it on PostgreSQL + Redis (299 of 300 embedded).
 * The jobs go straight onto the queue, as a version of the edge that let them through would
 * have queued them: the worker must cope whatever the edge lets in.
 */
function errorJob(projectId: string, event: Partial<ErrorJob['event']>): { job: string; eventId: string } {
  const eventId = randomUUID();
  const job: ErrorJob = {
    v: 1,
    kind: 'error',
    projectId,
    receivedAt: new Date().toISOString(),
    event: {
      eventId,
      type: 'TypeError',
      message: 'boom',
      environment: 'production',
      level: 'error',
      stack: 'TypeError: boom\n    at handler (https://app.example.com/static/app.min.js:1:500)',
      ...event,
    } as ErrorJob['event'],
  };
  return { job: encodeJob(job), eventId };
}

for (const mode of MODES) {
  describe(`one bad event does not take its batch with it (${mode})`, () => {
    let env: TestEnv;
    after(async () => {
      await env?.cleanup();
    });

    test('300 events of another organization are stored; the bad ones are stored or set aside with the reason', async () => {
      env = await createTestEnv(mode);
      const tracker = await startTracker(env);
      try {
        const victim = await signUpWithProject(tracker.url, 'Victim');
        const hostile = await signUpWithProject(tracker.url, 'Hostile');
        const good = Array.from({ length: 300 }, (_, i) =>
          errorJob(victim.project.id, { message: `fine ${i}`, release: 'v1.0.0' }),
        );
        const bad = Array.from({ length: 3 }, (_, i) =>
          errorJob(hostile.project.id, {
            message: `bad ${i}`,
            release: `v1\u0000.${i}`,
            stack: `TypeError: bad\u0000\n    at x (https://evil.example.com/a\u0000.js:1:${i + 1})`,
          }),
        );
        // The bad ones spread through the stream, so that every batch has one.
        const jobs = good.map((g) => g.job);
        for (const [i, b] of bad.entries()) jobs.splice(i * 100 + 50, 0, b.job);
        // The worker now reads a NUL as U+FFFD (decodeJob), so the database refuses the bad events
        // the way a constraint would: a trigger, on both runtimes.
        await tracker.db.ds.query(`
          CREATE FUNCTION isolation_test_reject() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN
            IF NEW.message LIKE 'bad %' THEN RAISE EXCEPTION 'refused by the test'; END IF;
            RETURN NEW;
          END $$;
          CREATE TRIGGER isolation_test_reject BEFORE INSERT ON events
            FOR EACH ROW EXECUTE FUNCTION isolation_test_reject();
        `);
        // And one that cannot be read at all: set aside at once, counted as unreadable.
        const unreadable = `not a job ${randomUUID()}`;
        jobs.splice(10, 0, unreadable);
        await tracker.queue.enqueue(jobs);

        const stored = async (ids: string[]) =>
          (
            await tracker.db.ds.query('SELECT count(*)::int AS n FROM events WHERE event_id = ANY($1::uuid[])', [ids])
          )[0].n as number;
        await waitFor(
          'the other organization’s 300 events',
          async () => (await stored(good.map((g) => g.eventId))) === 300,
          60_000,
        );

        // Each bad event ends stored or a dead letter that names it and says why; none is lost.
        const badIds = bad.map((b) => b.eventId);
        const outcome = await waitFor(
          'each bad event to be stored or set aside',
          async () => {
            const dead: Array<{ item_id: string; error: string; project_id: string; attempts: number }> =
              await tracker.db.ds.query(
                'SELECT item_id, error, project_id, attempts FROM dead_letters WHERE item_id = ANY($1::text[])',
                [badIds],
              );
            const n = await stored(badIds);
            return n + dead.length === badIds.length && { stored: n, dead };
          },
          60_000,
        );
        for (const d of outcome.dead) {
          assert.equal(d.project_id, hostile.project.id);
          assert.ok(d.error.length > 0);
        }
        await waitFor(
          'the unreadable job to be set aside',
          async () =>
            (
              await tracker.db.ds.query('SELECT count(*)::int AS n FROM dead_letters WHERE payload = $1', [unreadable])
            )[0].n === 1,
        );
        assert.equal(await tracker.queue.depth(), 0);
        const other = await tracker.db.ds.query('SELECT count(*)::int AS n FROM dead_letters WHERE project_id = $1', [
          victim.project.id,
        ]);
        assert.equal(other[0].n, 0, 'an event of the other organization was set aside');

        // Operators see it in /metrics while /readyz stays green.
        assert.equal((await fetch(`${tracker.url}/readyz`)).status, 200);
        assert.equal((await sendError(tracker.url, victim.key, '{"type":')).status, 400);
        assert.equal(
          (await sendError(tracker.url, 'et_' + '0'.repeat(32), { type: 'E', message: 'm', environment: 'p' })).status,
          401,
        );
        const res = await fetch(`${tracker.url}/metrics`);
        assert.equal(res.status, 200);
        assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
        const metrics = await res.text();
        const value = (line: string) => {
          const found = metrics.split('\n').find((l) => l.startsWith(`${line} `));
          assert.ok(found, `no ${line} in\n${metrics}`);
          return Number(found.slice(line.length + 1));
        };
        assert.equal(value('tracker_dead_letters'), outcome.dead.length + 1);
        // Every failure on the way, by where it happened: each batch holding a bad event was
        // split, each bad event failed alone until its last attempt set it aside; the unreadable
        // job was set aside at once. (Symbolication failures: ingest/test/worker.test.ts.)
        assert.equal(outcome.dead.length, 3);
        const failures = (cause: string) => value(`tracker_worker_failures_total{cause="${cause}"}`);
        assert.ok(failures('batch') >= 3, 'no batch split counted');
        assert.ok(failures('message') >= 3 * (MAX_ATTEMPTS - 1), 'too few single-message failures');
        assert.equal(failures('symbolication'), 0);
        assert.equal(failures('dead_lettered'), outcome.dead.length);
        assert.equal(failures('unreadable'), 1);
        assert.equal(failures('receive'), 0);
        assert.equal(value(`tracker_queue_depth{queue="jobs",backend="${tracker.queue.kind}"}`), 0);
        assert.equal(value('tracker_events_stored_total'), 300 + outcome.stored);
        assert.equal(value('tracker_ingest_dropped_total{reason="bad_user_input"}'), 1);
        assert.equal(value('tracker_ingest_dropped_total{reason="unauthenticated"}'), 1);
        assert.equal(value('tracker_probe_up{probe="dead_letters"}'), 1);
      } finally {
        await tracker.close();
      }
    });
  });
}
