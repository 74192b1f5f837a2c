import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SdkAssets, SdkFile } from './sdk-assets';

/** Versioned URLs never change content: a year, immutable (no revalidation on reload). */
const VERSIONED_CACHE = 'public, max-age=31536000, immutable';
/** Unversioned URLs follow upgrades of the instance: five minutes, then revalidate by ETag. */
const LATEST_CACHE = 'public, max-age=300, must-revalidate';

type Coding = 'br' | 'gzip' | 'identity';

/** The best coding the client accepts among those we hold (br, then gzip); `q=0` refuses. */
export function chooseCoding(acceptEncoding: string | undefined, available: SdkFile['encoded']): Coding {
  const accepted = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    if (!coding) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    accepted.set(coding, q ? Number(q.slice(2)) || 0 : 1);
  }
  const ok = (c: string) => (accepted.get(c) ?? accepted.get('*') ?? 0) > 0;
  // ok() first: reading a coding compresses it (lazily, once)
  if (ok('br') && available.br) return 'br';
  if (ok('gzip') && available.gzip) return 'gzip';
  return 'identity';
}

function notFound(reply: FastifyReply, message: string) {
  return reply
    .code(404)
    .header('access-control-allow-origin', '*')
    .header('cache-control', 'no-store')
    .send({ error: { code: 'NOT_FOUND', message } });
}

/**
 * `GET /sdk/<file>` and `GET /sdk/<version>/<file>`: the browser SDK as a script and an ES
 * module (with their source maps) and the SDKs' npm tarballs (docs/decisions/014). Scripts are
 * loaded cross-origin with `crossorigin="anonymous"` for SRI, hence CORS `*` and CORP.
 */
export function registerSdkRoutes(app: FastifyInstance, assets: SdkAssets | undefined): void {
  function serve(request: FastifyRequest, reply: FastifyReply, name: string, version?: string) {
    if (!assets) return notFound(reply, 'The SDK files were not built on this instance: run `npm run build`.');
    const file = assets.find(name);
    if (!file) return notFound(reply, `No SDK file ${name}.`);
    if (version !== undefined && version !== file.version) {
      return notFound(reply, `This instance serves ${name} version ${file.version}, not ${version}.`);
    }
    const coding = chooseCoding(request.headers['accept-encoding'], file.encoded);
    const body = coding === 'identity' ? file.body : file.encoded[coding]!;
    const etag = coding === 'identity' ? file.etag : `${file.etag.slice(0, -1)}-${coding}"`;
    reply
      .header('content-type', file.contentType)
      .header('cache-control', version === undefined ? LATEST_CACHE : VERSIONED_CACHE)
      .header('etag', etag)
      .header('access-control-allow-origin', '*')
      .header('cross-origin-resource-policy', 'cross-origin')
      .header('x-content-type-options', 'nosniff');
    if (Object.keys(file.encoded).length > 0) reply.header('vary', 'Accept-Encoding');
    if (coding !== 'identity') reply.header('content-encoding', coding);
    if (file.contentType.startsWith('application/gzip')) {
      reply.header('content-disposition', `attachment; filename="${name.replace('.tgz', `-${file.version}.tgz`)}"`);
    }
    const ifNoneMatch = request.headers['if-none-match'];
    if (ifNoneMatch && ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === etag || t.trim() === '*')) {
      return reply.code(304).send();
    }
    return reply.header('content-length', body.length).send(body);
  }

  app.get<{ Params: { file: string } }>('/sdk/:file', (request, reply) => serve(request, reply, request.params.file));
  app.get<{ Params: { version: string; file: string } }>('/sdk/:version/:file', (request, reply) =>
    serve(request, reply, request.params.file, request.params.version),
  );
}
