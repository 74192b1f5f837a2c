import type { LoaderFunctionArgs } from '@remix-run/node';
import { queryApi } from '../../lib/graphql.server';
import { TWO_FACTOR_QUERY } from './queries';

export async function loadTwoFactor(args: LoaderFunctionArgs) {
  return queryApi(args, TWO_FACTOR_QUERY);
}

export type TwoFactorLoaderData = Awaited<ReturnType<typeof loadTwoFactor>>;
