import { createHash, randomUUID } from 'node:crypto';
import { AppError, isPlainMapFilename, storeSourceMaps, validateSourceMap } from '@tracker/core';
import { parseVersion } from './version-param';
import { readMultipart } from './multipart-parts';
import type { SentryApi } from './sentry-api-route';

/** One file per request; a map this large is already far past what a browser loads. */
const MAX_RELEASE_FILE_BYTES = 32 * 1024 * 1024;

/**
 * The legacy release-files upload (`sentry-cli releases files upload`, sentry-cli 1.x and
 * `sourcemaps upload` against servers without artifact bundles): one multipart `file` and its
 * `name` (`~/app.js.map`). Maps are validated and stored under the release and the name's
 * basename, like `/ingest/sourcemaps`; other files (the minified sources) are acknowledged and
 * not kept, because a frame finds its map by its own file name (docs/sentry-compatibility.md).
 */
export function registerReleaseFileRoutes(api: SentryApi): void {
  api.route(
    'POST',
    '/projects/:org/:project/releases/:version/files/',
    async ({ request, reply, token, params }) => {
      const version = parseVersion(params.version);
      const body = await readMultipart(request.body, request.headers['content-type']);
      const file = body.files.find((f) => f.field === 'file');
      if (!file) throw new AppError('BAD_USER_INPUT', 'file: a multipart part named "file" is required');
      const name = (body.fields.name ?? file.filename ?? '').trim();
      if (name === '') throw new AppError('BAD_USER_INPUT', 'name: is required');
      const path = name.replace(/[?#].*$/s, '');
      const base = path.slice(path.lastIndexOf('/') + 1);
      const text = file.data.toString('utf8');
      const isMap = base.endsWith('.map') || /^\s*\{/.test(text.slice(0, 64));
      if (isMap) {
        if (!isPlainMapFilename(base))
          throw new AppError('BAD_USER_INPUT', `name: "${name.slice(0, 200)}" has no usable file name`);
        validateSourceMap(base, text);
        await storeSourceMaps(api.deps.ds, {
          projectId: token.project.id,
          release: version,
          files: [{ filename: base, map: text }],
        });
      }
      reply.code(201);
      return {
        id: randomUUID(),
        name,
        dist: body.fields.dist ?? null,
        headers: {},
        size: file.data.length,
        sha1: createHash('sha1').update(file.data).digest('hex'),
        dateCreated: new Date().toISOString(),
      };
    },
    { bodyLimit: MAX_RELEASE_FILE_BYTES },
  );
}
