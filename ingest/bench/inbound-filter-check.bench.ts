/**
 * What the edge's inbound filters cost per `/ingest/error` request (issue 31, decision 055): the
 * route's own `prepareErrorJob` on a realistic 2 KB browser event (15-frame V8 stack, a Chrome
 * User-Agent) for a DSN key of a project without filters (the common case: one property test),
 * with every filter on and none matching (globs, a stack scan, the URL, the User-Agent, whose
 * parse is cached), and with every filter on and the message glob matching. CPU time of this
 * process, the three alternated over rounds so drift of a shared machine does not favour one.
 *
 * Run: `npm run bench:filters -w @tracker/ingest`. Env: TRACKER_BENCH_ITERATIONS (default 20000).
 */
import { randomUUID } from 'node:crypto';
import { compileInboundFilters, inboundFilterSettingsOf, type KeyInfo } from '@tracker/core';
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
  url: 'https://shop.example.com/checkout',
  tags: { 'browser.name': 'Chrome' },
  user: { id: 'u-1' },
  context: {
    userAgent:
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  },
};
const text = JSON.stringify(body);
const bytes = Buffer.from(text);

const allOn = {
  browserExtensions: true,
  localhost: true,
  legacyBrowsers: true,
  webCrawlers: true,
  errorMessages: ['*ResizeObserver loop*', 'Script error.', '*Non-Error promise rejection*'],
  releases: ['*-dev', 'staging@*'],
};
const base: KeyInfo = {
  keyId: randomUUID(),
  projectId: randomUUID(),
  projectNumber: 1,
  organizationId: randomUUID(),
  rateLimitPerSecond: null,
};
const keys: Record<string, KeyInfo> = {
  'no filters': base,
  'all on, no match': { ...base, inboundFilters: compileInboundFilters(inboundFilterSettingsOf(allOn)) },
  'all on, message match': {
    ...base,
    inboundFilters: compileInboundFilters(inboundFilterSettingsOf({ ...allOn, errorMessages: ['*unitPrice*'] })),
  },
};
const expected: Record<string, string | undefined> = {
  'no filters': undefined,
  'all on, no match': undefined,
  'all on, message match': 'error_messages',
};

function run(name: string): number {
  const key = keys[name];
  const start = process.cpuUsage();
  let wrong = 0;
  for (let i = 0; i < ITERATIONS; i++) {
    // A fresh parse each time, as the edge gets it (prepareErrorJob adds the eventId to the object).
    const r = prepareErrorJob(key, JSON.parse(text), text, new Date().toISOString(), bytes);
    if (r.filtered !== expected[name]) wrong += 1;
  }
  const used = process.cpuUsage(start);
  if (wrong > 0) throw new Error(`${name}: the check answered wrongly ${wrong} times`);
  return (used.user + used.system) / ITERATIONS;
}

const results: Record<string, number[]> = Object.fromEntries(Object.keys(keys).map((k) => [k, []]));
for (const name of Object.keys(keys)) run(name); // warm-up (JIT)
const loadBefore = loadAverage();
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? Object.keys(keys) : Object.keys(keys).reverse();
  for (const name of order) results[name].push(run(name));
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`inbound-filter-check: ${ITERATIONS} × ${ROUNDS} rounds; load average ${loadBefore} → ${loadAverage()}`);
for (const name of Object.keys(keys)) {
  console.log(
    `${name.padEnd(22)} ${median(results[name]).toFixed(1)} µs CPU per request (median; rounds ${results[name].map((x) => x.toFixed(1)).join(', ')})`,
  );
}
