import { join } from 'node:path';
import protobuf from 'protobufjs';
import { runSender } from './run-sender';

/** What the sender child reported: the exporter's result codes (0 = success) and the ids it used. */
export interface OtlpSent {
  results: number[];
  traceId: string;
  spanId: string;
}

/**
 * Runs OpenTelemetry's SDK and exporter (otlp-sender.cjs) in a child process against `url`,
 * gzip on. `protocol`: `http` (OTLP/JSON) or `proto` (OTLP/protobuf).
 */
export function runOtlpSender(
  signal: 'logs' | 'traces',
  protocol: 'http' | 'proto',
  url: string,
  headers: Record<string, string>,
  timeoutMs = 60_000,
): Promise<OtlpSent> {
  return runSender<OtlpSent>(
    process.execPath,
    [join(__dirname, 'otlp-sender.cjs')],
    { OTLP_SIGNAL: signal, OTLP_PROTOCOL: protocol, OTLP_URL: url, OTLP_HEADERS: JSON.stringify(headers) },
    timeoutMs,
  );
}

/** `google.rpc.Status`, to read a protobuf error answer the way an OTLP client does. */
const Status = protobuf.Type.fromJSON('Status', {
  fields: { code: { type: 'int32', id: 1 }, message: { type: 'string', id: 2 } },
});

export function decodeStatus(bytes: Uint8Array): { code: number; message: string } {
  return Status.toObject(Status.decode(bytes), { defaults: true }) as { code: number; message: string };
}

/** A POST as an exporter makes it; the answer's body as bytes. */
export async function postOtlp(
  url: string,
  body: Buffer | string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Headers; bytes: Buffer; json: () => any }> {
  const res = await fetch(url, { method: 'POST', headers, body });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, bytes, json: () => JSON.parse(bytes.toString('utf8')) };
}

/** An OTLP/JSON ExportLogsServiceRequest with one resource and scope holding `records`. */
export function jsonLogs(records: unknown[], resource: Record<string, string> = { 'service.name': 'api' }): string {
  return JSON.stringify({
    resourceLogs: [
      {
        resource: { attributes: Object.entries(resource).map(([key, v]) => ({ key, value: { stringValue: v } })) },
        scopeLogs: [{ scope: { name: 'test' }, logRecords: records }],
      },
    ],
  });
}
