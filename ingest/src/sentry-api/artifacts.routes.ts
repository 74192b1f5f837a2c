import {
  AppError,
  assembleArtifactBundle,
  CHUNK_SIZE_BYTES,
  CHUNKS_PER_REQUEST,
  MAX_BUNDLE_BYTES,
  MAX_REQUEST_BYTES,
  requireTokenPath,
  storeChunks,
  UPLOAD_CONCURRENCY,
  type UploadTokenScope,
} from '@tracker/core';
import { z } from 'zod';
import { parseBody } from '../http/parse-body';
import { acceptMultipart, gunzipPart, readMultipart } from './multipart-parts';
import { registerReleaseFileRoutes } from './release-files.routes';
import { parseVersion, versionText } from './version-param';
import type { SentryApi } from './sentry-api-route';

const ASSEMBLE_BODY_BYTES = 256 * 1024;

const assembleSchema = z.object({
  checksum: z.string(),
  chunks: z.array(z.string()).max(1_000),
  projects: z
    .array(z.union([z.string(), z.number()]))
    .max(100)
    .optional(),
  version: versionText.nullish(),
  dist: z.string().max(64).nullish(),
});

/**
 * sentry-cli's upload path (decision 044): the chunk-upload options and chunks, and the
 * assembly of an artifact bundle, standalone or bound to a release. Chunks belong to the
 * organization, as in Sentry; maps are stored for the token's project only.
 */
export function registerArtifactRoutes(api: SentryApi): void {
  acceptMultipart(api.scope);
  registerReleaseFileRoutes(api);

  api.route('GET', '/organizations/:org/chunk-upload/', async ({ params }) => ({
    // Relative: sentry-cli resolves it against its own SENTRY_URL, so a proxy's host never leaks in.
    url: `/organizations/${encodeURIComponent(params.org)}/chunk-upload/`,
    chunkSize: CHUNK_SIZE_BYTES,
    chunksPerRequest: CHUNKS_PER_REQUEST,
    maxFileSize: MAX_BUNDLE_BYTES,
    maxRequestSize: MAX_REQUEST_BYTES,
    concurrency: UPLOAD_CONCURRENCY,
    maxWait: 60,
    hashAlgorithm: 'sha1',
    compression: ['gzip'],
    // What sentry-cli 2.x looks for before it uploads bundles; 3.x assumes them.
    accept: ['artifact_bundles', 'artifact_bundles_v2', 'release_files', 'sources'],
  }));

  api.route(
    'POST',
    '/organizations/:org/chunk-upload/',
    async ({ request, token }) => {
      const body = await readMultipart(request.body, request.headers['content-type']);
      if (body.files.length > CHUNKS_PER_REQUEST) {
        throw new AppError(
          'PAYLOAD_TOO_LARGE',
          `at most ${CHUNKS_PER_REQUEST} chunks per request (got ${body.files.length})`,
        );
      }
      const chunks = body.files.map((part) => {
        if (part.field !== 'file' && part.field !== 'file_gzip') {
          throw new AppError('BAD_USER_INPUT', `part "${part.field.slice(0, 40)}": expected "file" or "file_gzip"`);
        }
        const data = part.field === 'file_gzip' ? gunzipPart(part, CHUNK_SIZE_BYTES) : part.data;
        return { checksum: part.filename, data };
      });
      await storeChunks(api.deps.ds, token.organization.id, chunks);
      return {};
    },
    { bodyLimit: MAX_REQUEST_BYTES },
  );

  api.route(
    'POST',
    '/organizations/:org/artifactbundle/assemble/',
    async ({ request, token }) => assemble(api, token, parseBody(assembleSchema, request.body), null),
    { bodyLimit: ASSEMBLE_BODY_BYTES },
  );

  api.route(
    'POST',
    '/organizations/:org/releases/:version/assemble/',
    async ({ request, token, params }) =>
      assemble(api, token, parseBody(assembleSchema, request.body), parseVersion(params.version)),
    { bodyLimit: ASSEMBLE_BODY_BYTES },
  );
}

/** The bundle's projects must be the token's (403 otherwise, before anything is read). */
async function assemble(
  api: SentryApi,
  token: UploadTokenScope,
  body: z.output<typeof assembleSchema>,
  version: string | null,
) {
  requireTokenPath(token, { projects: body.projects ?? [] });
  return assembleArtifactBundle(api.deps.ds, {
    organizationId: token.organization.id,
    projectId: token.project.id,
    checksum: body.checksum,
    chunks: body.chunks,
    release: version ?? body.version ?? null,
    dist: body.dist ?? null,
  });
}
