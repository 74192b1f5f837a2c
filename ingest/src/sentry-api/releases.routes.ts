import {
  createReleaseVersion,
  findPreviousReleaseWithCommits,
  findReleaseSummary,
  readReleaseCommits,
  requireReleaseSummary,
  requireTokenPath,
  setReleaseCommits,
  updateReleaseVersion,
  type UploadTokenScope,
} from '@tracker/core';
import type { DataSource } from 'typeorm';
import { registerDeployRoutes } from './deploys.routes';
import {
  commitsOf,
  newReleaseSchema,
  parseSentryBody,
  releaseJson,
  requireProjects,
  updateReleaseSchema,
  type ReleaseChanges,
} from './release-bodies';
import type { SentryApi, SentryApiCall } from './sentry-api-route';

/** set-commits with 1,000 commits of many files each fits; fastify's 1 MB default would not. */
const RELEASE_BODY_BYTES = 10 * 1024 * 1024;

/**
 * Releases as sentry-cli's `releases` commands and the bundler plugins call them. Writes go
 * through core's release code (`createReleaseVersion` registers exactly as `/ingest/release`);
 * every project named in a body must be the token's (403).
 */
export function registerReleaseRoutes(api: SentryApi): void {
  const limit = { bodyLimit: RELEASE_BODY_BYTES };
  const create = async (call: SentryApiCall, orgRoute: boolean) => {
    const body = parseSentryBody(newReleaseSchema, call.request.body);
    requireProjects(body.projects, orgRoute);
    requireTokenPath(call.token, { projects: body.projects ?? [] });
    const existed = (await findReleaseSummary(call.deps.ds, call.token.project.id, body.version)) !== null;
    await createReleaseVersion(call.deps.ds, {
      projectId: call.token.project.id,
      version: body.version,
      url: body.url,
      dateReleased: body.dateReleased,
      at: call.deps.clock ? new Date(call.deps.clock()) : undefined,
    });
    const summary = await applyCommits(call.deps.ds, call.token, body.version, body);
    call.reply.code(existed ? 208 : 201);
    return releaseJson(summary, call.token);
  };
  api.route('POST', '/organizations/:org/releases/', (call) => create(call, true), limit);
  api.route('POST', '/projects/:org/:project/releases/', (call) => create(call, false), limit);

  for (const base of ['/organizations/:org/releases/:version/', '/projects/:org/:project/releases/:version/']) {
    api.route('GET', base, async ({ deps, token, params }) =>
      releaseJson(await requireReleaseSummary(deps.ds, token.project.id, params.version), token),
    );
    api.route(
      ['PUT', 'POST'],
      base,
      async (call) => {
        const body = parseSentryBody(updateReleaseSchema, call.request.body);
        requireTokenPath(call.token, { projects: body.projects ?? [] });
        await updateReleaseVersion(call.deps.ds, {
          projectId: call.token.project.id,
          version: call.params.version,
          url: body.url,
          dateReleased: body.dateReleased,
        });
        return releaseJson(await applyCommits(call.deps.ds, call.token, call.params.version, body), call.token);
      },
      limit,
    );
  }

  api.route('GET', '/organizations/:org/releases/:version/commits/', async ({ deps, token, params }) => {
    await requireReleaseSummary(deps.ds, token.project.id, params.version);
    const commits = await readReleaseCommits(deps.ds, token.project.id, params.version, 1_000);
    return commits.map((c) => ({
      id: c.id,
      message: c.message,
      dateCreated: c.timestamp?.toISOString() ?? null,
      author: c.authorEmail || c.authorName ? { name: c.authorName, email: c.authorEmail } : null,
      repository: c.repository,
    }));
  });

  // `--local` starts its range at the previous release's newest commit; `{}` means none.
  api.route('GET', '/organizations/:org/releases/:version/previous-with-commits/', async ({ deps, token, params }) => {
    const previous = await findPreviousReleaseWithCommits(deps.ds, token.project.id, params.version);
    if (!previous) return {};
    const summary = await findReleaseSummary(deps.ds, token.project.id, previous.version);
    return summary ? releaseJson(summary, token) : {};
  });

  // No repository integrations: sentry-cli then reads commits from the local git repository
  // (set-commits `--local`, and `--auto` / `--commit` fall back to it).
  api.route('GET', '/organizations/:org/repos/', async () => []);

  registerDeployRoutes(api);
}

async function applyCommits(ds: DataSource, token: UploadTokenScope, version: string, body: ReleaseChanges) {
  const commits = commitsOf(body);
  if (commits) await setReleaseCommits(ds, { projectId: token.project.id, version, commits });
  return requireReleaseSummary(ds, token.project.id, version);
}
