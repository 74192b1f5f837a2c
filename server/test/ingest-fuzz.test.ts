import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MODES } from './helpers';
import {
  deadLetterLines,
  problemLines,
  runIngestFuzz,
  startFuzzTarget,
  summaryLine,
  type FuzzTarget,
} from './ingest-fuzz';

/**
 * Issue 15 §2: hand-picked bodies found a NUL, a lone surrogate, the year 0000 and a 20,000-deep
 * context that were answered 202 and then lost. This generates a few thousand seeded random and
 * adversarial bodies per runtime for all six ingest endpoints, through the fast path and
 * fastify's route, and checks the edge's promise on each: never a 5xx, and every 202 ends as a
 * stored row or a dead letter with a reason. `npm run fuzz -w @tracker/server` runs more cases.
 * FUZZ_SEED replays a run; FUZZ_CASES changes its size.
 */
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : 20_150_215;
const CASES = process.env.FUZZ_CASES ? Number(process.env.FUZZ_CASES) : 2_500;

for (const mode of MODES) {
  describe(`ingest fuzz (${mode})`, () => {
    let target: FuzzTarget;
    before(async () => {
      target = await startFuzzTarget(mode);
    });
    after(async () => {
      await target?.close();
    });

    test(
      `${CASES} random and adversarial bodies (seed ${SEED}): no 5xx, every 202 stored or dead-lettered with a reason`,
      { timeout: 180_000 },
      async () => {
        const report = await runIngestFuzz(target, { seed: SEED, cases: CASES, concurrency: 16, settleMs: 60_000 });
        console.log(summaryLine(report));
        for (const line of [...deadLetterLines(report), ...problemLines(report)]) console.log(line);
        if (process.env.FUZZ_REASONS) console.log([...report.reasons].sort((a, b) => b[1] - a[1]).slice(0, 40));

        assert.deepEqual(
          report.failures.map((f) => `${f.endpoint} ${f.status}: ${f.response.slice(0, 200)}`),
          [],
          'no 5xx (bodies above)',
        );
        assert.deepEqual(
          report.lost.map((l) => `${l.endpoint}:${l.id}`),
          [],
          'no accepted item lost (bodies above)',
        );
        assert.deepEqual(report.deadWithoutReason, [], 'every dead letter has a reason');
        assert.equal(report.sent, CASES, 'every case was sent');
        // The run means something only if it reached the worker, the upload routes and both paths of /ingest/error.
        assert.ok(report.accepted > CASES / 5, `only ${report.accepted} of ${CASES} accepted`);
        assert.ok(report.written > 0, 'some releases and source maps were written');
        assert.ok(report.fastPathTaken > 0, 'the fast path answered some');
        assert.ok((report.refused.get(400) ?? 0) > 0, 'some bodies were refused');
      },
    );
  });
}
