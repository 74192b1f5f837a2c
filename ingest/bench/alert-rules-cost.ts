/**
 * What alert-rule evaluation costs the worker (issue 20): the same 20,000 generated error jobs
 * (200 issues, 5,000 users) persisted in 500-event batches (`persistBatch`, the worker's
 * transaction) into a project without rules and into one with four rules (NEW_ISSUE,
 * ISSUE_FREQUENCY, USERS_AFFECTED, ERROR_SPIKE: state upserts and window buckets every batch),
 * alternating batch by batch so both see the same load. Prints ms per batch, median of each.
 * Run: TSX_TSCONFIG_PATH=../tsconfig.json node --conditions=@tracker/source --import tsx bench/alert-rules-cost.ts
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { createAlertRule, createProject, loadConfig, openDatabase, sessionCaller, signUp } from '@tracker/core';
import { createTestPostgres, createTempDir, loadAverage } from '@tracker/core/testing';
import { generateJobs } from './worker-data';
import { emptyBatch, persistBatch, prepareJobs } from '../src/worker/process-batch';

const EVENTS = 20_000;
const BATCH = 500;

async function main() {
  const pg = await createTestPostgres();
  const dir = createTempDir();
  const db = await openDatabase(loadConfig({ TRACKER_DATA_DIR: dir.path, DATABASE_URL: pg.url }), { migrate: true });
  try {
    const s = await signUp(
      db.ds,
      { email: `${randomUUID()}@example.com`, password: 'correct horse battery', organizationName: 'Bench' },
      'pro',
    );
    const plain = (await createProject(db.ds, s.user.id, s.organization.id, 'plain')).project;
    const ruled = (await createProject(db.ds, s.user.id, s.organization.id, 'ruled')).project;
    const caller = sessionCaller(s.user.id);
    const channel = { type: 'WEBHOOK' as const, url: 'https://hooks.example.com/x' };
    for (const [kind, extra] of [
      ['NEW_ISSUE', {}],
      ['ISSUE_FREQUENCY', { threshold: 100, windowMinutes: 60 }],
      ['USERS_AFFECTED', { threshold: 100, windowMinutes: 60 }],
      ['ERROR_SPIKE', { threshold: 1000, windowMinutes: 5 }],
    ] as const) {
      await createAlertRule(db.ds, caller, { projectId: ruled.id, kind, channel, allowPrivateTargets: false, ...extra });
    }
    const jobs = { plain: generateJobs(plain.id, { events: EVENTS, issues: 200, users: 5_000 }).payloads };
    const ruledJobs = generateJobs(ruled.id, { events: EVENTS, issues: 200, users: 5_000 }).payloads;
    const times: Record<'plain' | 'ruled', number[]> = { plain: [], ruled: [] };
    for (let i = 0; i < EVENTS; i += BATCH) {
      for (const [name, payloads] of [
        ['plain', jobs.plain],
        ['ruled', ruledJobs],
      ] as const) {
        const batch = emptyBatch();
        prepareJobs(batch, payloads.slice(i, i + BATCH));
        const t0 = performance.now();
        await persistBatch(db.ds, batch, { publicUrl: 'https://tracker.example.com' });
        times[name].push(performance.now() - t0);
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const [deliveries] = await db.ds.query(`SELECT count(*)::int AS n FROM alert_deliveries WHERE project_id = $1`, [
      ruled.id,
    ]);
    console.log(
      `batches of ${BATCH}: no rules ${median(times.plain).toFixed(1)} ms, 4 rules ${median(times.ruled).toFixed(1)} ms ` +
        `(median of ${times.plain.length}); ${deliveries.n} deliveries written; load ${loadAverage()}`,
    );
  } finally {
    await db.close();
    await pg.drop();
    dir.remove();
  }
}

void main();
