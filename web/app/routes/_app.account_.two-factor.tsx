import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { runTwoFactorAction } from '../features/two-factor/two-factor-action.server';
import { loadTwoFactor } from '../features/two-factor/two-factor-loader.server';
import { TwoFactorPage } from '../features/two-factor/two-factor-page';

export const meta: MetaFunction = () => [{ title: 'Two-factor authentication · Tracker' }];
export const loader = (args: LoaderFunctionArgs) => loadTwoFactor(args);
export const action = (args: ActionFunctionArgs) => runTwoFactorAction(args);
export default TwoFactorPage;
