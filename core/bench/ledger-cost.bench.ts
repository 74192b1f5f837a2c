/**
 * What the stored-id ledger (decision 067) costs per event on PostgreSQL: CPU of the backend and
 * WAL bytes (`pg_current_wal_lsn` difference) of its one statement per batch, against the
 * look-up it replaced (`withoutStored`: the batch's ids probed in the events partitions of ±7 days,
 * decision 029); the purge's delete and VACUUM per id; bytes per id on disk; and the worker's
 * whole `persistEvents` per event for scale. Per-unit figures, taken on one connection whose
 * backend's CPU is read from /proc (the machine is shared: wall time is printed but not trusted).
 *
 * Two WAL cases: a warm ledger (its pages already written since the last checkpoint), and right
 * after a CHECKPOINT with LEDGER_ROWS ids already held, where each id lands on a random leaf page
 * of the primary key and the first change of a page writes the whole page (full_page_writes).
 *
 * On a private PostgreSQL cluster (initdb; fsync off, full_page_writes on, no timed checkpoint
 * during the run), so the WAL position moves with this bench's writes only.
 *
 * Run: `npm run bench:ledger -w @tracker/core`. Env: TRACKER_BENCH_IDS (default 50000),
 * TRACKER_BENCH_LEDGER_ROWS (default 1000000), TRACKER_BENCH_WAL_COMPRESSION (default off). Prints its table; writes no doc.
 */
import { randomUUID } from 'node:crypto';
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { createProject, openDatabase, persistEvents, prepareEvent, signUp } from '../src';
import { ensurePartitionsBetween, ledgerExpiresOn } from '../src/partitions';
import { envNumber, fmt, loadAverage, processCpuMs, startPrivatePostgres, table } from '../src/testing';

const IDS = envNumber('BENCH_IDS', 50_000);
const LEDGER_ROWS = envNumber('BENCH_LEDGER_ROWS', 1_000_000);
/** `wal_compression` of the cluster: off (PostgreSQL's default), pglz or lz4. */
const WAL_COMPRESSION = process.env.TRACKER_BENCH_WAL_COMPRESSION ?? 'off';
const BATCH = 500;
const WEEK = 7 * 86_400_000;

interface Cost {
  cpuUs: number;
  walB: number;
  wallUs: number;
}

async function measure(c: Client, pid: number, units: number, work: () => Promise<void>): Promise<Cost> {
  const [{ lsn: before }] = (await c.query('SELECT pg_current_wal_lsn() AS lsn')).rows;
  const cpu0 = processCpuMs(pid)!;
  const t0 = performance.now();
  await work();
  const wall = performance.now() - t0;
  const cpu = processCpuMs(pid)! - cpu0;
  const [{ b }] = (await c.query('SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1)::float8 AS b', [before])).rows;
  return { cpuUs: (cpu * 1000) / units, walB: b / units, wallUs: (wall * 1000) / units };
}

async function main(): Promise<void> {
  // A cluster of its own: the WAL position is the cluster's, and the shared server's other
  // databases write WAL too. Full-page writes on, as in production (the helper turns them off).
  const pg = await startPrivatePostgres({
    full_page_writes: 'on',
    checkpoint_timeout: '1h',
    max_wal_size: '10GB',
    wal_compression: WAL_COMPRESSION,
  });
  const loads: number[] = [loadAverage()];
  const rows: Array<Array<string>> = [];
  const row = (what: string, c: Cost) => rows.push([what, fmt(c.cpuUs, 1), fmt(c.walB, 0), fmt(c.wallUs, 1)]);
  try {
    const db = await openDatabase({ databaseUrl: pg.url, dataDir: '' }, { migrate: true, poolSize: 1 });
    const s = await signUp(
      db.ds,
      { email: `ledger-${randomUUID()}@example.com`, password: 'long enough pw', organizationName: 'Ledger' },
      'free',
    );
    const projectId = (await createProject(db.ds, s.user.id, s.organization.id, 'Web')).project.id;
    const now = new Date();
    await ensurePartitionsBetween(
      db.ds,
      'events',
      30,
      new Date(now.getTime() - 2 * WEEK),
      new Date(now.getTime() + WEEK),
    );
    const c = new Client({ connectionString: pg.url });
    await c.connect();
    const [{ pid }] = (await c.query('SELECT pg_backend_pid() AS pid')).rows;
    const expires = ledgerExpiresOn(now, 30);
    const claimSql = `INSERT INTO stored_event_ids (project_id, id, expires_on)
      SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::date[]) ON CONFLICT DO NOTHING RETURNING project_id, id`;
    const batches = (ids: string[]) => {
      const out: string[][] = [];
      for (let i = 0; i < ids.length; i += BATCH) out.push(ids.slice(i, i + BATCH).sort());
      return out;
    };
    const claim = async (ids: string[]) => {
      for (const b of batches(ids)) {
        await c.query('BEGIN');
        await c.query(claimSql, [b.map(() => projectId), b, b.map(() => expires)]);
        await c.query('COMMIT');
      }
    };

    // The ledger's statement: new ids on a warm ledger, then the same ids again (all repeats).
    const fresh = Array.from({ length: IDS }, () => randomUUID());
    await claim(Array.from({ length: BATCH * 4 }, () => randomUUID())); // plans and pages warm
    row('ledger claim, new ids (warm)', await measure(c, pid, IDS, () => claim(fresh)));
    row('ledger claim, repeated ids', await measure(c, pid, IDS, () => claim(fresh)));
    // What the purge's index on expires_on costs: the same claim without it.
    await c.query('DROP INDEX stored_event_ids_expires_on');
    const unindexed = Array.from({ length: IDS }, () => randomUUID());
    row('ledger claim, new ids, without the expires_on index', await measure(c, pid, IDS, () => claim(unindexed)));
    await c.query('DELETE FROM stored_event_ids WHERE id = ANY($1::uuid[])', [unindexed]);
    await c.query('CREATE INDEX stored_event_ids_expires_on ON stored_event_ids (expires_on)');

    // The look-up it replaced, against IDS stored events of this week (made as the worker makes them).
    const probeIds = fresh;
    // One event through the worker makes the issue the others are stored under.
    await db.ds.transaction((em) => persistEvents(em, [job(projectId, randomUUID(), now)]));
    await c.query(
      `INSERT INTO events (project_id, issue_id, event_id, timestamp, received_at, level, type, message, environment,
         retention_days)
       SELECT $1, (SELECT id FROM issues LIMIT 1), id, now(), now(), 'error', 'Error', 'm', 'production', 30
         FROM unnest($2::uuid[]) AS id`,
      [projectId, probeIds],
    );
    await c.query('ANALYZE events');
    const lookUp = async (ids: string[]) => {
      for (const b of batches(ids)) {
        await c.query(
          `SELECT s.project_id, s.event_id FROM unnest($1::uuid[], $2::uuid[]) AS d(project_id, id)
             JOIN events s ON s.project_id = d.project_id AND s.event_id = d.id
            WHERE s.received_at >= $3::timestamptz AND s.received_at < $4::timestamptz`,
          [
            b.map(() => projectId),
            b,
            new Date(now.getTime() - WEEK - 3_600_000).toISOString(),
            new Date(now.getTime() + WEEK).toISOString(),
          ],
        );
      }
    };
    const halfNew = [...fresh.slice(0, IDS / 2), ...Array.from({ length: IDS / 2 }, () => randomUUID())];
    row('old look-up (±7 days), half stored', await measure(c, pid, IDS, () => lookUp(halfNew)));

    // The purge: chunked deletes by expires_on, then VACUUM (autovacuum's work, done here at once).
    await c.query(`UPDATE stored_event_ids SET expires_on = '2000-01-01'`);
    await c.query('VACUUM stored_event_ids');
    const [{ n: held }] = (await c.query('SELECT count(*)::int AS n FROM stored_event_ids')).rows;
    const [{ bytes }] = (await c.query(`SELECT pg_total_relation_size('stored_event_ids')::float8 AS bytes`)).rows;
    row(
      'purge: chunked delete',
      await measure(c, pid, held, async () => {
        for (;;) {
          const r = await c.query(
            `DELETE FROM stored_event_ids WHERE ctid = ANY(ARRAY(
               SELECT ctid FROM stored_event_ids WHERE expires_on <= $1::date LIMIT 50000))`,
            [now.toISOString().slice(0, 10)],
          );
          if ((r.rowCount ?? 0) < 50_000) break;
        }
      }),
    );
    row(
      'purge: VACUUM after it',
      await measure(c, pid, held, () => c.query('VACUUM stored_event_ids').then(() => undefined)),
    );
    loads.push(loadAverage());

    // Cold pages: a ledger of LEDGER_ROWS ids, a checkpoint, then IDS new ids.
    await c.query(
      `INSERT INTO stored_event_ids (project_id, id, expires_on)
       SELECT $1, gen_random_uuid(), $2::date FROM generate_series(1, $3::int)`,
      [projectId, expires, LEDGER_ROWS],
    );
    await c.query('VACUUM ANALYZE stored_event_ids');
    const [{ leaf }] = (await c.query(`SELECT (pg_relation_size('stored_event_ids_pkey') / 8192)::int AS leaf`)).rows;
    await c.query('CHECKPOINT');
    const cold = Array.from({ length: IDS }, () => randomUUID());
    row(
      `ledger claim, new ids, right after a CHECKPOINT (${fmt(LEDGER_ROWS)} ids held, ${fmt(leaf)} key pages)`,
      await measure(c, pid, IDS, () => claim(cold)),
    );
    const [{ perId }] = (
      await c.query(
        `SELECT (pg_total_relation_size('stored_event_ids')::float8 / greatest(count(*), 1)) AS "perId" FROM stored_event_ids`,
      )
    ).rows;

    // The worker's whole transaction per event, for scale (500-event batches, 20 issues).
    const whole = await measure(c, await workerPid(db), IDS / 5, async () => {
      for (let i = 0; i < IDS / 5; i += BATCH) {
        const jobs = Array.from({ length: BATCH }, (_, k) => job(projectId, randomUUID(), now, (i + k) % 20));
        await db.ds.transaction((em) => persistEvents(em, jobs));
      }
    });
    row('whole persistEvents (backend CPU; WAL of everything)', whole);
    loads.push(loadAverage());
    await c.end();
    await db.close();

    console.log(table(['per id / event', 'PostgreSQL backend CPU µs', 'WAL B', 'wall µs (loaded machine)'], rows));
    console.log(
      `\nLedger on disk: ${fmt(perId, 0)} B per id with its two indexes at ${fmt(LEDGER_ROWS)} ids ` +
        `(${fmt(bytes / Math.max(held, 1), 0)} B at ${fmt(held)}). IDS=${IDS}, wal_compression=${WAL_COMPRESSION}, load average ${loads.join(' → ')} ` +
        `on ${cpus().length} cores, ${new Date().toISOString()}.`,
    );
  } finally {
    await pg.close();
  }
}

async function workerPid(db: { ds: { query: (sql: string) => Promise<Array<{ pid: number }>> } }): Promise<number> {
  const [{ pid }] = await db.ds.query('SELECT pg_backend_pid() AS pid');
  return pid;
}

function job(projectId: string, eventId: string, at: Date, handler = 0) {
  return prepareEvent({
    v: 1,
    kind: 'error',
    projectId,
    receivedAt: at.toISOString(),
    event: {
      eventId,
      type: 'TypeError',
      message: `boom in handler${handler}`,
      environment: 'production',
      release: 'web@1.0',
      user: { id: `u${eventId.slice(0, 2)}` },
      tags: { region: 'eu' },
      stack: `TypeError: boom\n    at handler${handler} (/srv/app/dist/h${handler}.js:10:5)\n    at main (/srv/app/dist/main.js:3:1)`,
    },
  } as never);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
