/**
 * Issue 7: server render time of the dashboard's issues page and issue page with 1,000,000
 * events (p50/p95/p99 of full HTML documents fetched one at a time with a signed-in session
 * cookie: loaders → GraphQL over loopback → React render), and the JavaScript each page ships
 * (gzip, from the web build's manifest). Targets: p95 under 150 ms; under 150 KB of gzip
 * JavaScript on any page.
 *
 * The data set is seeded in SQL by the same code as the issues API bench
 * (`seedIssues`, @tracker/core/testing): 1,000,000 events over 10,000 issues, one of them (the
 * "big issue") with 100,000. The server is a real Tracker (server/src/main.ts, roles api and
 * web, PostgreSQL mode, NODE_ENV=production) in a forked child process; this process is the
 * client. Baselines in the same rounds, through the same server: `GET /healthz` (HTTP and
 * fastify), `GET /login` signed out (a Remix document render with no GraphQL call) and the
 * GraphQL `{ __typename }` with the session token (HTTP, Apollo, authentication, no data). The
 * targets rotate within each round so slow drift of the shared machine hits them alike.
 *
 * Where a page's time goes: the server process times each GraphQL request its loaders send
 * (graphql-timing.preload.ts, bench only), and each is assigned to the page request it served.
 *
 * Run: `npm run bench:dashboard -w @tracker/server` (also part of `npm run bench`).
 * Env: TRACKER_BENCH_EVENTS (default 1000000), TRACKER_BENCH_ISSUES (10000),
 *      TRACKER_BENCH_BIG_ISSUE_EVENTS (100000), TRACKER_BENCH_ROUNDS (measured rounds, 300),
 *      TRACKER_BENCH_CPU_PROF=<dir> (V8 CPU profile of the server, written when it stops),
 *      TRACKER_BENCH_STRICT=1 (exit 1 on a missed target), TRACKER_BENCH_NO_DOC=1 (print only).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { join, resolve } from 'node:path';
import { createProject, loadConfig, openDatabase, signUp } from '@tracker/core';
import {
  createTempDir,
  createTestPostgres,
  describeMachine,
  envFlag,
  envNumber,
  fmt,
  machineLine,
  processCpuMs,
  seedIssues,
  summarizeCpuProfile,
  table,
  writeDocSection,
  freePort,
  waitForReady,
} from '@tracker/core/testing';
import type { GraphQLTiming } from './graphql-timing.preload';
import { measureRouteJs, scriptsInHtml } from './route-js';

const EVENTS = envNumber('BENCH_EVENTS', 1_000_000);
const ISSUES = envNumber('BENCH_ISSUES', 10_000);
const BIG_ISSUE_EVENTS = envNumber('BENCH_BIG_ISSUE_EVENTS', 100_000);
const ROUNDS = envNumber('BENCH_ROUNDS', 300);
const WARMUP_ROUNDS = 30;
const TARGET_P95_MS = 150;
const TARGET_JS_GZIP_BYTES = 150 * 1024;
const STRICT = envFlag('BENCH_STRICT');
const PROFILE_DIR = process.env.TRACKER_BENCH_CPU_PROF;
const PASSWORD = 'bench password';
/** The issues list's page size (web/app/routes/_app.projects.$projectId.issues._index.tsx). */
const LIST_ROWS = 25;

interface Target {
  name: string;
  kind: 'baseline' | 'page';
  what: string;
  request: () => Promise<Response>;
  /** Checked on the first answer: the page shows what it should, not an error or the login form. */
  check?: (html: string) => string | undefined;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

const summarize = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return { p50: percentile(s, 50), p95: percentile(s, 95), p99: percentile(s, 99), max: s.at(-1)! };
};

/** `uptime`'s three load averages. */
const uptimeLoad = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');

async function main(): Promise<void> {
  const machine = describeMachine();
  const started = new Date();
  const loadAtStart = uptimeLoad();
  console.log(`dashboard-render: ${machineLine(machine)}; load average ${loadAtStart}`);

  const js = await measureRouteJs();
  const pagesJs = js.routes.filter((r) => r.hasComponent);
  for (const r of pagesJs) console.log(`  JS ${r.routeId}: ${fmt(r.gzipBytes)} B gzip (${r.files.length} files)`);
  const largestJs = pagesJs[0];
  const jsMet = largestJs.gzipBytes < TARGET_JS_GZIP_BYTES;
  console.log(
    `largest JS per page: ${largestJs.routeId} ${fmt(largestJs.gzipBytes)} B gzip: target < ${fmt(TARGET_JS_GZIP_BYTES)} ${jsMet ? 'MET' : 'MISSED'}`,
  );

  const pg = await createTestPostgres();
  const dir = createTempDir('tracker-bench-');
  let server: ChildProcess | undefined;
  // Kept open to the end: it finds the server's PostgreSQL backends for the CPU columns.
  let db: Awaited<ReturnType<typeof openDatabase>> | undefined;
  let cleaned: Promise<void> | undefined;
  // Once, from the `finally` below or from Ctrl-C (dropping the database also ends a seed under way).
  cleanup = () =>
    (cleaned ??= (async () => {
      if (server && server.exitCode === null && server.signalCode === null) {
        const exited = new Promise((done) => server!.once('exit', done));
        server.kill('SIGTERM');
        await exited;
      }
      if (PROFILE_DIR) printProfile(resolve(PROFILE_DIR));
      await db?.close().catch(() => {});
      await pg.drop();
      dir.remove();
    })());
  try {
    const config = loadConfig({ DATABASE_URL: pg.url, TRACKER_DATA_DIR: dir.path, TRACKER_LOG_LEVEL: 'silent' });
    db = await openDatabase(config, { migrate: true });
    const email = 'bench@example.com';
    const seedStart = performance.now();
    const account = await signUp(db.ds, { email, password: PASSWORD, organizationName: 'Bench' }, 'business');
    const projectId = (await createProject(db.ds, account.user.id, account.organization.id, 'Web')).project.id;
    const seeded = await seedIssues(db.ds, projectId, {
      events: EVENTS,
      issues: ISSUES,
      bigIssueEvents: BIG_ISSUE_EVENTS,
    });
    const seedSeconds = (performance.now() - seedStart) / 1000;
    console.log(`seeded ${fmt(seeded.events)} events over ${fmt(seeded.issues)} issues in ${seedSeconds.toFixed(0)} s`);

    const port = await freePort();
    const execArgv = [...process.execArgv, '--import', resolve(__dirname, 'graphql-timing.preload.ts')];
    if (PROFILE_DIR) execArgv.push('--cpu-prof', `--cpu-prof-dir=${resolve(PROFILE_DIR)}`);
    server = fork(resolve(__dirname, '../src/main.ts'), ['--roles', 'api,web'], {
      execArgv,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        DATABASE_URL: pg.url,
        REDIS_URL: '',
        PORT: String(port),
        HOST: '127.0.0.1',
        TRACKER_DATA_DIR: dir.path,
        TRACKER_LOG_LEVEL: 'warn',
        // Every page view is three or four GraphQL requests with the user's token, hundreds a
        // second here: the per-token rate limit (600/min) is not what this bench measures.
        TRACKER_GRAPHQL_RATE_LIMIT: '0',
      },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const base = `http://127.0.0.1:${port}`;
    await waitForReady(`${base}/readyz`);

    const login = await fetch(`${base}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email, password: PASSWORD, redirectTo: '/' }),
      redirect: 'manual',
    });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
    if (login.status !== 302 || !cookie) throw new Error(`login failed: ${login.status}`);
    // The same session's token, for the GraphQL baseline: the cookie carries it, signed.
    const token = await sessionToken(base, email);

    const issues = `/projects/${projectId}/issues`;
    const big = await biggestIssue(base, token, projectId);
    if (big.eventCount !== BIG_ISSUE_EVENTS) throw new Error(`the biggest issue has ${big.eventCount} events`);
    const typical = (await firstIssues(base, token, projectId)).filter((i) => i.id !== big.id);
    let typicalIndex = 0;
    const get = (path: string) => () => fetch(`${base}${path}`, { headers: { cookie } });
    const rowCount = (html: string) => (html.match(/class="issue-title"/g) ?? []).length;
    const targets: Target[] = [
      { name: 'healthz', kind: 'baseline', what: '`GET /healthz`', request: () => fetch(`${base}/healthz`) },
      {
        name: 'login',
        kind: 'baseline',
        what: '`GET /login` signed out (Remix document, no GraphQL)',
        request: () => fetch(`${base}/login`),
        check: (html) => (html.includes('name="password"') ? undefined : 'no login form'),
      },
      {
        name: 'typename',
        kind: 'baseline',
        what: 'GraphQL `{ __typename }` with the session token',
        request: () =>
          fetch(`${base}/graphql`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
            body: '{"query":"{ __typename }"}',
          }),
      },
      {
        name: 'issues',
        kind: 'page',
        what: `issues page, default tab (\`${issues.replace(projectId, ':p')}\`: open, last seen)`,
        request: get(issues),
        check: (html) => (rowCount(html) === LIST_ROWS ? undefined : `${rowCount(html)} rows, not ${LIST_ROWS}`),
      },
      {
        name: 'issues-sorted',
        kind: 'page',
        what: 'issues page sorted and filtered (`?sort=events&environment=production`)',
        request: get(`${issues}?sort=events&environment=production`),
        check: (html) => (rowCount(html) === LIST_ROWS ? undefined : `${rowCount(html)} rows, not ${LIST_ROWS}`),
      },
      {
        name: 'issue-big',
        kind: 'page',
        what: `issue page of the big issue (${fmt(big.eventCount)} events)`,
        request: get(`${issues}/${big.id}`),
        check: (html) => (html.includes(big.title) ? undefined : 'no issue title'),
      },
      {
        name: 'issue-typical',
        kind: 'page',
        what: `issue page of a typical issue (${fmt(typical[0].eventCount)} events; the ${typical.length} most recent in turn)`,
        request: () => get(`${issues}/${typical[typicalIndex++ % typical.length].id}`)(),
        check: (html) => (html.includes('class="frame-function"') ? undefined : 'no stack trace'),
      },
    ];

    // Every page's scripts, as served, against what the manifest says for its route.
    const jsCheck: string[] = [];
    const routeOf: Record<string, string> = {
      issues: 'routes/_app.projects.$projectId.issues._index',
      'issue-big': 'routes/_app.projects.$projectId.issues.$issueId',
    };

    const times = new Map<string, number[]>(targets.map((t) => [t.name, []]));
    const windows: Array<{ target: string; start: number; end: number }> = [];
    // CPU per target: the server process's and its PostgreSQL backends' counters read around
    // every measured request (10 ms ticks: exact only summed over many requests). Nothing else
    // runs in the server meanwhile (no worker role), so what moves belongs to the request.
    const cpu = new Map(targets.map((t) => [t.name, { node: 0, pg: 0 }]));
    let backends: number[] = [];
    const pgCpu = () => backends.reduce((n, pid) => n + (processCpuMs(pid) ?? 0), 0);
    for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
      if (round === WARMUP_ROUNDS) {
        // The server's pool is warm by now: its connections to this database, not ours.
        const rows: Array<{ pid: number }> = await db.ds.query(
          'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
        );
        backends = rows.map((r) => r.pid);
      }
      for (let k = 0; k < targets.length; k++) {
        const target = targets[(round + k) % targets.length];
        const nodeBefore = processCpuMs(server.pid) ?? 0;
        const pgBefore = pgCpu();
        const startEpoch = performance.timeOrigin + performance.now();
        const t0 = performance.now();
        const res = await target.request();
        const body = await res.text();
        const ms = performance.now() - t0;
        if (res.status !== 200) throw new Error(`${target.name} answered ${res.status}: ${body.slice(0, 200)}`);
        if (round === 0) {
          const problem = target.check?.(body);
          if (problem) throw new Error(`${target.name}: ${problem}`);
          const routeId = routeOf[target.name];
          if (routeId) {
            const fromManifest = js.routes.find((r) => r.routeId === routeId)!.files;
            const served = scriptsInHtml(body);
            const same = served.length === fromManifest.length && served.every((f) => fromManifest.includes(f));
            jsCheck.push(`${target.name}: ${same ? 'same' : `DIFFERENT (served ${served.join(', ')})`}`);
          }
        }
        if (round >= WARMUP_ROUNDS) {
          const c = cpu.get(target.name)!;
          c.node += (processCpuMs(server.pid) ?? 0) - nodeBefore;
          c.pg += pgCpu() - pgBefore;
          times.get(target.name)!.push(ms);
          windows.push({ target: target.name, start: startEpoch, end: startEpoch + ms });
        }
      }
    }
    const loadAtEnd = uptimeLoad();
    console.log(`scripts served against the manifest: ${jsCheck.join('; ')}`);

    const graphql = assignTimings(await collectTimings(server), windows);
    const stats = new Map(targets.map((t) => [t.name, summarize(times.get(t.name)!)]));
    const login95 = stats.get('login')!.p95;
    const pages = targets.filter((t) => t.kind === 'page');
    const met = pages.every((t) => stats.get(t.name)!.p95 < TARGET_P95_MS);
    const cpuPer = (name: string) => {
      const c = cpu.get(name)!;
      return { node: c.node / ROUNDS, pg: c.pg / ROUNDS };
    };
    for (const t of targets) {
      const s = stats.get(t.name)!;
      const c = cpuPer(t.name);
      console.log(
        `${t.name}: p50 ${s.p50.toFixed(1)} ms, p95 ${s.p95.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms, max ${s.max.toFixed(1)} ms; CPU per request: server ${c.node.toFixed(1)} ms, PostgreSQL ${c.pg.toFixed(1)} ms`,
      );
    }
    console.log(
      `target p95 < ${TARGET_P95_MS} ms for every page: ${met ? 'MET' : 'MISSED'}; load average ${loadAtEnd}`,
    );
    for (const t of pages) console.log(`  ${t.name}: ${breakdownLine(graphql.get(t.name))}`);

    if (!envFlag('BENCH_NO_DOC')) {
      const ms = (n: number) => n.toFixed(1);
      const busy = Math.max(parseFloat(loadAtStart), parseFloat(loadAtEnd));
      writeDocSection(
        'dashboard-render',
        `## Dashboard server render time and JavaScript per page (\`server/bench/dashboard-render.bench.ts\`)

- **Date**: ${started.toISOString()}
- **Machine**: ${machineLine(machine)}; PostgreSQL ${seeded.serverVersion}; load averages (1, 5, 15 min, as \`uptime\` prints them) ${loadAtStart} at the start of the bench, ${loadAtEnd} at the end of the timed rounds${busy > machine.nproc ? ' (**other work was competing for the cores**)' : ''}
- **Command**: \`npm run bench:dashboard -w @tracker/server\` (also run by \`npm run bench\` at the root), i.e. (in \`server/\`) \`TSX_TSCONFIG_PATH=../tsconfig.json node --conditions=@tracker/source --import tsx bench/dashboard-render.bench.ts\`
- **Data**: a fresh PostgreSQL database, ${fmt(seeded.events)} events over ${fmt(seeded.issues)} issues of one project (${seeded.tableSize} for \`events\` with its indexes), seeded in ${seedSeconds.toFixed(0)} s by \`seedIssues\` (\`core/src/testing/seed-issues.ts\`, shared with the issues API bench): issue \`bench-0\` has ${fmt(BIG_ISSUE_EVENTS)} events, the others share the rest; 30 days, 5 releases, 2 environments, a fifth of the issues resolved; then \`VACUUM ANALYZE\`.
- **Server**: a real Tracker, \`server/src/main.ts --roles api,web\` (PostgreSQL mode, no Redis, \`NODE_ENV=production\`, the per-token GraphQL rate limit off) in a forked child process; the dashboard's loaders call its GraphQL endpoint over loopback, as in the one-process deployment. No ingest or worker role: nothing is written while it is measured.
- **Client**: this process, one request at a time (Node's fetch, keep-alive), each full answer read; signed in with the session cookie the login form sets. ${WARMUP_ROUNDS} warm-up rounds, then ${ROUNDS} measured rounds of every target, in rotating order. Each page's first answer is checked (25 rows on the list, the issue's title or a stack trace on the issue page).
- **Targets**: p95 under ${TARGET_P95_MS} ms on the issues page and the issue page: **${met ? 'met' : 'missed'}**; under ${fmt(TARGET_JS_GZIP_BYTES)} B (150 KB) of gzip JavaScript on any page: **${jsMet ? 'met' : 'missed'}** (largest ${fmt(largestJs.gzipBytes)} B).

${table(
  [
    'request',
    'p50 ms',
    'p95 ms',
    'p99 ms',
    'max ms',
    'p95 / `/login`',
    'CPU ms / request: server',
    'CPU ms / request: PostgreSQL',
  ],
  targets.map((t) => {
    const s = stats.get(t.name)!;
    const c = cpuPer(t.name);
    const label = t.kind === 'page' ? `**${t.what}**` : `baseline: ${t.what}`;
    return [label, ms(s.p50), ms(s.p95), ms(s.p99), ms(s.max), (s.p95 / login95).toFixed(1), ms(c.node), ms(c.pg)];
  }),
)}

CPU columns: user + system time of the server process and of its PostgreSQL backends (\`/proc\`), read before and after every measured request and summed per target, divided by the ${ROUNDS} requests (the counters tick every 10 ms, so only the sums are meaningful). Unlike the latencies they do not count waiting for a core, so they move least when other work shares the machine. The client's own time is in neither.

Where a page's time goes: the GraphQL requests its loaders sent, timed in the server from the call to the answer's headers (\`server/bench/graphql-timing.preload.ts\`; the route loaders run in parallel, so the requests overlap), median and p95 over the measured requests; "GraphQL span" is first call to last answer per page request, "rest" is the page's time outside it (session cookie, routing, reading and parsing the answers, React render, sending the HTML, the client reading it).

${table(
  ['page', 'GraphQL requests: median / p95 ms each', 'GraphQL span p50 / p95 ms', 'rest p50 / p95 ms'],
  pages.map((t) => {
    const b = graphql.get(t.name);
    if (!b) return [t.name, '—', '—', '—'];
    const ops = [...b.ops.entries()].map(([op, v]) => {
      const s = summarize(v);
      return `${op} ${ms(s.p50)} / ${ms(s.p95)}`;
    });
    const span = summarize(b.span);
    const rest = summarize(b.rest);
    return [t.name, ops.join('; '), `${ms(span.p50)} / ${ms(span.p95)}`, `${ms(rest.p50)} / ${ms(rest.p95)}`];
  }),
)}

**JavaScript per page** (gzip, each file compressed on its own at zlib's default level, then summed), from the build's manifest (\`web/build/server/index.js\`, \`assets\`): the entry client and its imports, and for every matched route from \`root\` down, its module and imports, as Remix's \`<Scripts>\` writes them (lazy route discovery is on, so the route manifest is inlined in the HTML, not a script). For the issues page and the issue page, the scripts the served HTML references were compared with that list: ${jsCheck.join('; ')}.

${table(
  ['page route', 'files', 'gzip bytes', 'raw bytes'],
  pagesJs.map((r) => [`\`${r.routeId}\``, r.files.length, fmt(r.gzipBytes), fmt(r.rawBytes)]),
)}`,
      );
    }
    if (STRICT && !(met && jsMet)) process.exitCode = 1;
  } finally {
    await cleanup();
  }
}

let cleanup: () => Promise<void> = async () => {};
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    // Whatever happens, do not linger: cleanup gets 20 s.
    setTimeout(() => process.exit(130), 20_000).unref();
    void cleanup().finally(() => process.exit(130));
  });
}

/** The newest V8 profile in `dir` (the server writes it when it exits), summarized. */
function printProfile(dir: string): void {
  const newest = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .sort()
    .at(-1);
  if (!newest) return console.log(`no .cpuprofile in ${dir}`);
  console.log(`CPU profile of the server (warm-up, measured rounds and the rest): ${join(dir, newest)}`);
  for (const line of summarizeCpuProfile(JSON.parse(readFileSync(join(dir, newest), 'utf8')))) console.log(line);
}

interface Breakdown {
  ops: Map<string, number[]>;
  span: number[];
  rest: number[];
}

/** Each timed GraphQL request goes to the page request whose window holds its start. */
function assignTimings(
  timings: GraphQLTiming[],
  windows: Array<{ target: string; start: number; end: number }>,
): Map<string, Breakdown> {
  const sorted = [...timings].sort((a, b) => a[1] - b[1]);
  const out = new Map<string, Breakdown>();
  let i = 0;
  for (const w of windows) {
    while (i < sorted.length && sorted[i][1] < w.start) i++;
    const mine: GraphQLTiming[] = [];
    while (i < sorted.length && sorted[i][1] <= w.end) mine.push(sorted[i++]);
    if (mine.length === 0) continue;
    const b: Breakdown = out.get(w.target) ?? { ops: new Map(), span: [], rest: [] };
    out.set(w.target, b);
    for (const [op, , ms] of mine) b.ops.set(op, [...(b.ops.get(op) ?? []), ms]);
    const first = Math.min(...mine.map((t) => t[1]));
    const last = Math.max(...mine.map((t) => t[1] + t[2]));
    b.span.push(last - first);
    b.rest.push(w.end - w.start - (last - first));
  }
  return out;
}

function breakdownLine(b: Breakdown | undefined): string {
  if (!b) return 'no GraphQL requests recorded';
  const ops = [...b.ops.entries()].map(
    ([op, v]) => `${op} p50 ${summarize(v).p50.toFixed(1)} p95 ${summarize(v).p95.toFixed(1)}`,
  );
  return `${ops.join(', ')}; GraphQL span p50 ${summarize(b.span).p50.toFixed(1)}, rest p50 ${summarize(b.rest).p50.toFixed(1)} ms`;
}

function collectTimings(server: ChildProcess): Promise<GraphQLTiming[]> {
  return new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error('the server did not send its GraphQL timings')), 10_000);
    server.once('message', (message: any) => {
      clearTimeout(timer);
      done(message.graphqlTimings);
    });
    server.send('graphql-timings');
  });
}

async function gqlData(
  base: string,
  token: string | null,
  query: string,
  variables: Record<string, unknown>,
): Promise<any> {
  const res = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { data?: any; errors?: unknown };
  if (body.errors) throw new Error(`GraphQL: ${JSON.stringify(body.errors)}`);
  return body.data;
}

async function sessionToken(base: string, email: string): Promise<string> {
  const data = await gqlData(
    base,
    null,
    'mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }',
    { e: email, p: PASSWORD },
  );
  return data.login.token;
}

interface IssueSummary {
  id: string;
  title: string;
  eventCount: number;
}

/** The issue with the most events (every fifth issue is resolved, the big one among them). */
async function biggestIssue(base: string, token: string, projectId: string): Promise<IssueSummary> {
  const data = await gqlData(
    base,
    token,
    'query($p: ID!) { issues(projectId: $p, first: 1, sort: EVENTS, status: RESOLVED) { nodes { id title eventCount } } }',
    { p: projectId },
  );
  return data.issues.nodes[0];
}

async function firstIssues(base: string, token: string, projectId: string): Promise<IssueSummary[]> {
  const data = await gqlData(
    base,
    token,
    'query($p: ID!) { issues(projectId: $p, first: 25) { nodes { id title eventCount } } }',
    {
      p: projectId,
    },
  );
  return data.issues.nodes;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
