/**
 * Issue 28, part 2, as the report measured it: while one client sends GraphQL documents that
 * used to hold the event loop in validation (`viewer{organizations{id}}` 2,200 times, 57 KB),
 * ingest in the same process keeps answering. Before the change 38 such requests took an ingest
 * request from 14 ms to 8.7 s (embedded). Both runtimes, every role in one process.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Tracker } from '../src';
import { createTestEnv, MODES, sendError, signUpWithProject, startTracker, type TestEnv } from './helpers';

const REPORTED = `{${'viewer{organizations{id}} '.repeat(2_200)}}`;

for (const mode of MODES) {
  describe(`ingest keeps answering while hostile GraphQL documents arrive (${mode})`, () => {
    let env: TestEnv;
    let tracker: Tracker;

    before(async () => {
      env = await createTestEnv(mode);
      tracker = await startTracker(env);
    });
    after(async () => {
      await tracker?.close();
      await env?.cleanup();
    });

    test('38 of the reported document at once: each a 400, and an error sent meanwhile is accepted at once', async () => {
      const { key } = await signUpWithProject(tracker.url);
      await sendError(tracker.url, key, { type: 'Warm', message: 'up', environment: 'production' });
      const latencies: number[] = [];
      const cpuPerRequest: number[] = [];
      const answers: Array<{ status: number; body: any }> = [];
      // The least of three rounds: the documents cost their time in every round, while this
      // shared machine descheduling the process is chance.
      const control: number[] = [];
      for (let round = 0; round < 3; round++) {
        // The same request alone first: what ingest takes on this machine now, for the log.
        const alone = performance.now();
        await sendError(tracker.url, key, { type: 'C', message: `control ${round}`, environment: 'production' });
        control.push(performance.now() - alone);
        const cpu = process.cpuUsage();
        const attacks = Array.from({ length: 38 }, () =>
          fetch(`${tracker.url}/graphql`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ query: REPORTED }),
          }).then(async (r) => ({ status: r.status, body: (await r.json()) as any })),
        );
        const started = performance.now();
        const accepted = await sendError(tracker.url, key, {
          type: 'E',
          message: `during ${round}`,
          environment: 'production',
        });
        latencies.push(performance.now() - started);
        assert.equal(accepted.status, 202);
        answers.push(...(await Promise.all(attacks)));
        const used = process.cpuUsage(cpu);
        cpuPerRequest.push((used.user + used.system) / 1000 / 39);
      }
      const figures = `ingest answered in ${latencies.map((l) => l.toFixed(0)).join(', ')} ms (alone: ${control.map((l) => l.toFixed(0)).join(', ')} ms); CPU per request (client and server, this process) ${cpuPerRequest.map((c) => c.toFixed(1)).join(', ')} ms`;
      console.log(`${mode}: ${figures}`);
      // Wall time on a loaded 2-core machine is generous here (before the change: 11.6–26 s);
      // CPU, which descheduling does not inflate, is held tight (before: ~500 ms a request).
      assert.ok(Math.min(...latencies) < 1_000, figures);
      assert.ok(Math.min(...cpuPerRequest) < 10, figures);
      for (const a of answers) {
        assert.equal(a.status, 400);
        assert.equal(a.body.errors[0].extensions.code, 'BAD_USER_INPUT');
      }
    });
  });
}
