/**
 * CPU of the OTLP logs route's pure steps (issue 34) on one 512-record protobuf body, shaped as
 * `server/bench/otlp-logs.bench.ts` sends it: decode, map, validate + scrub + encode the jobs
 * (`take`), and the queue's writer appending them to a Redis stream of this run (deleted after).
 * No HTTP, no quota gate: on a loaded shared machine CPU µs per record is what can be compared.
 *
 * Run: `npm run bench:otlp-steps -w @tracker/ingest`. Env: TRACKER_BENCH_ITERATIONS (default 400).
 */
import { randomBytes } from 'node:crypto';
import { mapOtlpLogs, type KeyInfo } from '@tracker/core';
import { createTestRedisPrefix, envNumber, TEST_REDIS_URL } from '@tracker/core/testing';
import { createClient } from 'redis';
import generated from 'otlp-transformer-protos/build/src/generated/root';
import { decodeOtlpRequest } from '../src/otlp/otlp-codec';
import { takeOtlpLogs } from '../src/otlp/take-otlp-logs';
import { StreamAppender } from '../src/queue/stream-appender';

const BATCH = 512;
const ITERATIONS = envNumber('BENCH_ITERATIONS', 400);

function body(): Buffer {
  const str = (v: string) => ({ stringValue: v });
  const now = BigInt(Date.now()) * 1_000_000n;
  const request = {
    resourceLogs: [
      {
        resource: {
          attributes: [
            { key: 'service.name', value: str('checkout') },
            { key: 'service.version', value: str('1.4.2') },
            { key: 'deployment.environment.name', value: str('production') },
            { key: 'host.name', value: str('box-1') },
          ],
        },
        scopeLogs: [
          {
            scope: { name: 'orders', version: '2.0.0' },
            logRecords: Array.from({ length: BATCH }, (_, i) => ({
              timeUnixNano: (now + BigInt(i)).toString(),
              observedTimeUnixNano: (now + BigInt(i)).toString(),
              severityNumber: 9,
              severityText: 'INFO',
              body: str(`order ${i} placed for customer c-${i % 97}`),
              attributes: [
                { key: 'order.id', value: str(`A-${i}`) },
                { key: 'attempt', value: { intValue: 1 } },
                { key: 'http.route', value: str('/checkout') },
              ],
              traceId: randomBytes(16),
              spanId: randomBytes(8),
            })),
          },
        ],
      },
    ],
  };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const Request = (generated as any).opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
  return Buffer.from(Request.encode(Request.fromObject(request)).finish());
}

const key = { projectId: '00000000-0000-4000-8000-000000000001', privacy: undefined } as unknown as KeyInfo;

function cpuUs(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

async function main(): Promise<void> {
  const proto = body();
  const steps = { decode: 0, map: 0, take: 0, enqueue: 0 };
  const stream = `${createTestRedisPrefix()}:otlp-steps`;
  const appender = new StreamAppender(TEST_REDIS_URL, stream);
  const receivedAt = new Date().toISOString();
  for (let round = 0; round < 2; round++) {
    // The first round warms the JIT; the second is measured.
    steps.decode = steps.map = steps.take = steps.enqueue = 0;
    for (let i = 0; i < ITERATIONS; i++) {
      let t = cpuUs();
      const decoded = decodeOtlpRequest('logs', 'protobuf', proto);
      let now = cpuUs();
      steps.decode += now - t;
      t = now;
      const candidates = mapOtlpLogs(decoded);
      now = cpuUs();
      steps.map += now - t;
      t = now;
      const taken = await takeOtlpLogs(key, candidates, receivedAt, {} as never);
      now = cpuUs();
      steps.take += now - t;
      if (taken.payloads.length !== BATCH) throw new Error(`took ${taken.payloads.length}`);
      t = cpuUs();
      await new Promise<void>((resolve, reject) => appender.append([{ payloads: taken.payloads, resolve, reject }]));
      steps.enqueue += cpuUs() - t;
    }
  }
  await appender.close();
  const redis = createClient({ url: TEST_REDIS_URL });
  await redis.connect();
  await redis.del(stream);
  await redis.quit();
  const per = (us: number) => (us / (ITERATIONS * BATCH)).toFixed(2);
  const total = steps.decode + steps.map + steps.take + steps.enqueue;
  console.log(
    `otlp-logs-steps: ${proto.length} B / ${BATCH} records, ${ITERATIONS} requests; CPU µs/record: decode ${per(steps.decode)}, map ${per(steps.map)}, take ${per(steps.take)}, enqueue ${per(steps.enqueue)}, total ${per(total)}`,
  );
}

void main();
