/**
 * What the edge's discard check costs per `/ingest/error` request (decision 023): the route's own
 * `prepareErrorJob` on a realistic 2 KB event (15-frame V8 stack) for a DSN key of a project
 * without discards (the common case: one property check), with discards that do not match (a
 * stack parse and a SHA-256 per request), and with a matching one. CPU time of this process, the
 * three alternated over rounds so drift of a shared machine does not favour one.
 *
 * Run: `npm run bench:discard -w @tracker/ingest`. Env: TRACKER_BENCH_ITERATIONS (default 20000).
 */
import { randomUUID } from 'node:crypto';
import { computeGroupingKey, parseStack, type KeyInfo } from '@tracker/core';
import { loadAverage } from '@tracker/core/testing';
import { prepareErrorJob } from '../src/http/error.route';

const ITERATIONS = Number(process.env.TRACKER_BENCH_ITERATIONS ?? 20_000);
const ROUNDS = 5;

const bundle = 'https://shop.example.com/assets';
const stack = [
  "TypeError: Cannot read properties of undefined (reading 'unitPrice')",
  ...Array.from({ length: 15 }, (_, i) => `    at fn${i} (${bundle}/checkout-5c1f2a9e.js:1:${48213 + i * 97})`),
].join('\n');
const body = {
  message: "Cannot read properties of undefined (reading 'unitPrice')",
  type: 'TypeError',
  environment: 'production',
  release: 'shop-web@2024.11.3',
  stack,
  tags: { 'browser.name': 'Chrome' },
  user: { id: 'u-1' },
};
const text = JSON.stringify(body);
const bytes = Buffer.from(text);
const ownKey = computeGroupingKey({ type: body.type, message: body.message, frames: parseStack(stack) });

const base: KeyInfo = {
  keyId: randomUUID(),
  projectId: randomUUID(),
  projectNumber: 1,
  organizationId: randomUUID(),
  rateLimitPerSecond: null,
};
const keys: Record<string, KeyInfo> = {
  'no discards': base,
  'discards, no match': { ...base, discardKeys: new Set(Array.from({ length: 50 }, () => randomUUID())) },
  'discards, match': { ...base, discardKeys: new Set([ownKey]) },
};

function run(key: KeyInfo): number {
  const start = process.cpuUsage();
  let dropped = 0;
  for (let i = 0; i < ITERATIONS; i++) {
    // A fresh parse each time, as the edge gets it (prepareErrorJob adds the eventId to the object).
    const r = prepareErrorJob(key, JSON.parse(text), text, new Date().toISOString(), bytes);
    if (r.discarded) dropped += 1;
  }
  const used = process.cpuUsage(start);
  if (dropped !== (key.discardKeys?.has(ownKey) ? ITERATIONS : 0)) throw new Error('the check answered wrongly');
  return (used.user + used.system) / ITERATIONS;
}

const results: Record<string, number[]> = Object.fromEntries(Object.keys(keys).map((k) => [k, []]));
for (const name of Object.keys(keys)) run(keys[name]); // warm-up (JIT)
const loadBefore = loadAverage();
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? Object.keys(keys) : Object.keys(keys).reverse();
  for (const name of order) results[name].push(run(keys[name]));
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`discard-check: ${ITERATIONS} × ${ROUNDS} rounds; load average ${loadBefore} → ${loadAverage()}`);
for (const name of Object.keys(keys)) {
  console.log(
    `${name.padEnd(20)} ${median(results[name]).toFixed(1)} µs CPU per request (median; rounds ${results[name].map((x) => x.toFixed(1)).join(', ')})`,
  );
}
