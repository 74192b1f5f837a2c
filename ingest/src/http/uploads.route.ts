import {
  AppError,
  authenticateUploadToken,
  registerRelease,
  requireReleaseHealth,
  normalizeDebugId,
  storeDebugIdMaps,
  storeSourceMaps,
  validateSourceMap,
  type DebugIdMap,
  type SourceMapFile,
} from '@tracker/core';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DataSource } from 'typeorm';
import { z } from 'zod';
import { parseBody } from './parse-body';
import { ingestErrorHandler, sendError } from './wire-errors';

/** docs/wire.md: at most 50 files and 10 MB per source-map batch. */
export const MAX_SOURCEMAP_FILES = 50;
export const MAX_SOURCEMAP_BATCH_BYTES = 10 * 1024 * 1024;
const RELEASE_BODY_BYTES = 16 * 1024;

/** A bare file name: the server never takes a path from a client (no `/`, `\`, or dot-only names). */
const bareFilename = z
  .string()
  .min(1, 'must not be empty')
  .max(255)
  .refine((f) => !/[/\\]/.test(f) && f !== '.' && f !== '..' && !/[\u0000-\u001f]/.test(f), {
    message: 'must be a file name without a path (e.g. "main.3f2a1c.js.map")',
  });

export const versionField = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(200)
  .refine((v) => !/[\u0000-\u001f]/.test(v), 'must not contain control characters');

const sourcemapsSchema = z.object({
  release: versionField,
  // `map` as JSON text (what the uploader sends) or as the parsed object.
  files: z.array(
    z.object({
      filename: bareFilename,
      map: z.union([z.string(), z.record(z.string(), z.unknown())]),
      // What `sentry-cli sourcemaps inject` wrote into the script (decision 044): also stored by it.
      debugId: z
        .string()
        .transform(
          (id, ctx) => normalizeDebugId(id) ?? (ctx.addIssue({ code: 'custom', message: 'must be a UUID' }), z.NEVER),
        )
        .optional(),
    }),
  ),
});

const releaseSchema = z.object({
  version: versionField,
  environment: z.string().trim().min(1, 'must not be empty').max(64).nullish(),
});

/**
 * Upload-token routes: `POST /ingest/sourcemaps` and `POST /ingest/release`. Unlike events they
 * answer only after the database write (the caller, a deploy script, wants to know it stuck),
 * and a DSN key is refused: it ships in browsers, so it may never register or upload anything.
 */
export function registerUploadRoutes(app: FastifyInstance, deps: { ds: DataSource }): void {
  app.post(
    '/sourcemaps',
    { bodyLimit: MAX_SOURCEMAP_BATCH_BYTES, errorHandler: limitAwareErrorHandler('10 MB') },
    async (request, reply) => {
      const { projectId } = await authenticateUploadToken(deps.ds, request.headers.authorization);
      if (
        isObject(request.body) &&
        Array.isArray(request.body.files) &&
        request.body.files.length > MAX_SOURCEMAP_FILES
      ) {
        throw new AppError(
          'PAYLOAD_TOO_LARGE',
          `files: at most ${MAX_SOURCEMAP_FILES} per request (got ${request.body.files.length}); send several batches`,
        );
      }
      const body = parseBody(sourcemapsSchema, request.body);
      if (body.files.length === 0) throw new AppError('BAD_USER_INPUT', 'files: must contain at least one source map');
      const seen = new Set<string>();
      const byDebugId = new Map<string, DebugIdMap>();
      const files: SourceMapFile[] = body.files.map((f, i) => {
        if (seen.has(f.filename))
          throw new AppError('BAD_USER_INPUT', `files[${i}].filename: "${f.filename}" appears twice`);
        seen.add(f.filename);
        const text = typeof f.map === 'string' ? f.map : JSON.stringify(f.map);
        // Every map is checked before any is stored: a batch is stored whole or not at all.
        validateSourceMap(f.filename, text);
        if (f.debugId !== undefined) byDebugId.set(f.debugId, { debugId: f.debugId, filename: f.filename, map: text });
        return { filename: f.filename, map: text };
      });
      const stored = await deps.ds.transaction(async (em) => {
        await storeDebugIdMaps(em, projectId, [...byDebugId.values()]);
        return storeSourceMaps(em, { projectId, release: body.release, files });
      });
      return reply.code(200).send({ release: body.release, stored });
    },
  );

  app.post(
    '/release',
    { bodyLimit: RELEASE_BODY_BYTES, errorHandler: limitAwareErrorHandler('16 KB') },
    async (request, reply) => {
      const { projectId } = await authenticateUploadToken(deps.ds, request.headers.authorization);
      const body = parseBody(releaseSchema, request.body);
      await requireReleaseHealth(deps.ds, projectId);
      const release = await registerRelease(deps.ds, {
        projectId,
        version: body.version,
        environment: body.environment,
      });
      return reply.code(200).send({
        version: release.version,
        environment: release.environment,
        deployedAt: release.deployedAt.toISOString(),
      });
    },
  );
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The shared ingest handler, with the 413 message naming this route's own limit. */
function limitAwareErrorHandler(limit: string) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return sendError(reply, 'PAYLOAD_TOO_LARGE', `body exceeds the limit of ${limit}`);
    }
    return ingestErrorHandler(error, request, reply);
  };
}
