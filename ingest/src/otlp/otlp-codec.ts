import protobuf from 'protobufjs';
import secureJsonParse from 'secure-json-parse';
import { AppError } from '@tracker/core';
// OpenTelemetry's own protobufjs code, generated from opentelemetry-proto by the OTel JS
// project (docs/dependencies.md: why this package, pinned at the last version that ships it).
import generated from 'otlp-transformer-protos/build/src/generated/root';

/** The two OTLP/HTTP encodings; the answer is written in the one the request came in. */
export type OtlpEncoding = 'protobuf' | 'json';

interface MessageType {
  decode(bytes: Uint8Array): unknown;
  encode(message: object): { finish(): Uint8Array };
}

const otlp = (
  generated as unknown as {
    opentelemetry: {
      proto: {
        collector: {
          logs: { v1: { ExportLogsServiceRequest: MessageType; ExportLogsServiceResponse: MessageType } };
          trace: { v1: { ExportTraceServiceRequest: MessageType; ExportTraceServiceResponse: MessageType } };
        };
      };
    };
  }
).opentelemetry.proto.collector;

/**
 * `google.rpc.Status`, the body of every OTLP/HTTP error answer: not in OTel's generated code
 * (it is Google's), so built by reflection with the same library from its two scalar fields.
 */
const Status = protobuf.Type.fromJSON('Status', {
  fields: { code: { type: 'int32', id: 1 }, message: { type: 'string', id: 2 } },
});

export const SIGNALS = {
  logs: {
    request: otlp.logs.v1.ExportLogsServiceRequest,
    response: otlp.logs.v1.ExportLogsServiceResponse,
    rejectedField: 'rejectedLogRecords',
    name: 'ExportLogsServiceRequest',
  },
  traces: {
    request: otlp.trace.v1.ExportTraceServiceRequest,
    response: otlp.trace.v1.ExportTraceServiceResponse,
    rejectedField: 'rejectedSpans',
    name: 'ExportTraceServiceRequest',
  },
} as const;
export type Signal = keyof typeof SIGNALS;

const PARSE_OPTIONS = { protoAction: 'error', constructorAction: 'error' } as const;

/**
 * An `Export…ServiceRequest` from the body: protobuf through OTel's generated decoder, or
 * OTLP/JSON. Either way the mapper reads the same field names (lowerCamelCase); what differs
 * (Long vs string int64s, bytes vs hex ids) is read by core/src/otlp/otlp-values.ts. A body the
 * decoder cannot read (truncated, a field of the wrong wire type) is a 400 naming the cause.
 */
export function decodeOtlpRequest(signal: Signal, encoding: OtlpEncoding, body: Buffer): unknown {
  if (encoding === 'json') {
    if (body.length === 0) return {};
    try {
      return secureJsonParse.parse(body.toString('utf8'), undefined, PARSE_OPTIONS);
    } catch (err) {
      throw new AppError('BAD_USER_INPUT', `body: malformed JSON (${(err as Error).message})`);
    }
  }
  try {
    return SIGNALS[signal].request.decode(body);
  } catch (err) {
    // RangeError: a message nested past the stack (a hostile body), reported the same way.
    const cause =
      err instanceof RangeError && /call stack/i.test(err.message) ? 'nested too deep' : (err as Error).message;
    throw new AppError('BAD_USER_INPUT', `body: not a valid protobuf ${SIGNALS[signal].name} (${cause})`);
  }
}

/** The success answer: empty, or `partial_success` with the count refused and why. */
export function encodeOtlpResponse(
  signal: Signal,
  encoding: OtlpEncoding,
  rejected: number,
  message: string | undefined,
): Buffer | string {
  const field = SIGNALS[signal].rejectedField;
  const partial = rejected > 0 || message ? { [field]: rejected, errorMessage: message ?? '' } : undefined;
  if (encoding === 'json') {
    // OTLP/JSON: int64 as a decimal string.
    return JSON.stringify(
      partial ? { partialSuccess: { [field]: String(rejected), errorMessage: partial.errorMessage } } : {},
    );
  }
  return Buffer.from(SIGNALS[signal].response.encode(partial ? { partialSuccess: partial } : {}).finish());
}

/** An error answer's `Status` body (`code` is google.rpc.Code). */
export function encodeOtlpStatus(encoding: OtlpEncoding, code: number, message: string): Buffer | string {
  if (encoding === 'json') return JSON.stringify({ code, message });
  return Buffer.from(Status.encode(Status.create({ code, message })).finish());
}

export const CONTENT_TYPES: Record<OtlpEncoding, string> = {
  protobuf: 'application/x-protobuf',
  json: 'application/json',
};
