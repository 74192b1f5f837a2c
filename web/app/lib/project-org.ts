import { useRouteLoaderData } from '@remix-run/react';
import type { loader as appLoader } from '../routes/_app';
import type { loader as projectLoader } from '../routes/_app.projects.$projectId';

/** The current project (from its layout) and its organization (from the viewer), for child routes. */
export function useProjectAndOrg() {
  const app = useRouteLoaderData<typeof appLoader>('routes/_app');
  const parent = useRouteLoaderData<typeof projectLoader>('routes/_app.projects.$projectId');
  const project = parent?.project;
  const organization = app?.viewer.organizations.find((o) => o.id === project?.organizationId);
  return { project, organization };
}
