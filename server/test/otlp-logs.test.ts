/**
 * OpenTelemetry logs in (issue 34): OpenTelemetry's own SDK and OTLP exporters (JSON and
 * protobuf, gzip on), unchanged, in child processes, against a real Tracker on both runtimes;
 * what was stored is read back through GraphQL and the Logs page. Then hostile bodies, sent by
 * hand, each answered as OTLP/HTTP wants and losing nothing else.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import type { Tracker } from '../src';
import { createTestEnv, gqlOk, MODES, signUpWithProject, startTracker, waitFor, type TestEnv } from './helpers';
import { decodeStatus, jsonLogs, postOtlp, runOtlpSender } from './otlp-harness';

const LOGS = `query($p: ID!, $f: LogFilter) { logs(projectId: $p, filter: $f, first: 100) { nodes {
  level message context environment release tags timestamp } } }`;

type Project = Awaited<ReturnType<typeof signUpWithProject>>;

async function logsOf(tracker: Tracker, p: Project, filter: Record<string, unknown> = {}, count = 1): Promise<any[]> {
  return waitFor(
    `${count} logs`,
    async () => {
      const d = await gqlOk(tracker.url, LOGS, { p: p.project.id, f: filter }, p.token);
      return d.logs.nodes.length >= count ? d.logs.nodes : undefined;
    },
    30_000,
  );
}

/** A stored log without what differs from one send to the next. */
function comparable(log: any): unknown {
  const { timestamp: _t, ...rest } = log;
  return rest;
}

for (const mode of MODES) {
  describe(`OTLP logs from OpenTelemetry's exporters (${mode})`, () => {
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

    test('OTLP/JSON and OTLP/protobuf with gzip store the same logs: service, environment, release, attributes, trace id', async () => {
      const json = await signUpWithProject(tracker.url, 'json');
      const proto = await signUpWithProject(tracker.url, 'proto');
      const sentJson = await runOtlpSender('logs', 'http', `${tracker.url}/v1/logs`, { 'x-tracker-key': json.key });
      // Sentry's path, with the project number, and the DSN in Authorization.
      const number = new URL(proto.dsn).pathname.split('/').pop();
      const sentProto = await runOtlpSender('logs', 'proto', `${tracker.url}/api/${number}/integration/otlp/v1/logs`, {
        authorization: `DSN ${proto.key}`,
      });
      assert.deepEqual(sentJson.results, [0], 'the JSON exporter reports success');
      assert.deepEqual(sentProto.results, [0], 'the protobuf exporter reports success');

      const fromJson = await logsOf(tracker, json, { service: 'checkout' }, 3);
      const fromProto = await logsOf(tracker, proto, { service: 'checkout' }, 3);
      const byMessage = (logs: any[]) => [...logs].sort((a, b) => a.message.localeCompare(b.message));
      assert.deepEqual(byMessage(fromJson).map(comparable), byMessage(fromProto).map(comparable));

      const warn = fromProto.find((l) => l.message === 'payment retried');
      assert.ok(warn, 'the string body is the message');
      assert.equal(warn.level, 'WARN');
      assert.equal(warn.environment, 'staging');
      assert.equal(warn.release, '1.4.2');
      assert.deepEqual(warn.tags, { service: 'checkout' });
      assert.equal(warn.context.trace_id, sentProto.traceId);
      assert.equal(warn.context.span_id, sentProto.spanId);
      assert.equal(warn.context['order.id'], 'A-1042');
      assert.equal(warn.context.attempt, 2);
      assert.deepEqual(warn.context.nested, { card: { last4: '4242' } });
      assert.equal(warn.context.password, '[Filtered]', 'scrubbed as /ingest/log is');
      assert.equal(warn.context['otel.scope'], 'orders');
      assert.deepEqual(warn.context.resource, { 'host.name': 'box-1' });
      const structured = fromProto.find((l) => l.level === 'ERROR');
      assert.deepEqual(JSON.parse(structured.message), { event: 'refund.failed', amount: 12.5 });
      assert.equal(fromProto.find((l) => l.message === 'cache warm')?.level, 'DEBUG', 'severity_text alone');

      const none = await gqlOk(tracker.url, LOGS, { p: proto.project.id, f: { service: 'billing' } }, proto.token);
      assert.equal(none.logs.nodes.length, 0, 'the service filter filters');
    });

    test('a key of another project on its path is 403, no key 401, both with a Status body', async () => {
      const a = await signUpWithProject(tracker.url, 'a');
      const b = await signUpWithProject(tracker.url, 'b');
      const numberB = new URL(b.dsn).pathname.split('/').pop();
      const body = jsonLogs([{ body: { stringValue: 'x' } }]);
      const wrong = await postOtlp(`${tracker.url}/api/${numberB}/integration/otlp/v1/logs`, body, {
        'content-type': 'application/json',
        'x-sentry-auth': `Sentry sentry_key=${a.key}, sentry_version=7`,
      });
      assert.equal(wrong.status, 403);
      assert.equal(wrong.json().code, 7);
      const anonymous = await postOtlp(`${tracker.url}/v1/logs`, Buffer.from([]), {
        'content-type': 'application/x-protobuf',
      });
      assert.equal(anonymous.status, 401);
      assert.equal(anonymous.headers.get('content-type'), 'application/x-protobuf');
      assert.match(decodeStatus(anonymous.bytes).message, /no DSN key/);
    });
  });
}

describe('OTLP logs: hostile and odd bodies (embedded)', () => {
  let env: TestEnv;
  let tracker: Tracker;
  let p: Project;
  const url = () => `${tracker.url}/v1/logs`;
  const json = () => ({ 'content-type': 'application/json', 'x-tracker-key': p.key });
  before(async () => {
    env = await createTestEnv('embedded');
    tracker = await startTracker(env);
    p = await signUpWithProject(tracker.url);
  });
  after(async () => {
    await tracker?.close();
    await env?.cleanup();
  });

  test('a truncated protobuf body is a 400 with a protobuf Status naming the cause', async () => {
    // A LogRecord field 9 (trace_id) announcing 16 bytes, and only 3 of them.
    const body = Buffer.from([0x0a, 0x0c, 0x12, 0x0a, 0x12, 0x08, 0x4a, 0x10, 0x01, 0x02, 0x03]);
    const res = await postOtlp(url(), body, { 'content-type': 'application/x-protobuf', 'x-tracker-key': p.key });
    assert.equal(res.status, 400);
    const status = decodeStatus(res.bytes);
    assert.equal(status.code, 3);
    assert.match(status.message, /not a valid protobuf ExportLogsServiceRequest/);
  });

  test('wrong field types: the structure is a 400, one bad record is refused alone (partial success)', async () => {
    const structure = await postOtlp(url(), JSON.stringify({ resourceLogs: { not: 'a list' } }), json());
    assert.equal(structure.status, 400);
    assert.match(structure.json().message, /resourceLogs: must be a list/);
    const mixed = await postOtlp(
      url(),
      jsonLogs([
        { timeUnixNano: { a: 1 }, body: { stringValue: 'bad time' } },
        { severityNumber: 'loud', body: { stringValue: 'bad severity' } },
        { severityNumber: 9, body: { stringValue: 'kept beside bad ones' } },
      ]),
      json(),
    );
    assert.equal(mixed.status, 200);
    const partial = mixed.json().partialSuccess;
    assert.equal(partial.rejectedLogRecords, '2');
    assert.match(partial.errorMessage, /timeUnixNano: must be an integer/);
    const logs = await logsOf(tracker, p, { text: 'kept beside bad ones' });
    assert.equal(logs[0].level, 'INFO');
  });

  test('attributes 1,000 deep, ids of the wrong length and a year-3000 time are normalized, the rest kept', async () => {
    let deep: unknown = { stringValue: 'bottom' };
    for (let i = 0; i < 1_000; i++) deep = { kvlistValue: { values: [{ key: 'k', value: deep }] } };
    const year3000 = String(BigInt(Date.parse('3000-01-01T00:00:00Z')) * 1_000_000n);
    const res = await postOtlp(
      url(),
      jsonLogs([
        {
          timeUnixNano: year3000,
          traceId: 'abc',
          spanId: '00f067aa0ba902b7',
          body: { stringValue: 'odd but kept' },
          attributes: [
            { key: 'deep', value: deep },
            { key: 'shallow', value: { intValue: '9007199254740993' } },
          ],
        },
      ]),
      json(),
    );
    assert.equal(res.status, 200);
    assert.deepEqual(res.json(), {});
    const [log] = await logsOf(tracker, p, { text: 'odd but kept' });
    assert.equal(log.context.shallow, '9007199254740993', 'an int64 beyond 2^53 kept exactly');
    assert.equal(log.context.span_id, '00f067aa0ba902b7');
    assert.equal(log.context.trace_id, undefined);
    assert.match(log.context._meta.trace_id.reason, /16 bytes/);
    assert.match(JSON.stringify(log.context.deep), /\[depth limit\]/);
    assert.ok(Date.parse(log.timestamp) < Date.parse('2100-01-01'), 'the year 3000 is clamped');
    assert.equal(log.context._meta.timestamp.original, '3000-01-01T00:00:00.000Z');
  });

  test('100,000 records in one request are a 413 with a message; a 100 MB gzip bomb is a 413', async () => {
    const records = Array.from({ length: 100_000 }, () => ({ body: { stringValue: 'x' } }));
    const gz = gzipSync(jsonLogs(records));
    const many = await postOtlp(url(), gz, { ...json(), 'content-encoding': 'gzip' });
    // 100,000 tiny records fit in 8 MB: refused by count, before any quota is spent.
    assert.equal(many.status, 413);
    assert.match(many.json().message, /more than 10000 log records in one request/);
    const bomb = gzipSync(Buffer.alloc(100 * 1024 * 1024, 0x20));
    const big = await postOtlp(url(), bomb, { ...json(), 'content-encoding': 'gzip' });
    assert.equal(big.status, 413);
    assert.match(big.json().message, /limit of 8 MB once decoded/);
    const after = await postOtlp(url(), jsonLogs([{ body: { stringValue: 'after the bomb' } }]), json());
    assert.equal(after.status, 200, 'the door still takes records');
  });

  test('an unsupported Content-Type is a 415 with a (protobuf) Status', async () => {
    const res = await postOtlp(url(), 'hello', { 'content-type': 'text/plain', 'x-tracker-key': p.key });
    assert.equal(res.status, 415);
    assert.match(decodeStatus(res.bytes).message, /application\/x-protobuf or application\/json/);
  });
});

describe('OTLP logs over the log quota (embedded)', () => {
  let env: TestEnv;
  let tracker: Tracker;
  before(async () => {
    env = await createTestEnv('embedded');
    tracker = await startTracker(env, {}, { quota: { logLimitOverride: 2 } });
  });
  after(async () => {
    await tracker?.close();
    await env?.cleanup();
  });

  test('records past the quota are rejected in partial_success, then 429 with Retry-After', async () => {
    const p = await signUpWithProject(tracker.url);
    const headers = { 'content-type': 'application/json', authorization: `DSN ${p.key}` };
    const records = [1, 2, 3].map((n) => ({ body: { stringValue: `quota ${n}` } }));
    const first = await postOtlp(`${tracker.url}/v1/logs`, jsonLogs(records), headers);
    assert.equal(first.status, 200);
    assert.equal(first.json().partialSuccess.rejectedLogRecords, '1');
    const second = await postOtlp(`${tracker.url}/v1/logs`, jsonLogs(records), headers);
    assert.equal(second.status, 429);
    assert.ok(Number(second.headers.get('retry-after')) >= 1);
    assert.equal(second.json().code, 8);
    assert.equal((await logsOf(tracker, p, {}, 2)).length, 2);
  });
});
