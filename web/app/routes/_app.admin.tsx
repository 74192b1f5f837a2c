import { data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { NavLink, Outlet } from '@remix-run/react';
import { ErrorMessage } from '../components/error-message';
import { queryApi } from '../lib/graphql.server';
import { graphql } from '../graphql';

const ADMIN_VIEWER = graphql(`
  query AdminViewer {
    viewer {
      id
      isInstanceAdmin
    }
  }
`);

export const meta: MetaFunction = () => [{ title: 'Admin · Tracker' }];

// The screen's own gate, so that nobody else sees even its tabs; each section's loader asks the
// API, which refuses anyone but an instance admin (FORBIDDEN: 403 here too).
export async function loader(args: LoaderFunctionArgs) {
  const { viewer } = await queryApi(args, ADMIN_VIEWER);
  if (!viewer?.isInstanceAdmin) {
    throw data({ message: 'Only instance admins can open the admin screen.' }, { status: 403 });
  }
  return null;
}

const SECTIONS = [
  { to: '/admin', label: 'Organizations', end: true },
  { to: '/admin/dead-letters', label: 'Dead letters', end: false },
  { to: '/admin/instance', label: 'Instance', end: false },
] as const;

export default function AdminLayout() {
  return (
    <>
      <div className="project-head">
        <h1>Instance admin</h1>
        <nav aria-label="Admin" className="tabs">
          {SECTIONS.map((s) => (
            <NavLink key={s.to} to={s.to} end={s.end} prefetch="intent">
              {s.label}
            </NavLink>
          ))}
        </nav>
      </div>
      <Outlet />
    </>
  );
}

export function ErrorBoundary() {
  return <ErrorMessage />;
}
