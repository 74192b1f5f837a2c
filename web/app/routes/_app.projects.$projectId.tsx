import { data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { NavLink, Outlet, useLoaderData } from '@remix-run/react';
import { ErrorMessage } from '../components/error-message';
import { queryApi } from '../lib/graphql.server';
import { projectPath } from '../lib/paths';
import { graphql } from '../graphql';

const PROJECT_QUERY = graphql(`
  query Project($id: ID!) {
    project(id: $id) {
      id
      name
      dsn
      organizationId
    }
  }
`);

export type Project = { id: string; name: string; dsn: string; organizationId: string };

export async function loader(args: LoaderFunctionArgs) {
  const { project } = await queryApi(args, PROJECT_QUERY, { id: args.params.projectId ?? '' });
  // The API answers null both for a missing project and for someone else's: same 404 for both.
  if (!project) throw data({ message: 'This project does not exist or is not yours.' }, { status: 404 });
  return { project };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.project.name} · Tracker` : 'Project · Tracker' },
];

/** The project's sections, in the order of the navigation. */
const SECTIONS = [
  ['issues', 'Issues'],
  ['releases', 'Releases'],
  ['performance', 'Performance'],
  ['logs', 'Logs'],
  ['feedback', 'Feedback'],
  ['alerts', 'Alerts'],
  ['settings', 'Settings'],
  ['billing', 'Billing'],
] as const;

export default function ProjectLayout() {
  const { project } = useLoaderData<typeof loader>();
  const base = projectPath(project.id);
  return (
    <>
      <div className="project-head">
        <h1>{project.name}</h1>
        <nav aria-label="Project" className="tabs">
          {SECTIONS.map(([path, label]) => (
            <NavLink key={path} to={`${base}/${path}`} prefetch="intent">
              {label}
            </NavLink>
          ))}
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
