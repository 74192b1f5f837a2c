import { listReleaseDeploys, registerReleaseDeploy, requireReleaseSummary, requireTokenPath } from '@tracker/core';
import { deploySchema, parseSentryBody } from './release-bodies';
import type { SentryApi } from './sentry-api-route';

/**
 * `deploys new` and `deploys list`. A deploy registers the version for its environment as
 * `/ingest/release` does (plan gate, deploy time bumped): it is what regressions and release
 * health read. Name, URL and the start time are not kept; the answer echoes them.
 */
export function registerDeployRoutes(api: SentryApi): void {
  api.route(
    'POST',
    '/organizations/:org/releases/:version/deploys/',
    async ({ request, reply, deps, token, params }) => {
      const body = parseSentryBody(deploySchema, request.body);
      requireTokenPath(token, { projects: body.projects ?? [] });
      const deploy = await registerReleaseDeploy(deps.ds, {
        projectId: token.project.id,
        version: params.version,
        environment: body.environment,
        // Now, as /ingest/release: a client-chosen time would reorder deploys (regressions read the order).
        at: deps.clock ? new Date(deps.clock()) : undefined,
      });
      reply.code(201);
      return {
        id: `${token.project.number}:${params.version}:${deploy.environment}`,
        environment: deploy.environment,
        name: body.name ?? null,
        url: body.url ?? null,
        dateStarted: body.dateStarted?.toISOString() ?? null,
        dateFinished: deploy.deployedAt.toISOString(),
      };
    },
  );

  api.route('GET', '/organizations/:org/releases/:version/deploys/', async ({ deps, token, params }) => {
    await requireReleaseSummary(deps.ds, token.project.id, params.version);
    const rows = await listReleaseDeploys(deps.ds, token.project.id, params.version);
    return rows.map((r) => ({
      id: `${token.project.number}:${params.version}:${r.environment}`,
      environment: r.environment,
      name: null,
      url: null,
      dateStarted: null,
      dateFinished: r.deployedAt.toISOString(),
    }));
  });
}
