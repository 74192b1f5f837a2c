/**
 * The ingest fuzzer's long run: the generator and checks of `test/ingest-fuzz.test.ts` with more
 * cases. For each runtime it starts a tracker (its own database, Redis prefix and data folder,
 * removed at the end), sends FUZZ_CASES seeded random and adversarial bodies to the six ingest
 * endpoints, waits for every accepted item to be stored or dead-lettered, and prints
 *
 *   fuzz <mode>: N sent, A accepted (S stored, D dead-lettered, L lost), … R refused (by status)
 *
 * then every 5xx (with the body, shrunk by fast-check) and every lost item. Exits 1 if any.
 *
 * Run: `npm run fuzz -w @tracker/server`.
 * Env: FUZZ_CASES (per runtime, default 50,000), FUZZ_SEED (default 20150215),
 *      FUZZ_MODES (comma-separated, default `embedded,postgres+redis`), FUZZ_CONCURRENCY (default 16),
 *      FUZZ_SETTLE_SECONDS (how long accepted items may take to land, default 180),
 *      FUZZ_REASONS=1 (also print the commonest refusals).
 */
import { MODES, type Mode } from '../test/helpers';
import { deadLetterLines, problemLines, runIngestFuzz, startFuzzTarget, summaryLine } from '../test/ingest-fuzz';

const cases = Number(process.env.FUZZ_CASES ?? 50_000);
const seed = Number(process.env.FUZZ_SEED ?? 20_150_215);
const concurrency = Number(process.env.FUZZ_CONCURRENCY ?? 16);
const settleMs = Number(process.env.FUZZ_SETTLE_SECONDS ?? 180) * 1000;
const modes = (process.env.FUZZ_MODES?.split(',') ?? MODES) as Mode[];

async function main(): Promise<void> {
  for (const mode of modes) if (!MODES.includes(mode)) throw new Error(`FUZZ_MODES: unknown mode ${mode}`);
  console.log(
    `fuzz: ${cases} cases per runtime, seed ${seed} (FUZZ_SEED=${seed} replays it), concurrency ${concurrency}`,
  );
  let ok = true;
  for (const mode of modes) {
    const target = await startFuzzTarget(mode);
    try {
      const report = await runIngestFuzz(target, { seed, cases, concurrency, settleMs });
      console.log(summaryLine(report));
      if (process.env.FUZZ_REASONS) {
        for (const [reason, n] of [...report.reasons].sort((a, b) => b[1] - a[1]).slice(0, 30)) {
          console.log(`  ${String(n).padStart(6)}  ${reason}`);
        }
      }
      for (const line of deadLetterLines(report)) console.log(line);
      const problems = problemLines(report);
      for (const line of problems) console.log(line);
      if (problems.length > 0) ok = false;
    } finally {
      await target.close();
    }
  }
  process.exitCode = ok ? 0 : 1;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
