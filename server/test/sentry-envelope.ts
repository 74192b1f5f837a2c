import { randomUUID } from 'node:crypto';

/** Hand-built Sentry envelopes for the protocol tests (develop.sentry.dev/sdk/envelopes). */

export type ItemPayload = string | Buffer | Record<string, unknown> | unknown[];

/** One item: its header (`type`, and `length` unless `noLength`) and payload. */
export interface ItemSpec {
  header: Record<string, unknown>;
  payload: ItemPayload;
  /** Leave `length` out: the payload then runs to the next newline. */
  noLength?: boolean;
}

export function item(type: string, payload: ItemPayload, extra: Record<string, unknown> = {}): ItemSpec {
  return { header: { type, ...extra }, payload };
}

export function buildEnvelope(header: Record<string, unknown>, items: ItemSpec[]): Buffer {
  const parts: Buffer[] = [Buffer.from(`${JSON.stringify(header)}\n`)];
  for (const it of items) {
    const payload = Buffer.isBuffer(it.payload)
      ? it.payload
      : Buffer.from(typeof it.payload === 'string' ? it.payload : JSON.stringify(it.payload));
    const header = it.noLength || 'length' in it.header ? it.header : { ...it.header, length: payload.length };
    parts.push(Buffer.from(`${JSON.stringify(header)}\n`), payload, Buffer.from('\n'));
  }
  return Buffer.concat(parts);
}

/** A fresh 32-hex event id, as Sentry's SDKs make them (a UUID v4 without dashes). */
export function sentryEventId(): string {
  return randomUUID().replaceAll('-', '');
}

/** Our UUID form of a 32-hex id. */
export function uuidOf(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A browser-SDK-like error event: a TypeError caused by a RangeError, frames outermost first. */
export function errorEvent(eventId: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    event_id: eventId,
    timestamp: Date.now() / 1000,
    platform: 'javascript',
    level: 'error',
    environment: 'staging',
    release: 'shop@1.2.3',
    exception: {
      values: [
        { type: 'RangeError', value: 'index out of range' },
        {
          type: 'TypeError',
          value: "Cannot read properties of undefined (reading 'id')",
          mechanism: { type: 'onerror', handled: false },
          stacktrace: {
            frames: [
              {
                filename: 'https://shop.example.com/static/vendor.js',
                function: '?',
                lineno: 1,
                colno: 10,
                in_app: false,
              },
              {
                filename: 'https://shop.example.com/static/app.js',
                function: 'main',
                lineno: 3,
                colno: 20,
                in_app: true,
              },
              {
                filename: 'https://shop.example.com/static/app.js',
                function: 'loadCart',
                lineno: 7,
                colno: 42,
                in_app: true,
              },
            ],
          },
        },
      ],
    },
    tags: { browser: 'Chrome', build: 1234, flag: true },
    user: { id: 42, email: 'ada@example.com', username: 'ada' },
    request: { url: 'https://shop.example.com/cart', headers: { 'User-Agent': 'Mozilla/5.0' } },
    contexts: { browser: { name: 'Chrome', version: '120' } },
    extra: { cartSize: 3 },
    sdk: { name: 'sentry.javascript.browser', version: '10.0.0' },
    ...overrides,
  };
}
