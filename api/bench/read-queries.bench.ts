/**
 * Performance, Logs and User feedback reads over HTTP, against PostgreSQL with a month of data
 * in one project: VITALS_ROWS vitals reports (3 environments, 50 URLs) and LOG_ROWS logs,
 * plus the same again in a second project as noise. Prints p50/p95 per query and the plans
 * of the main statements. Run: `npm run bench:reads -w @tracker/api`.
 */
import { performance } from 'node:perf_hooks';
import {
  ensurePartitionsBetween,
  loadConfig,
  METRIC_STATS_SQL,
  openDatabase,
  resolveVitalsQuery,
  vitalsWhere,
} from '@tracker/core';
import {
  createTestPostgres,
  envNumber,
  fmt,
  loadAverage,
  machineLine,
  describeMachine,
  table,
} from '@tracker/core/testing';
import Fastify from 'fastify';
import { apiPlugin } from '../src/api.plugin';

const VITALS_ROWS = envNumber('VITALS_ROWS', 500_000);
const LOG_ROWS = envNumber('LOG_ROWS', 1_000_000);
const RUNS = envNumber('RUNS', 30);
const DAYS = 30;

async function main() {
  const pg = await createTestPostgres();
  const db = await openDatabase({ databaseUrl: pg.url, dataDir: '' }, { migrate: true });
  const app = Fastify({ logger: false });
  const api = await apiPlugin(app, { ds: db.ds, config: loadConfig({ TRACKER_PUBLIC_URL: 'http://localhost' }) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/graphql`;
  let token = '';
  const gql = async (query: string, variables: Record<string, unknown> = {}) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await res.json()) as any;
    if (body.errors) throw new Error(JSON.stringify(body.errors));
    return body.data;
  };
  try {
    const s = await gql(
      `mutation { signup(email: "bench@example.com", password: "long enough pw", organizationName: "B") { token organization { id } } }`,
    );
    token = s.signup.token;
    const projects: string[] = [];
    for (const name of ['Web', 'Noise']) {
      const p = await gql(`mutation($o: ID!, $n: String!) { createProject(organizationId: $o, name: $n) { id } }`, {
        o: s.signup.organization.id,
        n: name,
      });
      projects.push(p.createProject.id);
    }
    const [project] = projects;
    const now = Date.now();
    const seedStart = performance.now();
    // Rows go to week partitions of the free plan's retention (decision 029).
    for (const table of ['logs', 'vitals_reports'] as const) {
      await ensurePartitionsBetween(db.ds, table, 30, new Date(now - (DAYS + 1) * 86_400_000), new Date(now));
    }
    for (const [k, p] of projects.entries()) {
      // The noise project holds a fifth as much.
      const scale = k === 0 ? 1 : 0.2;
      // Spread evenly over the last DAYS days; metrics drawn so every rating occurs.
      await db.ds.query(
        `INSERT INTO vitals_reports (project_id, id, url, lcp, inp, cls, fcp, ttfb, environment, release, tags, received_at, retention_days)
         SELECT $1, gen_random_uuid(), '/page/' || (i % 50),
           500 + random() * 5000, CASE WHEN i % 3 = 0 THEN NULL ELSE 20 + random() * 800 END,
           round((random() * 0.4)::numeric, 3), 300 + random() * 4000, 40 + random() * 2000,
           (ARRAY['production', 'production', 'production', 'staging', 'preview'])[1 + i % 5],
           '1.' || (i % 7), '{}', to_timestamp($3 / 1000.0) - random() * $4::float8 * interval '1 day', 30
         FROM generate_series(1, $2) i`,
        [p, Math.round(VITALS_ROWS * scale), now, DAYS],
      );
      await db.ds.query(
        `INSERT INTO logs (project_id, id, level, message, context, environment, release, tags, timestamp, received_at, retention_days)
         SELECT $1, gen_random_uuid(), (ARRAY['debug', 'info', 'info', 'info', 'warn', 'error'])[1 + floor(random() * 6)::int],
           CASE WHEN i % 1000 = 0 THEN 'rare needle ' || i WHEN i % 10 = 0 THEN 'request timeout after ' || i || ' ms'
                ELSE 'handled request ' || i END,
           NULL, (ARRAY['production', 'production', 'staging'])[1 + floor(random() * 3)::int], '1.' || (i % 7), '{}',
           to_timestamp($3 / 1000.0) - random() * $4::float8 * interval '1 day', now(), 30
         FROM generate_series(1, $2) i`,
        [p, Math.round(LOG_ROWS * scale), now, DAYS],
      );
      await db.ds.query(
        `INSERT INTO feedback (project_id, id, message, email, event_id, issue_id, received_at)
         SELECT $1, gen_random_uuid(), 'it broke ' || i, NULL, NULL, NULL, now() - (i || ' minutes')::interval
         FROM generate_series(1, 5000) i`,
        [p],
      );
    }
    await db.ds.query('ANALYZE');
    const seedSeconds = (performance.now() - seedStart) / 1000;

    const logsPage = `query($p: ID!, $f: LogFilter, $a: String) { logs(projectId: $p, filter: $f, first: 50, after: $a) {
      pageInfo { endCursor hasNextPage } nodes { id level message environment release timestamp } } }`;
    // A cursor 20 pages deep, for the "deep page" row.
    let deep: string | null = null;
    for (let i = 0; i < 20; i++) deep = (await gql(logsPage, { p: project, a: deep })).logs.pageInfo.endCursor;

    const cases: Array<[string, string, Record<string, unknown>]> = [
      [
        'vitals: 7 days, production',
        `query($p: ID!) { vitals(projectId: $p, filter: { environment: "production" }) { pageViews metrics { metric count p50 p75 p95 goodShare poorShare } } }`,
        { p: project },
      ],
      [
        'vitals: 30 days, all environments',
        `query($p: ID!, $f: VitalsFilter) { vitals(projectId: $p, filter: $f) { pageViews metrics { metric p75 } } }`,
        { p: project, f: { from: new Date(now - DAYS * 86_400_000).toISOString() } },
      ],
      [
        'vitalsByUrl: 7 days, production, top 20',
        `query($p: ID!) { vitalsByUrl(projectId: $p, filter: { environment: "production" }, first: 20) { url pageViews metrics { metric p75 } } }`,
        { p: project },
      ],
      [
        'vitalsTimeSeries: 7 days hourly, production',
        `query($p: ID!) { vitalsTimeSeries(projectId: $p, filter: { environment: "production" }) { buckets { start pageViews lcp inp cls fcp ttfb } } }`,
        { p: project },
      ],
      ['logs: first page', logsPage, { p: project }],
      ['logs: 20 pages deep', logsPage, { p: project, a: deep }],
      ['logs: errors in production', logsPage, { p: project, f: { levels: ['ERROR'], environment: 'production' } }],
      ['logs: text "timeout" (1 in 10)', logsPage, { p: project, f: { text: 'timeout' } }],
      ['logs: a filter nothing matches (release 9.9), no range', logsPage, { p: project, f: { release: '9.9' } }],
      [
        'logs: text "needle" (1 in 1,000), last 24 h',
        logsPage,
        { p: project, f: { text: 'needle', from: new Date(now - 86_400_000).toISOString() } },
      ],
      ['logs: text "needle" (1 in 1,000), no range', logsPage, { p: project, f: { text: 'needle' } }],
      [
        'feedback: first page of 25 with totalCount',
        `query($p: ID!) { feedback(projectId: $p) { totalCount nodes { id message receivedAt event { id } } } }`,
        { p: project },
      ],
    ];
    const rows: Array<Array<string | number>> = [];
    for (const [name, query, variables] of cases) {
      await gql(query, variables); // warm
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const t = performance.now();
        await gql(query, variables);
        times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      const at = (p: number) => times[Math.min(times.length - 1, Math.ceil(p * times.length) - 1)];
      rows.push([name, fmt(at(0.5), 1), fmt(at(0.95), 1)]);
    }
    console.log(`\n${machineLine(describeMachine())}; load average ${loadAverage()} after the run`);
    console.log(
      `${fmt(VITALS_ROWS)} vitals reports and ${fmt(LOG_ROWS)} logs over ${DAYS} days in the project read (a second project holds a fifth as much); seeded in ${fmt(seedSeconds, 1)} s; ${RUNS} runs per query over HTTP (fastify + Apollo, one client in series)\n`,
    );
    console.log(table(['query', 'p50 ms', 'p95 ms'], rows));

    const plan = async (label: string, sql: string, params: unknown[]) => {
      const r: Array<{ 'QUERY PLAN': string }> = await db.ds.query(
        `EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY ON) ${sql}`,
        params,
      );
      console.log(`\n${label}\n${r.map((x) => `    ${x['QUERY PLAN']}`).join('\n')}`);
    };
    const q = vitalsWhere(resolveVitalsQuery(project, { environment: 'production' }));
    await plan(
      'vitals figures, 7 days, production (the query summarizeVitals runs)',
      `SELECT ${METRIC_STATS_SQL} FROM vitals_reports r WHERE ${q.sql}`,
      q.params,
    );
    await plan(
      'vitals p75, 7 days, production, in the first version: metrics as rows, grouped by name',
      `SELECT m.name, percentile_cont(0.75) WITHIN GROUP (ORDER BY m.value) FROM vitals_reports r
       CROSS JOIN LATERAL (VALUES ('LCP', r.lcp), ('INP', r.inp), ('CLS', r.cls), ('FCP', r.fcp), ('TTFB', r.ttfb)) AS m(name, value)
       WHERE ${q.sql} AND m.value IS NOT NULL GROUP BY m.name`,
      q.params,
    );
    await plan(
      'logs, errors in production, first page',
      `SELECT l.id FROM logs l WHERE l.project_id = $1 AND l.level = ANY($2::text[]) AND l.environment = 'production'
       ORDER BY l.timestamp DESC, l.id DESC LIMIT 51`,
      [project, ['error']],
    );
    await plan(
      'logs, a filter nothing matches (release 9.9)',
      `SELECT l.id FROM logs l WHERE l.project_id = $1 AND l.release = '9.9' ORDER BY l.timestamp DESC, l.id DESC LIMIT 51`,
      [project],
    );
    await plan(
      'logs, text "needle", no range',
      `SELECT l.id FROM logs l WHERE l.project_id = $1 AND l.message ILIKE '%needle%' ORDER BY l.timestamp DESC, l.id DESC LIMIT 51`,
      [project],
    );
  } finally {
    await api.stop();
    await app.close();
    await db.close();
    await pg.drop();
  }
}

void main();
