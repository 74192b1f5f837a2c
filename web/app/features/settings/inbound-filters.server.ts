import type { ActionFunctionArgs } from '@remix-run/node';
import { graphql } from '../../graphql';
import type { LegacyBrowser } from '../../graphql/graphql';
import { mutateApi } from '../../lib/graphql.server';
import type { SettingsActionResult } from './settings-action.server';

export const INBOUND_FILTERS_QUERY = graphql(`
  query ProjectInboundFilters($projectId: ID!) {
    projectInboundFilters(projectId: $projectId) {
      projectId
      browserExtensions
      localhost
      legacyBrowsers
      legacyBrowserMinVersions {
        browser
        minVersion
      }
      webCrawlers
      errorMessages
      releases
      dropped {
        filter
        dropped
      }
    }
  }
`);

const UPDATE_INBOUND_FILTERS = graphql(`
  mutation UpdateProjectInboundFilters(
    $projectId: ID!
    $input: ProjectInboundFiltersInput!
    $confirmDropAll: Boolean!
  ) {
    updateProjectInboundFilters(projectId: $projectId, input: $input, confirmDropAll: $confirmDropAll) {
      projectId
    }
  }
`);

export { INBOUND_FILTERS_INTENT } from './inbound-filters.intent';

const BROWSERS: LegacyBrowser[] = ['CHROME', 'EDGE', 'FIREFOX', 'SAFARI', 'OPERA', 'SAMSUNG', 'IE'] as LegacyBrowser[];

/** One glob per line; blank lines are ignored. The API checks each (length, count, match-all). */
function globLines(value: FormDataEntryValue | null): string[] {
  if (typeof value !== 'string') return [];
  return value
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** Saves the whole form in one mutation; the API's message is shown as it is when it refuses. */
export async function saveInboundFilters(args: ActionFunctionArgs, form: FormData): Promise<SettingsActionResult> {
  const projectId = args.params.projectId ?? '';
  const legacyBrowserMinVersions = [];
  for (const browser of BROWSERS) {
    const text = String(form.get(`minVersion-${browser}`) ?? '').trim();
    if (text === '') continue;
    if (!/^\d{1,4}$/.test(text)) {
      return { error: `Minimum version of ${browser.toLowerCase()}: a whole number.`, done: null, secret: null };
    }
    legacyBrowserMinVersions.push({ browser, minVersion: Number(text) });
  }
  const r = await mutateApi(args, UPDATE_INBOUND_FILTERS, {
    projectId,
    confirmDropAll: form.get('confirmDropAll') === 'on',
    input: {
      browserExtensions: form.get('browserExtensions') === 'on',
      localhost: form.get('localhost') === 'on',
      legacyBrowsers: form.get('legacyBrowsers') === 'on',
      webCrawlers: form.get('webCrawlers') === 'on',
      legacyBrowserMinVersions,
      errorMessages: globLines(form.get('errorMessages')),
      releases: globLines(form.get('releases')),
    },
  });
  if (!r.ok) return { error: `Inbound filters not saved: ${r.error.message}`, done: null, secret: null };
  return { error: null, done: 'Inbound filters saved. Ingest applies them within a minute.', secret: null };
}
