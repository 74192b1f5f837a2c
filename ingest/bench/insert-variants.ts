/**
 * Side bench (not run by `npm run bench`): ways of writing the worker's `INSERT events` for
 * the same 500-row batches, with the Node CPU and the PostgreSQL backend CPU each costs per row.
 * Run: `TSX_TSCONFIG_PATH=../tsconfig.json node --conditions=@tracker/source --import tsx bench/insert-variants.ts [variant…]`
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { decodeJob, openDatabase, prepareEvent, type ErrorJob, type PreparedEvent } from '@tracker/core';
import { createTestPostgres } from '@tracker/core/testing';
import { Client } from 'pg';
import { generateJobs } from './worker-data';

const EVENTS = Number(process.env.EVENTS ?? 20_000);
const CHUNK = 500;
const TICK = 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

const COLS =
  'project_id, issue_id, event_id, timestamp, received_at, level, type, message, environment, release, url, handled, stack, frames, tags, context, "user", sdk, fingerprint';
const RET = `RETURNING project_id, issue_id, event_id,
  EXISTS (SELECT 1 FROM feedback f WHERE f.project_id = ev.project_id AND f.event_id = ev.event_id AND f.issue_id IS NULL) AS awaits_link`;

type Row = PreparedEvent & { issueId: string };
type Variant = (c: Client, table: string, rows: Row[]) => Promise<unknown>;

const json = (v: unknown) => (v == null ? null : JSON.stringify(v));

const variants: Record<string, Variant> = {
  unnest: (c, table, rows) =>
    c.query(
      `INSERT INTO ${table} AS ev (${COLS})
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::timestamptz[], $5::timestamptz[],
         $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::boolean[], $13::text[],
         $14::jsonb[], $15::jsonb[], $16::jsonb[], $17::jsonb[], $18::jsonb[], $19::jsonb[])
       ON CONFLICT (project_id, event_id) DO NOTHING ${RET}`,
      [
        rows.map((e) => e.projectId),
        rows.map((e) => e.issueId),
        rows.map((e) => e.eventId),
        rows.map((e) => e.timestamp.toISOString()),
        rows.map((e) => e.receivedAt.toISOString()),
        rows.map((e) => e.level),
        rows.map((e) => e.type),
        rows.map((e) => e.message),
        rows.map((e) => e.environment),
        rows.map((e) => e.release),
        rows.map((e) => e.url),
        rows.map((e) => e.handled),
        rows.map((e) => e.stack),
        rows.map((e) => JSON.stringify(e.frames)),
        rows.map((e) => JSON.stringify(e.tags)),
        rows.map((e) => json(e.context)),
        rows.map((e) => json(e.user)),
        rows.map((e) => json(e.sdk)),
        rows.map((e) => json(e.fingerprint)),
      ],
    ),
  values: (c, table, rows) => valuesInsert(c, table, rows, false),
  prepared: (c, table, rows) => valuesInsert(c, table, rows, true),
  prepared100: async (c, table, rows) => {
    let rowCount = 0;
    for (let i = 0; i < rows.length; i += 100)
      rowCount += (await valuesInsert(c, table, rows.slice(i, i + 100), true)).rowCount ?? 0;
    return { rowCount };
  },
  prepared250: async (c, table, rows) => {
    let rowCount = 0;
    for (let i = 0; i < rows.length; i += 250)
      rowCount += (await valuesInsert(c, table, rows.slice(i, i + 250), true)).rowCount ?? 0;
    return { rowCount };
  },
  json: (c, table, rows) => recordset(c, table, rows, 'json'),
  jsonb: (c, table, rows) => recordset(c, table, rows, 'jsonb'),
};

function valuesInsert(c: Client, table: string, rows: Row[], prepared: boolean) {
  {
    const params: unknown[] = [];
    const tuples = rows.map((e) => {
      const b = params.length;
      params.push(
        e.projectId,
        e.issueId,
        e.eventId,
        e.timestamp.toISOString(),
        e.receivedAt.toISOString(),
        e.level,
        e.type,
        e.message,
        e.environment,
        e.release,
        e.url,
        e.handled,
        e.stack,
        JSON.stringify(e.frames),
        JSON.stringify(e.tags),
        json(e.context),
        json(e.user),
        json(e.sdk),
        json(e.fingerprint),
      );
      return `(${Array.from({ length: 19 }, (_, k) => `$${b + k + 1}`).join(',')})`;
    });
    const text = `INSERT INTO ${table} AS ev (${COLS}) VALUES ${tuples.join(',')} ON CONFLICT (project_id, event_id) DO NOTHING ${RET}`;
    return prepared ? c.query({ name: `ins_${table}_${rows.length}`, text, values: params }) : c.query(text, params);
  }
}

function recordset(c: Client, table: string, rows: Row[], kind: 'json' | 'jsonb') {
  const doc = JSON.stringify(
    rows.map((e) => ({
      p: e.projectId,
      i: e.issueId,
      e: e.eventId,
      t: e.timestamp,
      r: e.receivedAt,
      l: e.level,
      ty: e.type,
      m: e.message,
      en: e.environment,
      re: e.release,
      u: e.url,
      h: e.handled,
      s: e.stack,
      f: e.frames,
      tg: e.tags,
      c: e.context,
      us: e.user,
      sd: e.sdk,
      fp: e.fingerprint,
    })),
  );
  return c.query(
    `INSERT INTO ${table} AS ev (${COLS})
     SELECT p, i, e, t, r, l, ty, m, en, re, u, h, s, coalesce(f, '[]'), coalesce(tg, '{}'), c, us, sd, fp
     FROM ${kind}_to_recordset($1::${kind}) AS d(p uuid, i uuid, e uuid, t timestamptz, r timestamptz, l text, ty text,
       m text, en text, re text, u text, h boolean, s text, f jsonb, tg jsonb, c jsonb, us jsonb, sd jsonb, fp jsonb)
     ON CONFLICT (project_id, event_id) DO NOTHING ${RET}`,
    [doc],
  );
}

async function backendCpu(pid: number): Promise<number> {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * TICK;
}

async function main() {
  const pg = await createTestPostgres();
  const db = await openDatabase({ databaseUrl: pg.url, dataDir: '' }, { migrate: true });
  const c = new Client({ connectionString: pg.url });
  try {
    await c.connect();
    const [{ id: orgId }] = (
      await c.query(`INSERT INTO organizations (name, slug, plan) VALUES ('o', 'o', 'business') RETURNING id`)
    ).rows;
    const [{ id: projectId }] = (
      await c.query(`INSERT INTO projects (organization_id, name) VALUES ($1, 'p') RETURNING id`, [orgId])
    ).rows;
    const data = generateJobs(projectId, { events: EVENTS, issues: 200, users: 5000 });
    const prepared = data.payloads.map((p) => prepareEvent(decodeJob(p) as ErrorJob));
    const issueIds = new Map<string, string>();
    for (const e of prepared) {
      if (issueIds.has(e.groupingKey)) continue;
      const r = await c.query(
        `INSERT INTO issues (project_id, fingerprint, title, type, level, first_seen, last_seen)
         VALUES ($1, $2, 't', 't', 'error', now(), now()) RETURNING id`,
        [projectId, e.groupingKey],
      );
      issueIds.set(e.groupingKey, r.rows[0].id);
    }
    const rows: Row[] = prepared.map((e) => ({ ...e, issueId: issueIds.get(e.groupingKey)! }));
    const [{ pid }] = (await c.query('SELECT pg_backend_pid() AS pid')).rows;
    const lz4 = (
      await c.query(`SELECT 'lz4' = ANY(enumvals) AS ok FROM pg_settings WHERE name = 'default_toast_compression'`)
    ).rows[0]?.ok;

    const tables: Record<string, string> = {
      fk: 'CREATE TABLE %t (LIKE events INCLUDING ALL); ALTER TABLE %t ADD FOREIGN KEY (project_id) REFERENCES projects (id) ON DELETE CASCADE, ADD FOREIGN KEY (issue_id) REFERENCES issues (id) ON DELETE CASCADE',
      issuefk:
        'CREATE TABLE %t (LIKE events INCLUDING ALL); ALTER TABLE %t ADD FOREIGN KEY (issue_id) REFERENCES issues (id) ON DELETE CASCADE',
      nofk: 'CREATE TABLE %t (LIKE events INCLUDING ALL)',
      ...(lz4
        ? {
            lz4: 'CREATE TABLE %t (LIKE events INCLUDING ALL); ALTER TABLE %t ADD FOREIGN KEY (project_id) REFERENCES projects (id) ON DELETE CASCADE, ADD FOREIGN KEY (issue_id) REFERENCES issues (id) ON DELETE CASCADE; ALTER TABLE %t ALTER stack SET COMPRESSION lz4, ALTER frames SET COMPRESSION lz4, ALTER context SET COMPRESSION lz4',
            lz4issuefk:
              'CREATE TABLE %t (LIKE events INCLUDING ALL); ALTER TABLE %t ADD FOREIGN KEY (issue_id) REFERENCES issues (id) ON DELETE CASCADE; ALTER TABLE %t ALTER stack SET COMPRESSION lz4, ALTER frames SET COMPRESSION lz4, ALTER context SET COMPRESSION lz4',
          }
        : {}),
    };
    const wanted = process.argv.slice(2);
    const combos: Array<[string, string]> = [];
    for (const v of Object.keys(variants)) for (const t of Object.keys(tables)) combos.push([v, t]);
    const run = combos.filter(
      ([v, t]) => wanted.length === 0 || wanted.includes(v) || wanted.includes(`${v}:${t}`) || wanted.includes(t),
    );
    for (let round = 0; round < 2; round++) {
      for (const [v, t] of run) {
        const table = `ev_${v}_${t}_${round}`;
        await c.query(tables[t].replaceAll('%t', table));
        const cpu0 = process.cpuUsage();
        const pg0 = await backendCpu(pid);
        const t0 = performance.now();
        let n = 0;
        for (let i = 0; i < rows.length; i += CHUNK) {
          await c.query('BEGIN');
          const r = (await variants[v](c, table, rows.slice(i, i + CHUNK))) as { rowCount: number };
          n += r.rowCount;
          await c.query('COMMIT');
        }
        const ms = performance.now() - t0;
        const cpu = process.cpuUsage(cpu0);
        const pgMs = (await backendCpu(pid)) - pg0;
        const size = (await c.query(`SELECT pg_total_relation_size('${table}') AS s`)).rows[0].s;
        if (n !== rows.length) throw new Error(`${v}/${t}: inserted ${n}`);
        console.log(
          `${`${v}:${t}`.padEnd(18)} ${((rows.length / ms) * 1000).toFixed(0).padStart(6)} rows/s  node ${((cpu.user + cpu.system) / rows.length).toFixed(0).padStart(4)} µs/row  pg ${((pgMs * 1000) / rows.length).toFixed(0).padStart(4)} µs/row  size ${(Number(size) / 1e6).toFixed(1)} MB`,
        );
        await c.query(`DROP TABLE ${table}`);
      }
    }
  } finally {
    await c.end();
    await db.close();
    await pg.drop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
