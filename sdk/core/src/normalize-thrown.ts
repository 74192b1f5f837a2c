export interface NormalizedError {
  type: string;
  message: string;
  stack?: string;
  /** The `cause` chain (`readCauses`), for thrown values only. */
  causes?: NormalizedError[];
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

/** An Error, or an object that looks like one (an error from another realm). */
export function isErrorLike(value: unknown): boolean {
  const err = value as { message?: unknown; stack?: unknown } | null;
  return (
    value instanceof Error ||
    (!!err && typeof err == 'object' && typeof err.message == 'string' && typeof err.stack == 'string')
  );
}

/**
 * Turns anything a program can throw into `type`, `message` and the raw `stack` text. The
 * server parses the stack (V8, SpiderMonkey, JavaScriptCore), so the SDK ships it untouched
 * rather than carrying a parser of its own.
 */
export function normalizeThrown(value: unknown): NormalizedError {
  const err = value as { name?: unknown; message?: unknown; stack?: unknown } | null;
  if (isErrorLike(value)) {
    return {
      type: (typeof err!.name == 'string' && err!.name) || 'Error',
      message: String(err!.message).slice(0, MAX_MESSAGE_CHARS),
      stack: typeof err!.stack == 'string' ? err!.stack : undefined,
    };
  }
  return { type: 'Error', message: describe(value).slice(0, MAX_MESSAGE_CHARS) };
}
