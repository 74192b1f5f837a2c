/**
 * OpenTelemetry traces in (issue 34): a span on which OpenTelemetry's SDK recorded an exception
 * (`span.recordException`), exported unchanged by the OTLP/JSON and OTLP/protobuf exporters
 * (gzip on) from child processes, becomes an issue on both runtimes, carrying the trace id,
 * span id, span name, the resource's service, release and environment, and frames parsed from
 * the stack text. Spans without an exception are counted and dropped.
 */
import assert from 'node:assert/strict';
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
