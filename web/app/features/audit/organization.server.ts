import { data, type LoaderFunctionArgs } from '@remix-run/node';
import { queryApi } from '../../lib/graphql.server';
import { AUDIT_ORG_QUERY } from './queries';

/** The organization the slug names, when the viewer is a member; 404 otherwise (the same either way). */
export async function requireOrganization(args: LoaderFunctionArgs) {
  const { viewer } = await queryApi(args, AUDIT_ORG_QUERY);
  const organization = viewer?.organizations.find((o) => o.slug === args.params.slug);
  if (!organization) throw data({ message: 'This organization does not exist or is not yours.' }, { status: 404 });
  return organization;
}
