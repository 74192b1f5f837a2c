import { data, type ActionFunctionArgs } from '@remix-run/node';
import { mutateApi } from '../../lib/graphql.server';
import { MERGE_ISSUES } from './queries';

/**
 * "Merge selected": every other checked issue is merged into the first one checked (the highest
 * in the list as sorted), one `mergeIssues` each, in order, so a failure names how far it got and
 * the merges before it stand (each is recorded and can be undone with Unmerge on the issue page).
 * The API checks access and the project: a forged id is refused there.
 */
export async function mergeSelected(args: ActionFunctionArgs, ids: string[]) {
  const unique = [...new Set(ids)];
  if (unique.length < 2)
    return data({ error: 'Select two or more issues to merge.', saveError: null, done: null }, { status: 400 });
  const [targetId, ...sources] = unique;
  let merged = 0;
  let title = '';
  for (const sourceId of sources) {
    const result = await mutateApi(args, MERGE_ISSUES, { sourceId, targetId });
    if (!result.ok) {
      const error = `Merged ${merged} of ${sources.length} into the first selected issue: ${result.error.message}`;
      return data({ error, saveError: null, done: null }, { status: 400 });
    }
    merged += 1;
    title = result.data.mergeIssues.title;
  }
  return {
    error: null,
    saveError: null,
    done: `Merged ${merged} ${merged === 1 ? 'issue' : 'issues'} into “${title}”. Unmerge is on its page.`,
  };
}
