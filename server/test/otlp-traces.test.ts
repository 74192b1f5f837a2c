/**
 * OpenTelemetry traces in (issue 34): a span on which OpenTelemetry's SDK recorded an exception
 * (`span.recordException`), exported unchanged by the OTLP/JSON and OTLP/protobuf exporters
 * (gzip on) from child processes, becomes an issue on both runtimes, carrying the trace id,
 * span id, span name, the resource's service, release and environment, and frames parsed from
 * the stack text. Spans without an exception are counted and dropped.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Tracker } from '../src';
import { createTestEnv, gqlOk, MODES, signUpWithProject, startTracker, waitFor, type TestEnv } from './helpers';
import { jsonLogs, postOtlp, runOtlpSender } from './otlp-harness';

const ISSUES = `query($p: ID!) { issues(projectId: $p, first: 10) { totalCount nodes { id title type level } } }`;
const EVENTS = `query($id: ID!) { issue(id: $id) { events(first: 10) { nodes {
  message type level environment release context tags { key value } frames { filename function lineno } } } } }`;

type Project = Awaited<ReturnType<typeof signUpWithProject>>;

async function issueEventsOf(tracker: Tracker, p: Project): Promise<{ issue: any; event: any }> {
  const issue = await waitFor(
    'an issue',
    async () => {
      const d = await gqlOk(tracker.url, ISSUES, { p: p.project.id }, p.token);
      return d.issues.nodes[0];
    },
    30_000,
  );
  const d = await gqlOk(tracker.url, EVENTS, { id: issue.id }, p.token);
  return { issue, event: d.issue.events.nodes[0] };
}

async function spansDropped(tracker: Tracker): Promise<number> {
  const text = await (await fetch(`${tracker.url}/metrics`)).text();
  const line = /^tracker_otlp_spans_dropped_total (\d+)$/m.exec(text);
  assert.ok(line, 'tracker_otlp_spans_dropped_total is exported');
  return Number(line[1]);
}

for (const mode of MODES) {
  describe(`OTLP traces from OpenTelemetry's exporters (${mode})`, () => {
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

    for (const protocol of ['http', 'proto'] as const) {
      test(`an exception recorded on a span is an issue with its trace, service and frames (${protocol})`, async () => {
        const p = await signUpWithProject(tracker.url, protocol);
        const droppedBefore = await spansDropped(tracker);
        const sent = await runOtlpSender('traces', protocol, `${tracker.url}/v1/traces`, { 'x-tracker-key': p.key });
        assert.deepEqual(sent.results, [0], 'the exporter reports success');
        const { issue, event } = await issueEventsOf(tracker, p);
        assert.equal(issue.type, 'TypeError');
        assert.match(issue.title, /card declined/);
        assert.equal(event.message, 'card declined');
        assert.equal(event.environment, 'staging');
        assert.equal(event.release, '1.4.2');
        assert.ok(event.tags.some((t: any) => t.key === 'service' && t.value === 'checkout'));
        assert.equal(event.context.trace_id, sent.traceId);
        assert.equal(event.context.span_id, sent.spanId);
        assert.equal(event.context['span.name'], 'POST /checkout');
        assert.equal(event.context.span['http.route'], '/checkout');
        assert.equal(event.frames[0].function, 'chargeCard');
        assert.match(event.frames[0].filename, /otlp-sender\.cjs$/);
        assert.ok(event.frames[0].lineno > 0);
        const all = await gqlOk(tracker.url, ISSUES, { p: p.project.id }, p.token);
        assert.equal(all.issues.totalCount, 1, 'the span without an exception (GET /health) is dropped');
        assert.equal(await spansDropped(tracker), droppedBefore + 1, 'and counted in /metrics');
      });
    }
  });
}

describe('OTLP traces: odd bodies (embedded)', () => {
  let env: TestEnv;
  let tracker: Tracker;
  before(async () => {
    env = await createTestEnv('embedded');
    tracker = await startTracker(env);
  });
  after(async () => {
    await tracker?.close();
    await env?.cleanup();
  });

  test('a span of the wrong shape is refused alone; a logs body on /v1/traces carries no spans', async () => {
    const p = await signUpWithProject(tracker.url);
    const headers = { 'content-type': 'application/json', 'x-tracker-key': p.key };
    const body = JSON.stringify({
      resourceSpans: [
        {
          resource: { attributes: [{ key: 'service.name', value: { stringValue: 'worker' } }] },
          scopeSpans: [
            {
              spans: [
                { name: 'bad', events: 'not a list' },
                {
                  traceId: '5b8efff798038103d269b633813fc60c',
                  spanId: 'eee19b7ec3c1b174',
                  name: 'job',
                  events: [
                    {
                      name: 'exception',
                      timeUnixNano: '1',
                      attributes: [
                        { key: 'exception.type', value: { stringValue: 'ValueError' } },
                        { key: 'exception.message', value: { stringValue: 'bad input' } },
                      ],
                    },
                  ],
                },
              ],
            },
          ],
        },
      ],
    });
    const res = await postOtlp(`${tracker.url}/v1/traces`, body, headers);
    assert.equal(res.status, 200);
    assert.equal(res.json().partialSuccess.rejectedSpans, '1');
    assert.match(res.json().partialSuccess.errorMessage, /events: must be a list/);
    const { event } = await issueEventsOf(tracker, p);
    assert.equal(event.type, 'ValueError');
    assert.equal(event.context.trace_id, '5b8efff798038103d269b633813fc60c');
    const logsBody = await postOtlp(`${tracker.url}/v1/traces`, jsonLogs([{ body: { stringValue: 'x' } }]), headers);
    assert.equal(logsBody.status, 200);
    assert.deepEqual(logsBody.json(), {});
  });
});

describe('OTLP traces: stack text of other runtimes (embedded)', () => {
  let env: TestEnv;
  let tracker: Tracker;
  before(async () => {
    env = await createTestEnv('embedded');
    tracker = await startTracker(env);
  });
  after(async () => {
    await tracker?.close();
    await env?.cleanup();
  });

  // Real output of CPython, Go and the JVM, and .NET's documented format (core/test/fixtures/server-stacks).
  const fixture = (name: string) =>
    readFileSync(join(__dirname, '..', '..', 'core', 'test', 'fixtures', 'server-stacks', name), 'utf8');
  const cases = [
    { type: 'RuntimeError', file: 'python-chained.txt', top: 'read_config', culprit: 'read_config' },
    { type: 'runtime.Error', file: 'go-debug-stack.txt', top: 'runtime/debug.Stack', culprit: 'main.(*Store).Load' },
    {
      type: 'java.lang.IllegalStateException',
      file: 'java-caused-by.txt',
      top: 'com.example.shop.App.start',
      culprit: 'com.example.shop.App.start',
    },
    {
      type: 'System.InvalidOperationException',
      file: 'dotnet-inner.txt',
      top: 'Shop.Config.Load',
      culprit: 'Shop.Config.Load',
    },
  ];

  test('Python, Go, Java and .NET stacks in exception.stacktrace give frames, in-app marks and a culprit', async () => {
    const p = await signUpWithProject(tracker.url);
    const spans = cases.map((c, i) => ({
      traceId: '5b8efff798038103d269b633813fc60c',
      spanId: `eee19b7ec3c1b17${i}`,
      name: `job ${i}`,
      events: [
        {
          name: 'exception',
          timeUnixNano: '1',
          attributes: [
            { key: 'exception.type', value: { stringValue: c.type } },
            { key: 'exception.message', value: { stringValue: `failed ${i}` } },
            { key: 'exception.stacktrace', value: { stringValue: fixture(c.file) } },
          ],
        },
      ],
    }));
    const body = JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ spans }] }] });
    const res = await postOtlp(`${tracker.url}/v1/traces`, body, {
      'content-type': 'application/json',
      'x-tracker-key': p.key,
    });
    assert.equal(res.status, 200);
    const query = `query($p: ID!) { issues(projectId: $p, first: 10) { nodes { type culprit
      events(first: 1) { nodes { frames { function filename lineno inApp } } } } } }`;
    const issues = await waitFor(
      'four issues',
      async () => {
        const d = await gqlOk(tracker.url, query, { p: p.project.id }, p.token);
        return d.issues.nodes.length === 4 && d.issues.nodes;
      },
      30_000,
    );
    for (const c of cases) {
      const issue = issues.find((i: any) => i.type === c.type);
      assert.ok(issue, c.type);
      const frames = issue.events.nodes[0].frames;
      assert.ok(frames.length >= 2, `${c.type}: frames parsed`);
      assert.equal(frames[0].function, c.top, c.type);
      assert.ok(frames[0].lineno > 0, c.type);
      assert.match(issue.culprit, new RegExp(c.culprit.replace(/[().*$]/g, '\\$&')), c.type);
    }
    const go = issues.find((i: any) => i.type === 'runtime.Error').events.nodes[0].frames;
    assert.equal(go[0].inApp, false, 'runtime/debug.Stack is the runtime');
  });
});
