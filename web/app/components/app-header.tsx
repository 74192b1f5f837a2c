import { Form, Link, useLocation, useParams } from '@remix-run/react';
import { useEffect, useRef } from 'react';
import { projectPath } from '../lib/paths';
import type { Viewer } from '../lib/viewer';

export function AppHeader({ viewer }: { viewer: Viewer }) {
  return (
    <header className="app-header">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Link to="/" className="brand">
        Tracker
      </Link>
      <ProjectSwitcher viewer={viewer} />
      <div className="header-end">
        {viewer.isInstanceAdmin && (
          <Link to="/admin" className="button button-quiet">
            Admin
          </Link>
        )}
        <Link to="/account" className="viewer-email" title="Your account: email, password, sessions, API tokens">
          {viewer.email}
        </Link>
        <Form method="post" action="/logout">
          <button type="submit" className="button button-quiet">
            Sign out
          </button>
        </Form>
      </div>
    </header>
  );
}

// <details> rather than a JS dropdown: it opens and closes without scripts and is keyboard
// accessible as is. Keyed by path so it closes after a client-side navigation; once hydrated,
// Escape and a click elsewhere close it too, as users expect of a menu.
function ProjectSwitcher({ viewer }: { viewer: Viewer }) {
  const { projectId } = useParams();
  const { pathname } = useLocation();
  const ref = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    function close(event: Event) {
      const details = ref.current;
      if (!details?.open) return;
      if (event instanceof KeyboardEvent && event.key === 'Escape') {
        details.open = false;
        details.querySelector('summary')?.focus();
      } else if (event.type === 'click' && !details.contains(event.target as Node)) {
        details.open = false;
      }
    }
    document.addEventListener('keydown', close);
    document.addEventListener('click', close);
    return () => {
      document.removeEventListener('keydown', close);
      document.removeEventListener('click', close);
    };
  }, []);
  const currentOrg = viewer.organizations.find((org) => org.projects.some((p) => p.id === projectId));
  const current = currentOrg?.projects.find((p) => p.id === projectId);
  return (
    <details className="switcher" key={pathname} ref={ref}>
      <summary>
        {currentOrg && current ? (
          <>
            <span className="visually-hidden">Organization: </span>
            <span className="switcher-current-org">{currentOrg.name}</span>
            <span aria-hidden="true" className="switcher-sep">
              /
            </span>
            <span className="visually-hidden">, project: </span>
            {current.name}
          </>
        ) : (
          'Select a project'
        )}
      </summary>
      <nav aria-label="Projects" className="switcher-menu">
        {viewer.organizations.map((org) => (
          <section key={org.id}>
            <h2 className="switcher-org">
              {org.name} <span className="plan-badge">{org.plan}</span>
            </h2>
            <Link to={`/orgs/${encodeURIComponent(org.slug)}/settings`} className="switcher-settings">
              Organization settings<span className="visually-hidden">: {org.name}</span>
            </Link>
            <ul>
              {org.projects.map((project) => (
                <li key={project.id}>
                  <Link
                    to={projectPath(project.id, 'issues')}
                    aria-current={project.id === projectId ? 'page' : undefined}
                  >
                    {project.name}
                  </Link>
                </li>
              ))}
              {org.projects.length === 0 && <li className="muted">No projects yet</li>}
              <li>
                <Link to={`/orgs/${encodeURIComponent(org.slug)}/audit`} className="muted">
                  Audit log of {org.name}
                </Link>
              </li>
            </ul>
          </section>
        ))}
        <Link to="/projects/new" className="switcher-new">
          + New project
        </Link>
        {/* The header's email (the account link) is hidden on a phone: the account is here too. */}
        <Link to="/account" className="switcher-new">
          Your account
        </Link>
      </nav>
    </details>
  );
}
