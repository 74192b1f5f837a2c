/**
 * The worker benchmark's data: deterministic error jobs in the worker's real format, over a
 * fixed set of issues and users. Shared by the benches in this folder so they measure the same
 * rows.
 */
import { randomUUID } from 'node:crypto';
import { encodeJob, type ErrorJob } from '@tracker/core';

/** Deterministic, so every run processes the same data (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TYPES = [
  'TypeError',
  'RangeError',
  'Error',
  'ValidationError',
  'QueryFailedError',
  'SyntaxError',
  'ReferenceError',
  'TimeoutError',
];
const VERBS = ['load', 'save', 'update', 'validate', 'render', 'charge', 'sync', 'resolve', 'compute', 'notify'];
const NOUNS = [
  'Order',
  'Invoice',
  'Customer',
  'Cart',
  'Payment',
  'Shipment',
  'Coupon',
  'Product',
  'Review',
  'Session',
  'Account',
  'Refund',
  'Report',
  'Webhook',
  'Address',
  'Subscription',
  'Inventory',
  'Price',
  'Tax',
  'Upload',
];

interface IssueTemplate {
  type: string;
  message: (r: () => number) => string;
  stack: string;
  route: string;
}

/** 200 issues: each its own innermost in-app function (verb × noun), so 200 grouping keys. */
function issueTemplates(issues: number): IssueTemplate[] {
  const out: IssueTemplate[] = [];
  for (let i = 0; i < issues; i++) {
    const verb = VERBS[i % VERBS.length];
    const noun = NOUNS[Math.floor(i / VERBS.length) % NOUNS.length];
    const file = `/srv/app/dist/services/${noun.toLowerCase()}-service.js`;
    const type = TYPES[i % TYPES.length];
    const route = `/api/${noun.toLowerCase()}s/:id`;
    const stack = [
      `${type}: placeholder`,
      `    at ${verb}${noun} (${file}:${40 + (i % 300)}:${11 + (i % 40)})`,
      `    at ${noun}Service.${verb} (${file}:${120 + (i % 90)}:23)`,
      `    at async ${noun}Controller.handle (/srv/app/dist/controllers/${noun.toLowerCase()}-controller.js:58:20)`,
      `    at async withTransaction (/srv/app/dist/db/transaction.js:31:12)`,
      `    at Layer.handle [as handle_request] (/srv/app/node_modules/express/lib/router/layer.js:95:5)`,
      `    at next (/srv/app/node_modules/express/lib/router/route.js:149:13)`,
      `    at Route.dispatch (/srv/app/node_modules/express/lib/router/route.js:119:3)`,
      `    at Layer.handle [as handle_request] (/srv/app/node_modules/express/lib/router/layer.js:95:5)`,
      `    at /srv/app/node_modules/express/lib/router/index.js:284:15`,
      `    at Function.process_params (/srv/app/node_modules/express/lib/router/index.js:346:12)`,
      `    at next (/srv/app/node_modules/express/lib/router/index.js:280:10)`,
      `    at authenticate (/srv/app/dist/middleware/auth.js:44:5)`,
      `    at Layer.handle [as handle_request] (/srv/app/node_modules/express/lib/router/layer.js:95:5)`,
      `    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)`,
    ].join('\n');
    out.push({
      type,
      route,
      stack,
      message: (r) =>
        i % 2 === 0
          ? `Cannot read properties of undefined (reading '${noun.toLowerCase()}Id') for ${noun.toLowerCase()} ${Math.floor(r() * 1e6)}`
          : `${verb} ${noun.toLowerCase()} failed: upstream answered ${[500, 502, 503, 504][Math.floor(r() * 4)]} after ${Math.floor(r() * 3000)} ms`,
    });
  }
  return out;
}

export interface Generated {
  payloads: string[];
  /** Distinct (issue, user) pairs, i.e. the expected sum of issues.user_count. */
  expectedUserPairs: number;
  avgBytes: number;
}

export function generateJobs(
  projectId: string,
  { events: EVENTS, issues: ISSUES, users: USERS }: { events: number; issues: number; users: number },
): Generated {
  const r = rng(42);
  const templates = issueTemplates(ISSUES);
  const start = Date.now() - 3_600_000;
  const receivedAt = new Date().toISOString();
  const pairs = new Set<string>();
  const payloads: string[] = [];
  let bytes = 0;
  for (let n = 0; n < EVENTS; n++) {
    // Every issue gets events (the first 200 go round-robin), then uniformly at random.
    const issue = n < ISSUES ? n : Math.floor(r() * ISSUES);
    const t = templates[issue];
    const u = Math.floor(r() * USERS);
    const who = r();
    // 90 % of events name a user by id, 5 % by email only, 5 % no user.
    const user: ErrorJob['event']['user'] =
      who < 0.9
        ? { id: `u${u}`, email: `user${u}@example.com`, username: `user${u}`, ip_address: `10.${u % 250}.${n % 250}.7` }
        : who < 0.95
          ? { id: undefined, email: `User${u}@Example.com` }
          : undefined;
    if (user) pairs.add(`${issue}|${user.id ? `id:${user.id}` : `email:${user.email!.toLowerCase()}`}`);
    const message = t.message(r);
    const job: ErrorJob = {
      v: 1,
      kind: 'error',
      projectId,
      receivedAt,
      event: {
        eventId: randomUUID(),
        message,
        type: t.type,
        environment: r() < 0.8 ? 'production' : 'staging',
        level: 'error',
        release: `api@1.${42 + Math.floor(r() * 3)}.0`,
        stack: t.stack.replace('placeholder', message),
        handled: r() < 0.3,
        url: `https://api.example.com${t.route.replace(':id', String(Math.floor(r() * 1e5)))}`,
        timestamp: new Date(start + Math.floor((n / EVENTS) * 3_500_000)).toISOString(),
        tags: {
          runtime: 'node 20.18.1',
          region: ['eu-west-1', 'us-east-1', 'ap-south-1'][n % 3],
          route: t.route,
          pod: `api-7d9f${n % 12}`,
          plan: ['free', 'pro', 'business'][u % 3],
        },
        user,
        context: {
          request: {
            method: n % 4 === 0 ? 'GET' : 'POST',
            route: t.route,
            query: { expand: 'items' },
            headers: { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36' },
          },
          runtime: { name: 'node', version: '20.18.1' },
          os: { name: 'Linux', version: '6.1' },
          app: { memoryMb: 180 + (n % 90), uptimeS: 3600 + n },
        },
        sdk: { name: '@tracker/node', version: '0.1.0' },
        fingerprint: undefined,
        breadcrumbs: undefined,
        causes: undefined,
        contextLines: undefined,
        request: undefined,
      },
    };
    const payload = encodeJob(job);
    bytes += Buffer.byteLength(payload);
    payloads.push(payload);
  }
  return { payloads, expectedUserPairs: pairs.size, avgBytes: bytes / EVENTS };
}
