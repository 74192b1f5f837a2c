import { inflateRawSync, inflateSync } from 'node:zlib';
import { AppError, errorMessage } from '@tracker/core';
import { describeLimit, isZlibHeader } from '../http/content-encoding';

const OPEN_BRACE = 0x7b;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
/** Standard or URL-safe base64, padded or not, with line breaks (some encoders wrap at 76). */
const BASE64 = /^[A-Za-z0-9+/_\-\r\n]+={0,2}\s*$/;

/**
 * The JSON text of a `/store/` body. Besides plain JSON (and a `Content-Encoding` already
 * decoded by the scope), old SDKs send it in their own wrapping, with no header saying so:
 * raven-ruby (`encoding = 'gzip'`, its default) and raven-go (bodies over 1,000 bytes) send the
 * base64 of zlib-deflated JSON as `application/octet-stream`; others send the zlib bytes
 * themselves. Sentry's own store endpoint reads the body the same way, by looking at it:
 * JSON starts with `{`, zlib with its two-byte header, anything else that is base64 is decoded
 * and looked at again (zlib, raw deflate, or JSON).
 *
 * Inflating stops at `limit` bytes of output, the route's own body limit, as for gzip: a small
 * bomb is a 413 having cost at most `limit` bytes of memory. Data that is not what it looks
 * like is a 400 naming the wrapping.
 */
export function decodeStoreBody(body: Buffer, limit: number): Buffer {
  const first = firstSignificant(body);
  if (first < 0 || body[first] === OPEN_BRACE) return body;
  if (body.length - first >= 2 && isZlibHeader(body.subarray(first))) {
    return inflate(body.subarray(first), 'zlib', limit, false);
  }
  const text = body.toString('latin1');
  if (!BASE64.test(text.trim())) return body; // not ours to decode: the JSON reader says what is wrong
  const decoded = Buffer.from(text, 'base64');
  const start = firstSignificant(decoded);
  if (start < 0) return body;
  if (decoded[start] === OPEN_BRACE) return decoded;
  if (decoded.length >= 2 && isZlibHeader(decoded)) return inflate(decoded, 'base64+zlib', limit, false);
  return inflate(decoded, 'base64+deflate', limit, true);
}

/** Inflated, at most `limit` bytes: past that zlib stops and throws ERR_BUFFER_TOO_LARGE. */
function inflate(data: Buffer, wrapping: string, limit: number, raw: boolean): Buffer {
  try {
    return raw ? inflateRawSync(data, { maxOutputLength: limit }) : inflateSync(data, { maxOutputLength: limit });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new AppError(
        'PAYLOAD_TOO_LARGE',
        `body exceeds the limit of ${describeLimit(limit)} once decoded (${wrapping})`,
      );
    }
    throw new AppError('BAD_USER_INPUT', `body: not valid ${wrapping} data (${errorMessage(err)})`);
  }
}

/** The index of the first byte that is not whitespace or a UTF-8 byte order mark, or -1. */
function firstSignificant(b: Buffer): number {
  let i = b.subarray(0, 3).equals(BOM) ? 3 : 0;
  while (i < b.length && (b[i] === 0x20 || b[i] === 0x0a || b[i] === 0x0d || b[i] === 0x09)) i++;
  return i < b.length ? i : -1;
}
