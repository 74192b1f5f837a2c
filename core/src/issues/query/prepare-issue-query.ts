import type { DataSource, EntityManager } from 'typeorm';
import { queryRows } from '../../db/query-rows';
import { tagKeysOf } from './compile-issue-query';
import { parseIssueQuery, termError, validKeysText, type QueryTerm } from './parse-issue-query';

/**
 * Parses a query and checks it against the project: a `key:value` whose key is neither one of
 * the language's nor a tag any of the project's events carried is refused (BAD_USER_INPUT
 * naming the term), because a misspelt key (`lvl:error`) would otherwise silently match
 * nothing. One indexed probe per distinct tag key, and none when the query names no tag.
 * The caller has already checked access to the project.
 */
export async function checkIssueQuery(
  on: DataSource | EntityManager,
  projectId: string,
  query: string,
): Promise<QueryTerm[]> {
  const terms = parseIssueQuery(query);
  const keys = tagKeysOf(terms);
  if (keys.length === 0) return terms;
  const known = await queryRows<{ key: string }>(
    on,
    `SELECT k AS key FROM unnest($2::text[]) k
      WHERE EXISTS (SELECT 1 FROM issue_tag_values tv WHERE tv.project_id = $1 AND tv.key = k)`,
    [projectId, keys.map((k) => k.key)],
  );
  const found = new Set(known.map((r) => r.key));
  const missing = keys.find((k) => !found.has(k.key));
  if (missing) {
    throw termError(
      missing.term,
      `"${missing.key}" is not a search key, and no event of this project has a tag of that name: ${validKeysText()}`,
    );
  }
  return terms;
}
