import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate, createInflateRaw } from 'node:zlib';
import { AppError } from '@tracker/core';
import type { FastifyInstance } from 'fastify';

/** The compressions an ingest body may arrive in (`Content-Encoding`), besides `identity`. */
export type Coding = 'gzip' | 'deflate' | 'br';

const SUPPORTED = 'gzip, deflate, br or identity';

/**
 * The coding a `Content-Encoding` header names, or `null` for none (`identity`, or an empty
 * value). Anything else, a list of codings included, is a 415 naming the supported ones: a
 * body compressed twice is not something an SDK sends, and refusing it keeps one limit check.
 */
export function codingOf(header: string, identity: readonly string[] = []): Coding | null {
  const name = header.trim().toLowerCase();
  if (identity.includes(name)) return null;
  switch (name) {
    case '':
    case 'identity':
      return null;
    case 'gzip':
    case 'x-gzip': // RFC 9110 §8.4.1.3: to be read as gzip
      return 'gzip';
    case 'deflate':
      return 'deflate';
    case 'br':
      return 'br';
    default: {
      const shown = name.length > 64 ? `${name.slice(0, 64)}…` : name;
      throw new AppError(
        'UNSUPPORTED_MEDIA_TYPE',
        `Content-Encoding "${shown}" is not supported; send the body as ${SUPPORTED} (one coding, not a list)`,
      );
    }
  }
}

/** `1 MB`, `16 KB`: a body limit as the 413 messages name it. */
export function describeLimit(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KB`;
  return `${bytes} bytes`;
}

/**
 * The decoded body, ending in error as soon as it grows past `limit` bytes. It carries
 * `receivedEncodedLength` (the compressed bytes read): fastify's body reader compares that, not
 * the decoded length, with `Content-Length`.
 */
class LimitedBody extends Transform {
  receivedEncodedLength = 0;
  private decodedLength = 0;

  constructor(
    private readonly limit: number,
    private readonly coding: Coding,
  ) {
    super();
  }

  tooLarge(): AppError {
    return new AppError(
      'PAYLOAD_TOO_LARGE',
      `body exceeds the limit of ${describeLimit(this.limit)} once decoded (Content-Encoding: ${this.coding})`,
    );
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.decodedLength += chunk.length;
    if (this.decodedLength > this.limit) callback(this.tooLarge());
    else callback(null, chunk);
  }
}

/**
 * `raw` decompressed as it is read, at most `limit` bytes of output: past that, the stream ends
 * with a 413 and inflating stops (the decompressor is destroyed and the rest of the request is
 * discarded unread), so a small bomb costs neither memory nor much CPU. Memory is bounded by
 * the streams' buffers: each stage waits for the one after it (backpressure). A body that is
 * not valid data for its coding ends the stream with a 400.
 */
export function decodeBody(raw: Readable, coding: Coding, limit: number): Readable & { receivedEncodedLength: number } {
  const out = new LimitedBody(limit, coding);
  let inflater: Transform | undefined;

  const onData = (chunk: Buffer) => {
    out.receivedEncodedLength += chunk.length;
    // Compressed bytes count too: a chunked request has no Content-Length for fastify to check.
    if (out.receivedEncodedLength > limit) {
      out.destroy(out.tooLarge());
      return;
    }
    if (inflater === undefined) inflater = startInflater(coding, chunk);
    if (!inflater.write(chunk)) raw.pause();
  };
  const startInflater = (c: Coding, first: Buffer): Transform => {
    const z = createDecompressor(c, first);
    z.on('drain', () => raw.resume());
    z.on('error', (err: Error) => out.destroy(corrupt(coding, err)));
    z.pipe(out);
    return z;
  };
  const onEnd = () => {
    if (inflater) inflater.end();
    else out.end(); // no body at all: the JSON parser answers that one
  };
  const onError = (err: Error) => out.destroy(err);

  // Nothing is read before the body reader starts: a request refused without reading its body
  // (a Content-Length over the limit, an unknown Content-Type) is left to node as before.
  out.once('resume', () => {
    raw.on('data', onData);
    raw.on('end', onEnd);
    raw.on('error', onError);
  });
  // fastify listens for errors only while it reads; a late one must not become an uncaught exception.
  out.on('error', () => undefined);
  out.on('close', () => {
    raw.removeListener('data', onData);
    raw.removeListener('end', onEnd);
    raw.removeListener('error', onError);
    if (!out.readableEnded) {
      // Stopped early (limit, corrupt data, a reader that gave up): stop inflating, and let
      // the rest of the request drain unread so the connection can answer and be reused.
      inflater?.unpipe(out);
      inflater?.destroy();
      raw.resume();
    }
  });
  return out;
}

function createDecompressor(coding: Coding, first: Buffer): Transform {
  switch (coding) {
    case 'gzip':
      return createGunzip();
    case 'br':
      return createBrotliDecompress();
    case 'deflate':
      // "deflate" means zlib-wrapped (RFC 9110), but some clients send raw deflate: the
      // header tells them apart, since a raw stream never starts with a valid zlib header.
      return isZlibHeader(first) ? createInflate() : createInflateRaw();
  }
}

/** RFC 1950: compression method 8 with a window of at most 32 KB, and a header check multiple of 31. */
export function isZlibHeader(b: Buffer): boolean {
  const cmf = b[0];
  if ((cmf & 0x0f) !== 8 || cmf >> 4 > 7) return false;
  return b.length < 2 || ((cmf << 8) | b[1]) % 31 === 0;
}

function corrupt(coding: Coding, err: Error): AppError {
  return new AppError('BAD_USER_INPUT', `body: not valid ${coding} data (${err.message}); Content-Encoding: ${coding}`);
}

/**
 * Honours `Content-Encoding` on every route of an ingest scope: gzip, deflate (zlib-wrapped or
 * raw) and br are decoded as the body is read, within the route's own body limit applied to
 * the decoded size; `identity` passes; anything else is a 415. Requests without the header
 * get one property read and go on untouched.
 */
export function registerContentDecoding(
  scope: FastifyInstance,
  options: {
    /** More names (lower case) that mean "not compressed" on this scope. */
    identity?: readonly string[];
  } = {},
): void {
  const identity = options.identity ?? [];
  // A callback hook, not an async one: it runs on every ingest request that reaches fastify.
  scope.addHook('preParsing', (request, _reply, payload, done) => {
    const header = request.headers['content-encoding'];
    if (header === undefined || request.method !== 'POST') {
      done(null, payload);
      return;
    }
    let coding: Coding | null;
    try {
      coding = codingOf(header, identity);
    } catch (err) {
      done(err as Error);
      return;
    }
    done(null, coding === null ? payload : decodeBody(payload, coding, request.routeOptions.bodyLimit));
  });
}
