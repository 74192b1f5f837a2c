/**
 * Issues page and issue detail latency over GraphQL/HTTP with 1,000,000 events over 10,000
 * issues in a fresh PostgreSQL database, against a trivial query (`{ __typename }`) on the same
 * server in the same run (the baseline: HTTP, Apollo, authentication, no data).
 *
 * The server is a real Tracker (server/src/main.ts with `--roles api`, PostgreSQL mode) in a
 * forked child process; the client, here, sends one request at a time over a keep-alive
 * connection, so the figures are latencies, not throughput. The three queries alternate in every round, so
 * slow drift of the shared machine hits them alike.
 *
 * Seeding is SQL (generate_series), not the worker: 1,000,000 events through the worker would
 * take minutes and measure the worker. The derived tables the worker maintains (issue counters,
 * issue_users, issue_releases, issue_environments) are filled from the events the same way the
 * worker would leave them.
 *
 * Run: `npm run bench -w @tracker/api` (or `npm run bench` at the root).
 * Env: TRACKER_BENCH_EVENTS (default 1000000), TRACKER_BENCH_ISSUES (default 10000),
 *      TRACKER_BENCH_ROUNDS (measured rounds, default 300), TRACKER_BENCH_STRICT=1 (exit 1 above
 *      target), TRACKER_BENCH_NO_DOC=1 (do not rewrite docs/benchmarks.md),
 *      TRACKER_BENCH_DB=<name> (keep the seeded database under this name and reuse it on the next
 *      run of the same size: seeding 10,000,000 events takes 7–8 minutes; migrations added since
 *      are applied to it on open).
 *
 * The server is started from server/'s source by path, not imported: server depends on api, and
 * a package dependency back would be a cycle for npm and turbo.
 *
 * After the timed rounds, the same two operations run once more in this process through the
 * same resolvers (createApollo), with TypeORM's query logger captured: each statement they send
 * is then run under EXPLAIN (ANALYZE, BUFFERS) and the plans go into the doc.
 */
import { fork } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { resolve } from 'node:path';
import { Client } from 'pg';
import { authenticate, createProject, loadConfig, logIn, openDatabase, signUp } from '@tracker/core';
import {
  createTempDir,
  createTestPostgres,
  TEST_PG_ADMIN_URL,
  type TestPostgres,
  describeMachine,
  envFlag,
  envNumber,
  fmt,
  loadAverage,
  machineLine,
  seedIssues,
  table,
  writeDocSection,
  freePort,
  waitForReady,
} from '@tracker/core/testing';
import type { DataSource, Logger } from 'typeorm';
import { createApollo } from '../src/api.plugin';
import { createContext } from '../src/context';

const EVENTS = envNumber('BENCH_EVENTS', 1_000_000);
const ISSUES = envNumber('BENCH_ISSUES', 10_000);
const ROUNDS = envNumber('BENCH_ROUNDS', 300);
const WARMUP_ROUNDS = 30;
const TARGET_P95_MS = 50;
/** Issue 19: the issues page searched with the query language. */
const SEARCH_TARGET_P95_MS = 30;
const STRICT = envFlag('BENCH_STRICT');
const KEPT_DB = process.env.TRACKER_BENCH_DB;
const BENCH_EMAIL = 'bench@example.com';
const BENCH_PASSWORD = 'bench password';

/**
 * The database of the run: a fresh one, or with TRACKER_BENCH_DB a named one kept between runs
 * (created when missing; `drop` then leaves it).
 */
async function openBenchPostgres(): Promise<TestPostgres & { existed: boolean }> {
  if (!KEPT_DB) return { ...(await createTestPostgres()), existed: false };
  if (!/^[a-z_][a-z0-9_]*$/.test(KEPT_DB)) throw new Error('TRACKER_BENCH_DB: a lower-case identifier');
  const admin = new Client({ connectionString: TEST_PG_ADMIN_URL });
  await admin.connect();
  let existed: boolean;
  try {
    existed = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [KEPT_DB])).rowCount === 1;
    if (!existed) await admin.query(`CREATE DATABASE ${KEPT_DB}`);
  } finally {
    await admin.end();
  }
  const url = new URL(TEST_PG_ADMIN_URL);
  url.pathname = `/${KEPT_DB}`;
  return { url: url.toString(), drop: async () => undefined, existed };
}

/**
 * The default size writes the sections the other benches refer to; another size (issue 21 ran
 * 10,000,000) writes sections of its own beside them, its event count in the heading.
 */
function writeSection(id: string, markdown: string): void {
  if (EVENTS === 1_000_000) return writeDocSection(id, markdown);
  const [heading, ...rest] = markdown.split('\n');
  writeDocSection(`${id}-${EVENTS}`, [`${heading}, ${fmt(EVENTS)} events`, ...rest].join('\n'));
}

const BASELINE = `{ __typename }`;

/** The issues page: 50 rows, last seen first, one environment, with a 24-hour sparkline per row. */
const PAGE = `query Page($p: ID!) { issues(projectId: $p, first: 50, environment: "production", sort: LAST_SEEN) {
  totalCount pageInfo { hasNextPage endCursor }
  nodes { id title culprit status level isRegression eventCount userCount firstSeen lastSeen
          releases { version environment } series(hours: 24) { count } }
} }`;

/** The issue page: everything it shows, with the first 20 events. */
const DETAIL = `query Detail($id: ID!) { issue(id: $id) {
  id title culprit type status level isRegression eventCount userCount firstSeen lastSeen
  resolvedInRelease { version }
  releases { version environment firstSeen lastSeen eventCount }
  environments { environment eventCount }
  tags { key count values { value count } }
  series(hours: 24) { ts count }
  events(first: 20) { totalCount pageInfo { hasNextPage endCursor } nodes { id timestamp message environment release } }
  feedback { message email }
  latestEvent { id message tags { key value } user context url
    frames { filename function lineno colno minified { filename lineno colno } context { line } } }
} }`;

/**
 * The issues page searched with the query language (issue 19): the same 50-row page and fields,
 * without the environment argument, with `query`. Compared with the plain page in the same run.
 * What each matches in the seed (core/src/testing/seed-issues.ts) is in the doc's table.
 */
const SEARCH_PAGE = `query Search($p: ID!, $q: String!) { issues(projectId: $p, first: 50, query: $q, sort: LAST_SEEN) {
  totalCount pageInfo { hasNextPage endCursor }
  nodes { id title culprit status level isRegression eventCount userCount firstSeen lastSeen
          releases { version environment } series(hours: 24) { count } }
} }`;
const SEARCHES = [
  { id: 'tag', query: 'browser.name:Chrome', what: 'a tag a quarter of the issues carry' },
  { id: 'rare-tag', query: 'customer:acme-7', what: 'a tag value 20 issues carry' },
  { id: 'user-email', query: 'user.email:user123@example.com', what: 'one user, by email' },
  { id: 'is-level', query: 'is:unresolved level:warning', what: 'status and level' },
  {
    id: 'times-seen',
    query: `times-seen:>=${Math.floor(EVENTS / ISSUES)}`,
    what: 'a counter comparison; every issue has the same count in this seed, so it matches all',
  },
  { id: 'free-text', query: '"module 42"', what: 'free text, matched against type and message' },
  { id: 'negated', query: '!browser.name:Chrome last-seen:-1d', what: 'a negated tag and a relative time' },
] as const;

type Target = 'baseline' | 'page' | 'detail' | `search:${(typeof SEARCHES)[number]['id']}`;

function percentile(sorted: number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

async function main(): Promise<void> {
  const machine = describeMachine();
  const started = new Date();
  const loadAtStart = loadAverage();
  console.log(`issues-page: ${machineLine(machine)}; load average ${loadAtStart}`);
  const pg = await openBenchPostgres();
  const dir = createTempDir('tracker-bench-');
  const config = loadConfig({ DATABASE_URL: pg.url, TRACKER_DATA_DIR: dir.path, TRACKER_LOG_LEVEL: 'silent' });
  const db = await openDatabase(config, { migrate: true });
  let server: ReturnType<typeof fork> | undefined;
  try {
    const ds = db.ds;
    const reused = pg.existed ? await findKeptSeed(ds) : null;
    if (pg.existed && !reused)
      throw new Error(`TRACKER_BENCH_DB=${KEPT_DB}: not a finished seed of this size; drop it`);
    const account = reused
      ? { ...(await logIn(ds, BENCH_EMAIL, BENCH_PASSWORD)), organization: undefined }
      : await signUp(ds, { email: BENCH_EMAIL, password: BENCH_PASSWORD, organizationName: 'Bench' }, 'pro');
    const project = reused
      ? { id: reused.projectId }
      : (await createProject(ds, account.user.id, account.organization!.id, 'Web')).project;
    const seedStart = performance.now();
    const seeded = reused ? reused.seeded : await seedIssues(ds, project.id, { events: EVENTS, issues: ISSUES });
    const seedSeconds = (performance.now() - seedStart) / 1000;
    console.log(
      reused
        ? `reused ${KEPT_DB}: ${fmt(seeded.events)} events over ${fmt(seeded.issues)} issues, seeded ${reused.seededAt}`
        : `seeded ${fmt(seeded.events)} events over ${fmt(seeded.issues)} issues in ${seedSeconds.toFixed(0)} s`,
    );

    const port = await freePort();
    // fork reuses this process's execArgv (--conditions=@tracker/source --import tsx).
    server = fork(resolve(__dirname, '../../server/src/main.ts'), ['--roles', 'api'], {
      env: {
        ...process.env,
        NODE_ENV: 'production',
        DATABASE_URL: pg.url,
        PORT: String(port),
        HOST: '127.0.0.1',
        TRACKER_DATA_DIR: dir.path,
        TRACKER_LOG_LEVEL: 'warn',
        REDIS_URL: '',
        // One client sends hundreds of requests a second here: the per-token GraphQL rate limit
        // (600/min by default) is not what this bench measures.
        TRACKER_GRAPHQL_RATE_LIMIT: '0',
      },
      stdio: 'inherit',
    });
    const base = `http://127.0.0.1:${port}`;
    await waitForReady(`${base}/readyz`);
    const url = `${base}/graphql`;
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${account.token}` };
    async function post(query: string, variables: Record<string, unknown>): Promise<any> {
      const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
      const body = (await res.json()) as { data?: any; errors?: unknown };
      if (res.status !== 200 || body.errors) throw new Error(`GraphQL: ${res.status} ${JSON.stringify(body.errors)}`);
      return body.data;
    }

    const [tagStats] = await ds.query(
      `SELECT count(*) AS n, pg_size_pretty(pg_total_relation_size('issue_tag_values')) AS size FROM issue_tag_values`,
    );
    const tagValueRows = Number(tagStats.n);
    const tagValueSize: string = tagStats.size;
    const [{ users }] = await ds.query('SELECT round(avg(user_count), 1)::text AS users FROM issues');
    const usersPerIssue: string = users;
    const first = await post(PAGE, { p: project.id });
    const pageIds: string[] = first.issues.nodes.map((n: { id: string }) => n.id);
    if (pageIds.length !== 50) throw new Error(`the page has ${pageIds.length} rows, not 50`);
    const totalCount: number = first.issues.totalCount;
    let detailIndex = 0;
    const searchCounts: Record<string, number> = {};
    for (const s of SEARCHES) {
      const d = await post(SEARCH_PAGE, { p: project.id, q: s.query });
      searchCounts[s.id] = d.issues.totalCount;
      if (d.issues.nodes.length === 0) throw new Error(`the search ${s.query} matches nothing in the seed`);
    }
    const requests = {
      baseline: () => post(BASELINE, {}),
      page: () => post(PAGE, { p: project.id }),
      // The issues a person opens: those on the page, in turn.
      detail: () => post(DETAIL, { id: pageIds[detailIndex++ % pageIds.length] }),
      ...Object.fromEntries(
        SEARCHES.map((s) => [`search:${s.id}`, () => post(SEARCH_PAGE, { p: project.id, q: s.query })]),
      ),
    } as Record<Target, () => Promise<unknown>>;
    const searchTargets = SEARCHES.map((s) => `search:${s.id}` as Target);
    // Rotating orders: slow drift of the shared machine hits every query alike.
    const all: Target[] = ['baseline', 'page', 'detail', ...searchTargets];
    const orders: Target[][] = [all, [...all].reverse(), [...all.slice(3), ...all.slice(0, 3)]];
    const times = Object.fromEntries(all.map((t) => [t, [] as number[]])) as Record<Target, number[]>;
    for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
      for (const target of orders[round % orders.length]) {
        const t0 = performance.now();
        await requests[target]();
        const ms = performance.now() - t0;
        if (round >= WARMUP_ROUNDS) times[target].push(ms);
      }
    }
    const stats = Object.fromEntries(
      (Object.keys(times) as Target[]).map((t) => {
        const sorted = [...times[t]].sort((a, b) => a - b);
        return [t, { p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.at(-1)! }];
      }),
    ) as Record<Target, { p50: number; p95: number; max: number }>;
    for (const t of Object.keys(stats) as Target[]) {
      console.log(`${t}: p50 ${stats[t].p50.toFixed(2)} ms, p95 ${stats[t].p95.toFixed(2)} ms`);
    }
    const met = stats.page.p95 < TARGET_P95_MS && stats.detail.p95 < TARGET_P95_MS;
    console.log(`target p95 < ${TARGET_P95_MS} ms for page and detail: ${met ? 'MET' : 'MISSED'}`);
    const searchMet = searchTargets.every((t) => stats[t].p95 < SEARCH_TARGET_P95_MS);
    console.log(`target p95 < ${SEARCH_TARGET_P95_MS} ms for every search: ${searchMet ? 'MET' : 'MISSED'}`);

    // The statements each operation sends, captured at TypeORM's query runner, then EXPLAINed.
    const apollo = await createApollo();
    const principal = await authenticate(ds, account.token);
    const execute = async (query: string, variables: Record<string, unknown>) => {
      const r = await apollo.executeOperation(
        { query, variables },
        { contextValue: createContext({ ds, config }, principal) },
      );
      if (r.body.kind !== 'single' || r.body.singleResult.errors)
        throw new Error(`in-process: ${JSON.stringify(r.body)}`);
    };
    const plans = {
      page: await explainRequest(ds, () => execute(PAGE, { p: project.id })),
      detail: await explainRequest(ds, () => execute(DETAIL, { id: pageIds[0] })),
    };
    // Each search's own statements (the tag-key check and the page with its count), and for
    // tag searches the same statement probing the events instead of issue_tag_values: the
    // measurement behind the per-issue table (docs/issue-queries.md).
    const searchPlans: Array<{ search: (typeof SEARCHES)[number]; plans: Plan[]; viaEvents: Plan | null }> = [];
    for (const search of SEARCHES) {
      const captured = await explainRequest(ds, () => execute(SEARCH_PAGE, { p: project.id, q: search.query }));
      const own = captured.filter((p) => /issue_tag_values|total_count/.test(p.sql));
      const main = own.find((p) => /total_count/.test(p.sql));
      let viaEvents: Plan | null = null;
      if (main && /FROM issue_tag_values tv WHERE tv.project_id/.test(main.sql) && !search.query.startsWith('user.')) {
        const sql = main.sql.replace(
          /EXISTS \(SELECT 1 FROM issue_tag_values tv WHERE tv.project_id = \$1 AND tv.issue_id = i.id AND tv.key = (\$\d+) AND tv.value = (\$\d+)\)/g,
          // $1 and $2 here are the regex's groups: the statement's own placeholders of key and value.
          'EXISTS (SELECT 1 FROM events e WHERE e.issue_id = i.id AND e.tags ->> $1 = $2)',
        );
        viaEvents = await explainSql(ds, sql, main.params);
      }
      searchPlans.push({ search, plans: own, viaEvents });
    }
    await apollo.stop();
    for (const [name, list] of Object.entries(plans)) {
      for (const p of list) console.log(`${name}: ${p.ms.toFixed(2)} ms  ${shortSql(p.sql)}`);
    }

    if (!envFlag('BENCH_NO_DOC')) {
      const ms = (n: number) => n.toFixed(2);
      const ratio = (t: Target, p: 'p50' | 'p95') => (stats[t][p] / stats.baseline[p]).toFixed(1);
      writeSection(
        'issues-page',
        `## Issues page and issue detail over GraphQL (\`api/bench/issues-page.bench.ts\`)

- **Date**: ${started.toISOString()}
- **Machine**: ${machineLine(machine)}; PostgreSQL ${seeded.serverVersion}; 1-minute load average ${loadAtStart} at the start, ${loadAverage()} at the end${Math.max(loadAtStart, loadAverage()) > machine.nproc ? ' (**other work was competing for the cores**)' : ''}
- **Command**: \`npm run bench\` at the root, which runs (in \`api/\`) \`TSX_TSCONFIG_PATH=../tsconfig.json node --conditions=@tracker/source --import tsx bench/issues-page.bench.ts\`
- **Data**: ${reused ? `the database kept by an earlier run (\`TRACKER_BENCH_DB\`, seeded ${reused.seededAt}, this tree's migrations applied on open)` : 'a fresh PostgreSQL database'}, ${fmt(seeded.events)} events over ${fmt(seeded.issues)} issues of one project (${fmt(seeded.eventsBytes / seeded.events)} bytes per event row on disk, ${seeded.tableSize} for \`events\` with its indexes), seeded with \`generate_series\` SQL${reused ? '' : ` in ${seedSeconds.toFixed(0)} s`}: 30 days of events, 5 releases, 2 environments (70% of issues production only, 20% staging only, 10% both), 3 tag values, a user on 80% of events; then \`VACUUM ANALYZE\`. The environment filter matches ${fmt(totalCount)} issues.
- **Server**: a real Tracker, \`server/src/main.ts --roles api\` (PostgreSQL mode, \`NODE_ENV=production\`) in a forked child process, over HTTP on 127.0.0.1 with a session token (so every request, the baseline included, authenticates).
- **Client**: one request at a time (Node's fetch, keep-alive); ${WARMUP_ROUNDS} warm-up rounds, then ${ROUNDS} measured rounds of the three queries in rotating order.
- **Queries**: baseline \`{ __typename }\`; the issues page — 50 rows, \`environment: "production"\`, sorted by last seen, with \`totalCount\`, per row the list fields, releases and a 24-hour sparkline (\`series(hours: 24)\`); issue detail — every field of the issue page (releases, environments, tag breakdown, 24-hour series, the first 20 events, feedback, latest event with frames), for each of the page's 50 issues in turn.
- **Target**: p95 under ${TARGET_P95_MS} ms for the page and the detail: **${met ? 'met' : 'missed'}**.

${table(
  ['query', 'p50 ms', 'p95 ms', 'max ms', 'p50 / baseline', 'p95 / baseline'],
  [
    ['baseline `{ __typename }`', ms(stats.baseline.p50), ms(stats.baseline.p95), ms(stats.baseline.max), '1.0', '1.0'],
    [
      'issues page (50 rows)',
      ms(stats.page.p50),
      ms(stats.page.p95),
      ms(stats.page.max),
      ratio('page', 'p50'),
      ratio('page', 'p95'),
    ],
    [
      'issue detail',
      ms(stats.detail.p50),
      ms(stats.detail.p95),
      ms(stats.detail.max),
      ratio('detail', 'p50'),
      ratio('detail', 'p95'),
    ],
  ],
)}

Statements per request and their server-side execution time (\`EXPLAIN ANALYZE\` of the exact SQL and parameters the same operation sent when run once more in the bench process through the same resolvers, after the timed rounds; the session lookup every request makes, the baseline's included, is not listed): the page sends ${plans.page.length}, the detail ${plans.detail.length}. Indexes and why: [docs/issue-queries.md](issue-queries.md).

${planTable('page', plans.page)}

${planTable('detail', plans.detail)}

${planDetails(plans.page, plans.detail)}`,
      );
    }
    if (!envFlag('BENCH_NO_DOC')) {
      writeSection(
        'issues-search',
        searchSection({
          started,
          machine: machineLine(machine),
          serverVersion: seeded.serverVersion,
          load: [loadAtStart, loadAverage()],
          competing: Math.max(loadAtStart, loadAverage()) > machine.nproc,
          tagValueRows,
          tagValueSize,
          usersPerIssue,
          issues: seeded.issues,
          plain: { ...stats.page, matches: totalCount },
          searches: SEARCHES.map((s) => ({
            ...s,
            ...stats[`search:${s.id}` as Target],
            matches: searchCounts[s.id],
          })),
          plans: searchPlans,
          met: searchMet,
        }),
      );
    }
    if (STRICT && !(met && searchMet)) process.exitCode = 1;
  } finally {
    if (server && server.exitCode === null) {
      const exited = new Promise((done) => server!.once('exit', done));
      server.kill('SIGTERM');
      await exited;
    }
    await db.close();
    await pg.drop();
    dir.remove();
  }
}

/**
 * A kept database seeded to this run's size: its project and the seed's figures, or null when the
 * seed is missing or unfinished (the counters are filled by the seed's last steps).
 */
async function findKeptSeed(
  ds: DataSource,
): Promise<{ projectId: string; seededAt: string; seeded: Awaited<ReturnType<typeof seedIssues>> } | null> {
  const [row] = await ds.query(
    `SELECT p.id, p.created_at, (SELECT count(*) FROM issues i WHERE i.project_id = p.id) AS issues,
            (SELECT coalesce(sum(event_count), 0) FROM issues i WHERE i.project_id = p.id) AS events,
            (SELECT count(*) FROM feedback f WHERE f.project_id = p.id) AS feedback
       FROM projects p WHERE p.name = 'Web'`,
  );
  if (!row || Number(row.issues) !== ISSUES || Number(row.events) !== EVENTS || Number(row.feedback) === 0) return null;
  const [size] = await ds.query(
    `SELECT sum(pg_relation_size(relid)) AS heap, pg_size_pretty(sum(pg_total_relation_size(relid))) AS pretty,
            current_setting('server_version') AS v
       FROM pg_partition_tree('events')`,
  );
  return {
    projectId: row.id,
    seededAt: new Date(row.created_at).toISOString(),
    seeded: {
      events: EVENTS,
      issues: ISSUES,
      eventsBytes: Number(size.heap),
      tableSize: size.pretty,
      serverVersion: size.v,
    },
  };
}

interface Plan {
  sql: string;
  params: unknown[];
  ms: number;
  text: string;
}

async function explainSql(ds: DataSource, sql: string, params: unknown[]): Promise<Plan> {
  const rows: Array<{ 'QUERY PLAN': string }> = await ds.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params);
  const text = rows.map((r) => r['QUERY PLAN']).join('\n');
  const m = /Execution Time: ([\d.]+) ms/.exec(text);
  return { sql, params, ms: m ? Number(m[1]) : NaN, text };
}

async function explainRequest(ds: DataSource, request: () => Promise<unknown>): Promise<Plan[]> {
  const holder = ds as unknown as { logger: Logger };
  const original = holder.logger;
  const captured: Array<{ sql: string; params: unknown[] }> = [];
  holder.logger = new Proxy(original, {
    get(target, prop, receiver) {
      if (prop === 'logQuery') {
        return (sql: string, params?: unknown[]) => {
          captured.push({ sql, params: params ?? [] });
          return target.logQuery(sql, params);
        };
      }
      return Reflect.get(target, prop, receiver);
    },
  });
  try {
    await request();
  } finally {
    holder.logger = original;
  }
  const plans: Plan[] = [];
  for (const { sql, params } of captured) {
    if (!/^\s*(SELECT|WITH)/i.test(sql)) continue;
    plans.push(await explainSql(ds, sql, params));
  }
  return plans;
}

const code = (text: string) => `\`${text.replace(/\|/g, '\\|')}\``;
const fence = (lang: string, text: string) => ['```' + lang, clip(text.trim()), '```'].join('\n');
const details = (summary: string, body: string) => `<details><summary>${summary}</summary>\n\n${body}\n\n</details>`;
const statementName = (p: Plan) => (/total_count/.test(p.sql) ? 'page + count' : 'tag-key check');

/** The doc section of the searches: figures against the plain page, then every plan. */
function searchSection(r: {
  started: Date;
  machine: string;
  serverVersion: string;
  load: [number, number];
  competing: boolean;
  tagValueRows: number;
  tagValueSize: string;
  usersPerIssue: string;
  issues: number;
  plain: { p50: number; p95: number; max: number; matches: number };
  searches: Array<{ query: string; what: string; p50: number; p95: number; max: number; matches: number }>;
  plans: Array<{ search: { query: string }; plans: Plan[]; viaEvents: Plan | null }>;
  met: boolean;
}): string {
  const ms = (n: number) => n.toFixed(2);
  const figures = table(
    ['query', 'matches', 'p50 ms', 'p95 ms', 'max ms', 'p95 / plain page p95'],
    [
      [
        'plain page (`environment: "production"`)',
        fmt(r.plain.matches),
        ms(r.plain.p50),
        ms(r.plain.p95),
        ms(r.plain.max),
        '1.00',
      ],
      ...r.searches.map((s) => [
        `${code(s.query)} (${s.what})`,
        fmt(s.matches),
        ms(s.p50),
        ms(s.p95),
        ms(s.max),
        (s.p95 / r.plain.p95).toFixed(2),
      ]),
    ],
  );
  const statements = table(
    ['query', 'statement', 'execution ms', 'same through events, ms'],
    r.plans.flatMap(({ search, plans, viaEvents }) =>
      plans.map((p) => [
        code(search.query),
        statementName(p),
        p.ms.toFixed(3),
        /total_count/.test(p.sql) && viaEvents ? viaEvents.ms.toFixed(3) : '',
      ]),
    ),
  );
  const planBlocks = r.plans
    .flatMap(({ search, plans, viaEvents }) => [
      ...plans.map((p) =>
        details(
          `${code(search.query)}: ${statementName(p)} (${p.ms.toFixed(3)} ms)`,
          `${fence('sql', p.sql)}\n\n${fence('', p.text)}`,
        ),
      ),
      ...(viaEvents
        ? [
            details(
              `${code(search.query)}: the same through events (${viaEvents.ms.toFixed(3)} ms)`,
              fence('', viaEvents.text),
            ),
          ]
        : []),
    ])
    .join('\n\n');
  return `## Issues page searched with the query language (\`api/bench/issues-page.bench.ts\`, issue 19)

- **Date**: ${r.started.toISOString()}; the same run, data, server and client as the section above, whose plain issues page is the baseline here
- **Machine**: ${r.machine}; PostgreSQL ${r.serverVersion}; 1-minute load average ${r.load[0]} at the start, ${r.load[1]} at the end${r.competing ? ' (**other work was competing for the cores**)' : ''}
- **Command**: \`npm run bench:issues -w @tracker/api\` (in \`api/\`: \`TSX_TSCONFIG_PATH=../tsconfig.json node --conditions=@tracker/source --import tsx bench/issues-page.bench.ts\`)
- **Seed, for search**: every issue carries one \`browser.name\` of four and one \`customer\` of 500 on all its events; 80% of events name a user with an id and an email (${r.usersPerIssue} distinct users per issue on average); \`issue_tag_values\` holds ${fmt(r.tagValueRows)} rows, ${(r.tagValueRows / r.issues).toFixed(1)} per issue (${r.tagValueSize} with its indexes).
- **Queries**: the issues page of the section above (50 rows, the same fields) with \`query:\` instead of \`environment:\`, timed in the same rotation as the baseline, the plain page and the detail.
- **Target**: p95 under ${SEARCH_TARGET_P95_MS} ms for every search: **${r.met ? 'met' : 'missed'}**.

${figures}

Each search's own statements under \`EXPLAIN (ANALYZE, BUFFERS)\`: the tag-key check (when the query names a tag) and the page with its count; the page's other statements are those of the plain page. For tag searches, the last column is the same page statement probing the issue's events (\`e.tags ->> key = value\`) instead of \`issue_tag_values\`: the measurement behind the per-issue table (docs/issue-queries.md).

${statements}

${planBlocks}`;
}

function shortSql(sql: string): string {
  const flat = sql.replace(/\s+/g, ' ').trim();
  // The first table after a FROM (not `extract(epoch FROM timestamp)`).
  const from = [...flat.matchAll(/\bFROM "?([a-z_]+)"?/gi)].map((m) => m[1]).find((t) => t !== 'timestamp') ?? '?';
  return `\`${from}\`: ${flat.slice(0, 90).replace(/\|/g, '\\|').replace(/`/g, "'")}…`;
}

function planTable(name: string, plans: Plan[]): string {
  return `**${name}**\n\n${table(
    ['#', 'statement', 'execution ms'],
    plans.map((p, i) => [String(i + 1), shortSql(p.sql), p.ms.toFixed(3)]),
  )}`;
}

/** Long lines (a page's 50 ids) cut: the plan's shape is what matters. */
function clip(text: string): string {
  return text
    .split('\n')
    .map((line) => (line.length > 240 ? `${line.slice(0, 240)}…` : line))
    .join('\n');
}

function planDetails(page: Plan[], detail: Plan[]): string {
  const block = (title: string, plans: Plan[]) =>
    plans
      .map(
        (p, i) =>
          `<details><summary>${title} statement ${i + 1} (${p.ms.toFixed(3)} ms)</summary>\n\n\`\`\`sql\n${clip(p.sql.trim())}\n\`\`\`\n\n\`\`\`\n${clip(p.text)}\n\`\`\`\n\n</details>`,
      )
      .join('\n\n');
  return `${block('page', page)}\n\n${block('detail', detail)}`;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
