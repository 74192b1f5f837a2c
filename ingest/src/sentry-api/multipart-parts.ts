import { gunzipSync } from 'node:zlib';
import { AppError } from '@tracker/core';
import type { FastifyInstance } from 'fastify';

/** A file part of a multipart body: its field name, its file name and its bytes. */
export interface FilePart {
  field: string;
  filename: string;
  data: Buffer;
}

export interface MultipartBody {
  files: FilePart[];
  /** The plain text fields (`name`, `dist`, …), the first value of each. */
  fields: Record<string, string>;
}

/**
 * Takes `multipart/form-data` bodies on the `/api/0/` scope as bytes, within each route's body
 * limit; `readMultipart` then splits them. Node's own parser (undici's `Response.formData`, the
 * one `fetch` uses) does the splitting: no hand-written boundary scanning, no extra dependency.
 */
export function acceptMultipart(scope: FastifyInstance): void {
  scope.addContentTypeParser('multipart/form-data', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
}

export async function readMultipart(body: unknown, contentType: string | undefined): Promise<MultipartBody> {
  if (!Buffer.isBuffer(body) || !contentType?.toLowerCase().startsWith('multipart/form-data')) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'expected a multipart/form-data body');
  }
  let form: FormData;
  try {
    form = await new Response(body, { headers: { 'content-type': contentType } }).formData();
  } catch (error) {
    throw new AppError('BAD_USER_INPUT', `malformed multipart body (${(error as Error).message})`);
  }
  const out: MultipartBody = { files: [], fields: {} };
  for (const [field, value] of form.entries()) {
    if (typeof value === 'string') {
      if (!(field in out.fields)) out.fields[field] = value;
    } else {
      out.files.push({ field, filename: value.name, data: Buffer.from(await value.arrayBuffer()) });
    }
  }
  return out;
}

/** A gzip part inflated, refused past `maxBytes` (a chunk is at most the advertised size). */
export function gunzipPart(part: FilePart, maxBytes: number): Buffer {
  try {
    return gunzipSync(part.data, { maxOutputLength: maxBytes });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new AppError(
        'PAYLOAD_TOO_LARGE',
        `part "${part.filename.slice(0, 60)}": larger than ${maxBytes} bytes once inflated`,
      );
    }
    throw new AppError('BAD_USER_INPUT', `part "${part.filename.slice(0, 60)}": not valid gzip`);
  }
}
