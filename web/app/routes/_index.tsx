import { redirect, type LoaderFunctionArgs } from '@remix-run/node';
import { queryApi } from '../lib/graphql.server';
import { createLoginRedirect, findSessionToken } from '../lib/session.server';
import { graphql } from '../graphql';

const FIRST_PROJECT_QUERY = graphql(`
  query FirstProject {
    viewer {
      id
      organizations {
        id
        projects {
          id
        }
      }
    }
  }
`);

// No page of its own: "/" sends each visitor where there is something to see.
export async function loader(args: LoaderFunctionArgs) {
  if (!(await findSessionToken(args.request, args.context))) return redirect('/login');
  const { viewer } = await queryApi(args, FIRST_PROJECT_QUERY);
  if (!viewer) throw await createLoginRedirect(args.request, args.context);
  const project = viewer.organizations.flatMap((org) => org.projects)[0];
  return redirect(project ? `/projects/${encodeURIComponent(project.id)}/issues` : '/projects/new');
}
