import { data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { NavLink, Outlet, useLoaderData } from '@remix-run/react';
import { ErrorMessage } from '../components/error-message';
import { queryApi } from '../lib/graphql.server';

const PROJECT_QUERY = /* GraphQL */ `
  query Project($id: ID!) {
    project(id: $id) {
      id
      name
      dsn
      organizationId
    }
  }
`;

export type Project = { id: string; name: string; dsn: string; organizationId: string };

export async function loader(args: LoaderFunctionArgs) {
  const { project } = await queryApi<{ project: Project | null }>(args, PROJECT_QUERY, { id: args.params.projectId });
  // The API answers null both for a missing project and for someone else's: same 404 for both.
  if (!project) throw data({ message: 'This project does not exist or is not yours.' }, { status: 404 });
  return { project };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.project.name} · Tracker` : 'Project · Tracker' },
];

export default function ProjectLayout() {
  const { project } = useLoaderData<typeof loader>();
  const base = `/projects/${encodeURIComponent(project.id)}`;
  return (
    <>
      <div className="project-head">
        <h1>{project.name}</h1>
        <nav aria-label="Project" className="tabs">
          <NavLink to={`${base}/issues`}>Issues</NavLink>
          <NavLink to={base} end>
            Setup
          </NavLink>
        </nav>
      </div>
      <Outlet />
    </>
  );
}

export function ErrorBoundary() {
  return <ErrorMessage />;
}
