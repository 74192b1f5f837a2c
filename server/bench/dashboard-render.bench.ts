/**
 * Server render time of the dashboard's issues page and issue page: sequential GETs of the full
 * HTML document (loader → GraphQL over loopback → React render), measured from the client side
 * with a signed-in cookie, against Tracker in PostgreSQL + Redis mode with every role in this
 * process.
 *
 * The data set is seeded through the ingest edge and the worker, so it is small by default
 * (TRACKER_BENCH_EVENTS, default 2,000 events over 50 issues). The issue's target (p95 under
 * 150 ms) is stated for 1,000,000 events; seeding that through HTTP is too slow for this bench,
 * so this measures the render path, not behaviour at that size.
 *
 * Run: `npm run bench:dashboard -w @tracker/server`.
 * Env: TRACKER_BENCH_EVENTS (default 2000), TRACKER_BENCH_REQUESTS (per page, default 300).
 */
import { performance } from 'node:perf_hooks';
import { createTestEnv, gqlOk, sendError, signUpWithProject, startTracker, waitFor } from '../test/helpers';

const EVENTS = Number(process.env.TRACKER_BENCH_EVENTS ?? 2000);
const REQUESTS = Number(process.env.TRACKER_BENCH_REQUESTS ?? 300);
const ISSUES = 50;
const SEND_CONCURRENCY = 20;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function main() {
  const env = await createTestEnv('postgres+redis');
  const tracker = await startTracker(env, { roles: ['ingest', 'worker', 'api', 'web'] });
  try {
    const url = tracker.url;
    const account = await signUpWithProject(url, 'Bench');
    let next = 0;
    const sendOne = async () => {
      for (let i = next++; i < EVENTS; i = next++) {
        const n = i % ISSUES;
        const stack = `Error: failure ${n}\n    at handler${n} (https://app.example.com/static/js/main.js:${n + 1}:17)\n    at run (https://app.example.com/static/js/main.js:900:5)`;
        const r = await sendError(url, account.key, {
          type: 'Error',
          message: `failure ${n}`,
          environment: 'production',
          stack,
          user: { id: `u${i % 97}` },
        });
        if (r.status !== 202) throw new Error(`ingest answered ${r.status}`);
      }
    };
    await Promise.all(Array.from({ length: SEND_CONCURRENCY }, sendOne));
    const issues = await waitFor(
      'the worker to store every event',
      async () => {
        const d = await gqlOk(
          url,
          `query($p: ID!) { issues(projectId: $p, first: 100) { nodes { id eventCount } } }`,
          { p: account.project.id },
          account.token,
        );
        const total = d.issues.nodes.reduce((s: number, i: { eventCount: number }) => s + i.eventCount, 0);
        return total >= EVENTS ? d.issues.nodes : undefined;
      },
      120_000,
    );

    const login = await fetch(`${url}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: account.email, password: 'correct horse battery', redirectTo: '/' }),
      redirect: 'manual',
    });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
    if (!cookie) throw new Error(`login failed: ${login.status}`);

    const pages = {
      'issues page': `/projects/${account.project.id}/issues`,
      'issue page': `/projects/${account.project.id}/issues/${issues[0].id}`,
    };
    console.log(
      `${EVENTS} events in ${issues.length} issues; ${REQUESTS} sequential requests per page after 20 warm-up`,
    );
    for (const [name, path] of Object.entries(pages)) {
      const times: number[] = [];
      for (let i = 0; i < REQUESTS + 20; i++) {
        const start = performance.now();
        const res = await fetch(`${url}${path}`, { headers: { cookie } });
        await res.text();
        if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
        if (i >= 20) times.push(performance.now() - start);
      }
      times.sort((a, b) => a - b);
      console.log(
        `${name}: p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms, max ${times[times.length - 1].toFixed(1)} ms`,
      );
    }
  } finally {
    await tracker.close();
    await env.cleanup();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
