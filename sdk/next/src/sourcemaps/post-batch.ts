import { parseRetryAfter } from '@tracker/sdk-core';
import { UploadSourceMapsError } from './errors';

export interface PostOptions {
  url: string;
  authToken: string;
  body: string;
  userAgent: string;
  /** One delay per retry: `[1000, 3000]` means three attempts in all. */
  retryDelaysMs: number[];
  timeoutMs: number;
  /** Told before each retry. */
  onRetry(reason: string, delayMs: number, retry: number, retries: number): void;
}

/** A server's `Retry-After` is honoured up to this; beyond it the back-off delay is used. */
const MAX_RETRY_AFTER_MS = 60_000;

/** Worth another try: the request may succeed unchanged (the server or the network was busy). */
function isTransient(status: number): boolean {
  return status == 408 || status == 429 || status >= 500;
}

/** The server's `{"error":{"code","message"}}`, or the start of whatever it sent instead. */
function readError(text: string, status: number, statusText: string): { code?: string; message: string } {
  try {
    const parsed = JSON.parse(text);
    const error = parsed && parsed.error;
    if (error && typeof error.message == 'string') {
      return { code: typeof error.code == 'string' ? error.code : undefined, message: error.message };
    }
  } catch {
    // not the wire format (a proxy's HTML page, say)
  }
  const snippet = text.replace(/\s+/g, ' ').trim().slice(0, 200);
  return { message: snippet || statusText || 'no message' };
}

function describeNetworkError(error: unknown, timeoutMs: number): string {
  const err = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (err && (err.name == 'TimeoutError' || err.name == 'AbortError')) return `no answer within ${timeoutMs} ms`;
  const cause = err && err.cause;
  if (cause && (cause.code || cause.message)) return [cause.code, cause.message].filter(Boolean).join(' ');
  return (err && err.message) || String(error);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * POSTs one body. A 2xx answers the parsed JSON. Connection failures, timeouts, 408, 429 and
 * 5xx are retried after the given delays (or the server's `Retry-After`, up to 60 s); any other
 * answer fails at once as `REJECTED` with the server's message, and so does a transient one
 * that outlasts the retries (`NETWORK` when there never was an answer).
 */
export async function postBatch(options: PostOptions): Promise<any> {
  const retries = options.retryDelaysMs.length;
  for (let attempt = 0; ; attempt++) {
    let failure: UploadSourceMapsError;
    let retryAfterMs: number | undefined;
    try {
      const response = await fetch(options.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Authorization: 'Bearer ' + options.authToken,
          'User-Agent': options.userAgent,
        },
        body: options.body,
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      const text = await response.text();
      if (response.ok) {
        try {
          return text ? JSON.parse(text) : {};
        } catch {
          return {};
        }
      }
      const error = readError(text, response.status, response.statusText);
      failure = new UploadSourceMapsError(
        'REJECTED',
        `the server rejected the upload: HTTP ${response.status}${error.code ? ' ' + error.code : ''}: ${error.message}`,
        { status: response.status, serverCode: error.code },
      );
      if (!isTransient(response.status)) throw failure;
      retryAfterMs = parseRetryAfter(response.headers.get('Retry-After'), Date.now());
    } catch (error) {
      if (error instanceof UploadSourceMapsError) throw error;
      failure = new UploadSourceMapsError(
        'NETWORK',
        `could not reach ${new URL(options.url).origin}: ${describeNetworkError(error, options.timeoutMs)}`,
      );
    }
    if (attempt >= retries) {
      if (retries > 0) failure.message += ` (gave up after ${retries + 1} attempts)`;
      throw failure;
    }
    let delay = options.retryDelaysMs[attempt];
    if (retryAfterMs != null && retryAfterMs > delay && retryAfterMs <= MAX_RETRY_AFTER_MS) delay = retryAfterMs;
    options.onRetry(failure.message, delay, attempt + 1, retries);
    await sleep(delay);
  }
}
