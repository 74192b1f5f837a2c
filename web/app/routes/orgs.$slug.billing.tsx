import { redirect, type LoaderFunctionArgs } from '@remix-run/node';
import { queryApi } from '../lib/graphql.server';
import { createLoginRedirect, findSessionToken } from '../lib/session.server';
import { graphql } from '../graphql';

const ORG_PROJECTS_QUERY = graphql(`
  query OrgProjects {
    viewer {
      id
      organizations {
        slug
        projects {
          id
        }
      }
    }
  }
`);

// Usage-warning emails link to an organization's billing (`/orgs/<slug>/billing`, see
// core/src/quotas/usage-warning-email.ts); the dashboard shows billing under a project of it.
export async function loader(args: LoaderFunctionArgs) {
  if (!(await findSessionToken(args.request, args.context)))
    throw await createLoginRedirect(args.request, args.context);
  const { viewer } = await queryApi(args, ORG_PROJECTS_QUERY);
  if (!viewer) throw await createLoginRedirect(args.request, args.context);
  const org = viewer.organizations.find((o) => o.slug === args.params.slug);
  // Not a member (or no such organization): the same answer either way.
  if (!org) throw new Response('Not found', { status: 404 });
  const project = org.projects[0];
  return redirect(project ? `/projects/${encodeURIComponent(project.id)}/billing` : '/projects/new');
}
