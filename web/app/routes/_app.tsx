import { redirect, type LoaderFunctionArgs } from '@remix-run/node';
import { Outlet, useLoaderData } from '@remix-run/react';
import { AppHeader } from '../components/app-header';
import { queryApi } from '../lib/graphql.server';
import { createLoginRedirect } from '../lib/session.server';
import { graphql } from '../graphql';
import { TWO_FACTOR_PATH } from '../features/two-factor/paths';

const VIEWER_QUERY = graphql(`
  query Viewer {
    viewer {
      id
      email
      isInstanceAdmin
      twoFactorEnrolmentRequired
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
  // An organization requires two-factor and this account has none: nothing else until enrolled.
  if (viewer.twoFactorEnrolmentRequired && new URL(args.request.url).pathname !== TWO_FACTOR_PATH) {
    throw redirect(`${TWO_FACTOR_PATH}?required=1`);
  }
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
