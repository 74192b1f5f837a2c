import type { DataSource } from 'typeorm';
import { isUuid, requireProjectAccess, type Caller } from '../access';
import { queryRows } from '../db/query-rows';
import { AppError } from '../errors';
import { checkIssueQuery } from './query';

/** Tabs above a list: more than 50 is no longer a row of tabs. */
export const MAX_SAVED_SEARCHES = 50;
export const MAX_SAVED_SEARCH_NAME_CHARS = 64;

/** A person's named issue query in one project. */
export interface SavedSearch {
  id: string;
  projectId: string;
  name: string;
  query: string;
  createdAt: Date;
}

interface Row {
  id: string;
  project_id: string;
  name: string;
  query: string;
  created_at: Date | string;
}

const toSavedSearch = (r: Row): SavedSearch => ({
  id: r.id,
  projectId: r.project_id,
  name: r.name,
  query: r.query,
  createdAt: new Date(r.created_at),
});

/**
 * The caller's own saved searches in a project, oldest first (the order of the tabs). Nobody
 * sees another person's: they are a personal view, not project settings. NOT_FOUND unless the
 * caller may read the project.
 */
export async function listSavedSearches(ds: DataSource, caller: Caller, projectId: string): Promise<SavedSearch[]> {
  await requireProjectAccess(ds, caller, projectId, 'read', 'see saved searches');
  const rows = await queryRows<Row>(
    ds,
    `SELECT id, project_id, name, query, created_at FROM saved_searches
      WHERE user_id = $1 AND project_id = $2 ORDER BY created_at, id`,
    [caller.userId, projectId],
  );
  return rows.map(toSavedSearch);
}

/**
 * Saves `query` under `name` for the caller. The query is checked exactly as a search would
 * check it (checkIssueQuery), so a saved tab never answers with an error the person could not
 * have seen when saving. A name is used once per person and project (CONFLICT).
 */
export async function createSavedSearch(
  ds: DataSource,
  caller: Caller,
  input: { projectId: string; name: string; query: string },
): Promise<SavedSearch> {
  await requireProjectAccess(ds, caller, input.projectId, 'write', 'save searches');
  const name = input.name.trim();
  if (name.length === 0 || name.length > MAX_SAVED_SEARCH_NAME_CHARS) {
    throw new AppError(
      'BAD_USER_INPUT',
      `name: give the search a name of 1 to ${MAX_SAVED_SEARCH_NAME_CHARS} characters`,
    );
  }
  const query = input.query.trim();
  if (query.length === 0) throw new AppError('BAD_USER_INPUT', 'query: there is nothing to save; type a search first');
  await checkIssueQuery(ds, input.projectId, query);
  return ds.transaction(async (em) => {
    // Serializes one person's saves in a project, so the cap holds under concurrent requests.
    await em.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 19))', [`${caller.userId}/${input.projectId}`]);
    const [{ n }] = await queryRows<{ n: string }>(
      em,
      'SELECT count(*) AS n FROM saved_searches WHERE user_id = $1 AND project_id = $2',
      [caller.userId, input.projectId],
    );
    if (Number(n) >= MAX_SAVED_SEARCHES) {
      throw new AppError(
        'BAD_USER_INPUT',
        `You have ${MAX_SAVED_SEARCHES} saved searches in this project: delete one first`,
      );
    }
    const rows = await queryRows<Row>(
      em,
      `INSERT INTO saved_searches (project_id, user_id, name, query) VALUES ($1, $2, $3, $4)
       ON CONFLICT (user_id, project_id, name) DO NOTHING
       RETURNING id, project_id, name, query, created_at`,
      [input.projectId, caller.userId, name, query],
    );
    if (rows.length === 0) throw new AppError('CONFLICT', `You already have a saved search named "${name}" here`);
    return toSavedSearch(rows[0]);
  });
}

/**
 * Deletes one of the caller's saved searches; returns its id. Another person's, or one in a
 * project the caller can no longer read, is NOT_FOUND exactly like a missing id.
 */
export async function deleteSavedSearch(ds: DataSource, caller: Caller, id: string): Promise<string> {
  const notFound = new AppError('NOT_FOUND', 'Saved search not found');
  if (!isUuid(id)) throw notFound;
  const [row] = await queryRows<{ project_id: string }>(
    ds,
    'SELECT project_id FROM saved_searches WHERE id = $1 AND user_id = $2',
    [id, caller.userId],
  );
  if (!row) throw notFound;
  try {
    await requireProjectAccess(ds, caller, row.project_id, 'write', 'delete saved searches');
  } catch (err) {
    if (err instanceof AppError && err.code === 'NOT_FOUND') throw notFound;
    throw err;
  }
  await ds.query('DELETE FROM saved_searches WHERE id = $1 AND user_id = $2', [id, caller.userId]);
  return id;
}
