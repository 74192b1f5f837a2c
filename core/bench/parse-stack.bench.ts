// Parse speed over every stack in test/fixtures (run: npm run bench:parse -w @tracker/core).
// Two figures: `cold` gives each pass's lines new line numbers, so nothing is served from the
// parser's line cache (a new release, a first sighting); `warm` repeats the same stacks (the
// same error arriving again, the common case in the worker).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseStack } from '../src/stacktrace';

const fixtures = join(__dirname, '..', 'test', 'fixtures');
const files = [
  join(fixtures, 'stacks.json'),
  ...readdirSync(join(fixtures, 'stacks'))
    .filter((n) => n.endsWith('.json'))
    .map((n) => join(fixtures, 'stacks', n)),
];
const stacks: string[] = files.flatMap((file) =>
  (JSON.parse(readFileSync(file, 'utf8')) as { cases: { stack: string }[] }).cases.map((c) => c.stack),
);
const lines = stacks.reduce((sum, stack) => sum + stack.split('\n').length, 0);

const PASSES = 40;
const ROUNDS = 15;
const variants = Array.from({ length: PASSES * ROUNDS }, (_, pass) =>
  stacks.map((stack) => stack.replace(/:(\d+)/g, (_m, d: string) => `:${Number(d) + pass + 1}`)),
);

/** The best of ROUNDS rounds: on a shared, noisy machine the fastest round is the steadiest figure. */
function measure(label: string, stackFor: (pass: number, i: number) => string): void {
  let best = Infinity;
  let frames = 0;
  for (let round = 0; round < ROUNDS; round++) {
    frames = 0;
    const started = process.hrtime.bigint();
    for (let pass = round * PASSES; pass < (round + 1) * PASSES; pass++) {
      for (let i = 0; i < stacks.length; i++) frames += parseStack(stackFor(pass, i)).length;
    }
    best = Math.min(best, Number(process.hrtime.bigint() - started) / 1e6);
  }
  const perStackUs = (best * 1000) / (PASSES * stacks.length);
  const perLineUs = (best * 1000) / (PASSES * lines);
  console.log(
    `${label}: ${perStackUs.toFixed(2)} µs per stack, ${perLineUs.toFixed(2)} µs per line ` +
      `(${stacks.length} stacks, ${lines} lines, ${frames / PASSES} frames; best of ${ROUNDS} rounds)`,
  );
}

// Warm-up so the JIT has settled before either figure.
for (let i = 0; i < 3; i++) for (const variant of variants.slice(0, 20)) variant.forEach((stack) => parseStack(stack));
measure('cold (no cache hits)', (pass, i) => variants[pass][i]);
measure('warm (repeated stacks)', (_pass, i) => stacks[i]);
