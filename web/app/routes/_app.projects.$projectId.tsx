import { data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { NavLink, Outlet, useLoaderData, useLocation } from '@remix-run/react';
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
  ['monitors', 'Monitors'],
  ['alerts', 'Alerts'],
  ['settings', 'Settings'],
  ['billing', 'Billing'],
] as const;

/** Tabs a phone shows in the row; the rest are under "More" (the current one always in the row). */
const PHONE_TABS = 3;

export default function ProjectLayout() {
  const { project } = useLoaderData<typeof loader>();
  const { pathname } = useLocation();
  const base = projectPath(project.id);
  const tabs = [
    ...SECTIONS.map(([path, label]) => ({ to: `${base}/${path}`, label, end: false })),
    { to: base, label: 'Setup', end: true },
  ];
  const current = tabs.findIndex((t) =>
    t.end ? pathname === t.to : pathname === t.to || pathname.startsWith(`${t.to}/`),
  );
  // The row keeps its width: a current tab from past the first ones takes the last slot.
  const row = current >= PHONE_TABS ? [...tabs.slice(0, PHONE_TABS - 1), tabs[current]] : tabs.slice(0, PHONE_TABS);
  const extra = tabs.filter((t) => !row.includes(t));
  return (
    <>
      <div className="project-head">
        <h1>{project.name}</h1>
        {/* On a phone the extra tabs hide from the row (CSS) and "More" lists them: every section
            stays one tap away without a sideways scroll that hides half of them. */}
        <nav aria-label="Project" className="tabs project-tabs">
          {tabs.map((t) => (
            <NavLink
              key={t.to}
              to={t.to}
              end={t.end}
              prefetch="intent"
              className={extra.includes(t) ? 'tab-extra' : undefined}
            >
              {t.label}
            </NavLink>
          ))}
          {/* Keyed by the path: a client-side navigation from the menu closes it. */}
          <details className="tabs-more" key={pathname}>
            <summary>More</summary>
            <ul>
              {extra.map((t) => (
                <li key={t.to}>
                  <NavLink to={t.to} end={t.end}>
                    {t.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </details>
        </nav>
      </div>
      <Outlet />
    </>
  );
}

export function ErrorBoundary() {
  return <ErrorMessage />;
}
