export interface NormalizedError {
  type: string;
  message: string;
  stack?: string;
}

const MAX_MESSAGE_CHARS = 8_192;

function describe(value: unknown): string {
  if (typeof value == 'string') return value;
  if (value && typeof value == 'object') {
    try {
      const json = JSON.stringify(value);
      if (json) return json;
    } catch {
      // circular or throwing toJSON: fall through to the tag
    }
    return Object.prototype.toString.call(value);
  }
  return String(value);
}

/**
 * Turns anything a program can throw into `type`, `message` and the raw `stack` text. The
 * server parses the stack (V8, SpiderMonkey, JavaScriptCore), so the SDK ships it untouched
 * rather than carrying a parser of its own.
 */
export function normalizeThrown(value: unknown): NormalizedError {
  const err = value as { name?: unknown; message?: unknown; stack?: unknown } | null;
  const isErrorLike =
    value instanceof Error ||
    (!!err && typeof err == 'object' && typeof err.message == 'string' && typeof err.stack == 'string');
  if (isErrorLike) {
    return {
      type: (typeof err!.name == 'string' && err!.name) || 'Error',
      message: String(err!.message).slice(0, MAX_MESSAGE_CHARS),
      stack: typeof err!.stack == 'string' ? err!.stack : undefined,
    };
  }
  return { type: 'Error', message: describe(value).slice(0, MAX_MESSAGE_CHARS) };
}
