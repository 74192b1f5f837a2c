import type { LoaderFunctionArgs } from '@remix-run/node';
import { Outlet, useLoaderData } from '@remix-run/react';
import { AppHeader } from '../components/app-header';
import { queryApi } from '../lib/graphql.server';
import { createLoginRedirect } from '../lib/session.server';
import { graphql } from '../graphql';

const VIEWER_QUERY = graphql(`
  query Viewer {
    viewer {
      id
      email
      isInstanceAdmin
      organizations {
        id
        slug
        name
        plan
        projects {
          id
          name
        }
      }
    }
  }
`);

// Every signed-in page sits under this pathless layout: it owns the header and the viewer.
export async function loader(args: LoaderFunctionArgs) {
  const { viewer } = await queryApi(args, VIEWER_QUERY);
  if (!viewer) throw await createLoginRedirect(args.request, args.context);
  return { viewer };
}

export default function AppLayout() {
  const { viewer } = useLoaderData<typeof loader>();
  return (
    <>
      <AppHeader viewer={viewer} />
      <main className="page" id="main">
        <Outlet />
      </main>
    </>
  );
}
