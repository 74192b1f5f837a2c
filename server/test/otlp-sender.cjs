/**
 * A child process that uses OpenTelemetry's own SDKs and exporters, unchanged, to send to
 * Tracker (otlp.test.ts). Reads OTLP_SIGNAL (logs | traces), OTLP_PROTOCOL (http = OTLP/JSON,
 * proto = OTLP/protobuf), OTLP_URL (the full /v1/… URL) and OTLP_HEADERS (JSON). Prints one
 * JSON line: what it sent (trace and span ids) and what the exporter reported.
 */
'use strict';
const { context, trace, SpanStatusCode } = require('@opentelemetry/api');
const { SeverityNumber } = require('@opentelemetry/api-logs');
const { resourceFromAttributes } = require('@opentelemetry/resources');

const signal = process.env.OTLP_SIGNAL;
const protocol = process.env.OTLP_PROTOCOL;
const exporterOptions = {
  url: process.env.OTLP_URL,
  headers: JSON.parse(process.env.OTLP_HEADERS || '{}'),
  compression: 'gzip',
};
const resource = resourceFromAttributes({
  'service.name': 'checkout',
  'service.version': '1.4.2',
  'deployment.environment.name': 'staging',
  'host.name': 'box-1',
});

async function sendLogs() {
  const { LoggerProvider, BatchLogRecordProcessor } = require('@opentelemetry/sdk-logs');
  const { OTLPLogExporter } =
    protocol === 'proto'
      ? require('@opentelemetry/exporter-logs-otlp-proto')
      : require('@opentelemetry/exporter-logs-otlp-http');
  const exporter = new OTLPLogExporter(exporterOptions);
  const results = [];
  const export_ = exporter.export.bind(exporter);
  exporter.export = (records, done) =>
    export_(records, (r) => (results.push(r.error ? `${r.code}: ${r.error.message}` : r.code), done(r)));
  const provider = new LoggerProvider({ resource, processors: [new BatchLogRecordProcessor({ exporter })] });
  const logger = provider.getLogger('orders', '2.0.0');
  const spanContext = {
    traceId: '0af7651916cd43dd8448eb211c80319c',
    spanId: 'b7ad6b7169203331',
    traceFlags: 1,
  };
  const ctx = trace.setSpanContext(context.active(), spanContext);
  logger.emit({
    severityNumber: SeverityNumber.WARN,
    severityText: 'WARN',
    body: 'payment retried',
    attributes: { 'order.id': 'A-1042', attempt: 2, password: 'hunter2', nested: { card: { last4: '4242' } } },
    context: ctx,
  });
  logger.emit({
    severityNumber: SeverityNumber.ERROR,
    body: { event: 'refund.failed', amount: 12.5 },
    attributes: { 'refund.id': 'R-9' },
  });
  logger.emit({ severityText: 'debug', body: 'cache warm' });
  await provider.forceFlush();
  await provider.shutdown();
  return { results, traceId: spanContext.traceId, spanId: spanContext.spanId };
}

async function sendTraces() {
  const { TracerProvider, BatchSpanProcessor } = require('@opentelemetry/sdk-trace');
  const { OTLPTraceExporter } =
    protocol === 'proto'
      ? require('@opentelemetry/exporter-trace-otlp-proto')
      : require('@opentelemetry/exporter-trace-otlp-http');
  const exporter = new OTLPTraceExporter(exporterOptions);
  const results = [];
  const export_ = exporter.export.bind(exporter);
  exporter.export = (spans, done) =>
    export_(spans, (r) => (results.push(r.error ? `${r.code}: ${r.error.message}` : r.code), done(r)));
  const provider = new TracerProvider({ resource, spanProcessors: [new BatchSpanProcessor({ exporter })] });
  const tracer = provider.getTracer('orders', '2.0.0');
  const plain = tracer.startSpan('GET /health');
  plain.end();
  const span = tracer.startSpan('POST /checkout', { attributes: { 'http.route': '/checkout', 'user.id': 'u-7' } });
  try {
    chargeCard();
  } catch (err) {
    span.recordException(err);
    span.setStatus({ code: SpanStatusCode.ERROR, message: err.message });
  }
  span.end();
  // A failed export rejects the flush: the result codes above say why.
  await provider.forceFlush().catch(() => undefined);
  await provider.shutdown().catch(() => undefined);
  const sc = span.spanContext();
  return { results, traceId: sc.traceId, spanId: sc.spanId };
}

function chargeCard() {
  throw new TypeError('card declined');
}

(signal === 'logs' ? sendLogs() : sendTraces()).then(
  (r) => {
    process.stdout.write(`${JSON.stringify(r)}\n`);
    process.exit(0);
  },
  (err) => {
    process.stderr.write(`${(err && err.stack) || JSON.stringify(err)}\n`);
    process.exit(1);
  },
);
