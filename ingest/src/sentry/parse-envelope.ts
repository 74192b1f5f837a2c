import secureJsonParse from 'secure-json-parse';
import { AppError, errorMessage, isObject, isPlainJsonText, type JsonObject } from '@tracker/core';

/** One JSON item (event, feedback, logs) at most: Relay's own limit for an event is 1 MiB. */
export const MAX_SENTRY_ITEM_BYTES = 1024 * 1024;
/** A whole envelope, compressed and decoded (attachments are read past, not kept). */
export const MAX_ENVELOPE_BYTES = 20 * 1024 * 1024;

/**
 * Items in one envelope, of any type (docs/sentry-compatibility.md, "Limits"). SDKs send a
 * handful (an event and its attachments, up to 100 sessions); past this the envelope is refused
 * whole with 413 before its items are read, so 20 MB of tiny items cannot hold the thread.
 */
export const MAX_ENVELOPE_ITEMS = 1_000;

const NEWLINE = 0x0a;
// `__proto__` keys are dropped rather than refused: an SDK's user data may hold one.
const PARSE_OPTIONS = { protoAction: 'remove', constructorAction: 'remove' } as const;

/** An item as found: its header and its payload bytes (not parsed: most types are dropped). */
export interface EnvelopeItem {
  type: string;
  header: JsonObject;
  payload: Buffer;
}

export interface Envelope {
  header: JsonObject;
  items: EnvelopeItem[];
  /**
   * Why reading stopped before the end (a truncated item, an item header that is not JSON, a
   * length past the end): the items before it are kept, the rest of the body is not readable.
   */
  broken?: AppError;
}

/**
 * Splits a Sentry envelope (develop.sentry.dev/sdk/envelopes): a JSON header line, then items,
 * each a JSON header line and a payload of `length` bytes (then an optional newline), or without
 * `length` a payload up to the next newline. Throws a 400 only when the envelope header itself
 * cannot be read, a 413 past MAX_ENVELOPE_ITEMS items; a problem further on ends the item list (`broken`) and keeps what came before,
 * so a bad item never takes a valid one before it along.
 */
export function parseEnvelope(body: Buffer): Envelope {
  if (body.length === 0) throw new AppError('BAD_USER_INPUT', 'body: is required (an envelope)');
  let at = lineEnd(body, 0);
  const header = parseJsonObject(body.subarray(0, at), 'envelope header');
  const items: EnvelopeItem[] = [];
  at += 1;
  while (at < body.length) {
    // Blank lines between items (a trailing newline, `\n\n`) carry nothing.
    if (body[at] === NEWLINE) {
      at += 1;
      continue;
    }
    if (items.length === MAX_ENVELOPE_ITEMS) {
      throw new AppError(
        'PAYLOAD_TOO_LARGE',
        `envelope: more than ${MAX_ENVELOPE_ITEMS} items in one envelope; send them in several`,
      );
    }
    const headerEnd = lineEnd(body, at);
    let itemHeader: JsonObject;
    try {
      itemHeader = parseJsonObject(body.subarray(at, headerEnd), `item ${items.length + 1} header`);
    } catch (err) {
      return { header, items, broken: err as AppError };
    }
    const type = typeof itemHeader.type === 'string' ? itemHeader.type : '';
    const start = headerEnd + 1;
    const length = itemHeader.length;
    let end: number;
    if (length === undefined || length === null) {
      end = start > body.length ? body.length : lineEnd(body, start);
    } else if (typeof length === 'number' && Number.isInteger(length) && length >= 0) {
      end = start + length;
      if (end > body.length) {
        const problem = `item ${items.length + 1} (${type || 'no type'}): length ${length} runs past the end of the body (truncated)`;
        return { header, items, broken: new AppError('BAD_USER_INPUT', problem) };
      }
    } else {
      const problem = `item ${items.length + 1} header: length must be a non-negative integer`;
      return { header, items, broken: new AppError('BAD_USER_INPUT', problem) };
    }
    items.push({ type, header: itemHeader, payload: body.subarray(Math.min(start, body.length), end) });
    at = end + 1; // past the payload's newline (or the end)
  }
  return { header, items };
}

function lineEnd(body: Buffer, from: number): number {
  const i = body.indexOf(NEWLINE, from);
  return i < 0 ? body.length : i;
}

function parseJsonObject(bytes: Buffer, what: string): JsonObject {
  const value = parseSentryJson(bytes, what);
  if (!isObject(value)) throw new AppError('BAD_USER_INPUT', `${what}: must be a JSON object`);
  return value;
}

/**
 * JSON text as a value, or a 400 naming `what`. Over MAX_SENTRY_ITEM_BYTES a 413: a JSON item
 * is small, and parsing a huge one costs memory several times its size.
 */
export function parseSentryJson(bytes: Buffer, what: string): unknown {
  return readSentryJson(bytes, what).value;
}

/**
 * `parseSentryJson`, also saying whether the text was `plain` (`isPlainJsonText`: no escape that
 * decodes to a NUL or a surrogate), which lets a canonical check stand in for the schema.
 */
export function readSentryJson(bytes: Buffer, what: string): { value: unknown; plain: boolean } {
  if (bytes.length > MAX_SENTRY_ITEM_BYTES) {
    throw new AppError('PAYLOAD_TOO_LARGE', `${what}: exceeds the limit of 1 MB for a JSON item`);
  }
  // A UTF-8 byte order mark is no part of the JSON.
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  if (text.trim().length === 0) throw new AppError('BAD_USER_INPUT', `${what}: is empty`);
  try {
    return { value: secureJsonParse(text, null, PARSE_OPTIONS), plain: isPlainJsonText(text) };
  } catch (err) {
    throw new AppError('BAD_USER_INPUT', `${what}: malformed JSON (${errorMessage(err)})`);
  }
}
