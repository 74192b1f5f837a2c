import { DataSource, type EntityManager } from 'typeorm';

/**
 * Raw SQL returning rows. TypeORM's `query()` answers an UPDATE or DELETE with
 * `[rows, rowCount]` but an INSERT or SELECT with `rows`; the query runner's structured
 * result has one shape for every statement, so all raw SQL with RETURNING goes through here.
 */
export async function queryRows<T>(on: DataSource | EntityManager, sql: string, params: unknown[] = []): Promise<T[]> {
  const existing = on instanceof DataSource ? undefined : on.queryRunner;
  // Inside a transaction the manager's own runner must be used, or the query would run
  // outside it (and, on PGlite's single connection, wait for it forever).
  const runner = existing ?? (on instanceof DataSource ? on : on.connection).createQueryRunner();
  try {
    const result = await runner.query(sql, params, true);
    return (result.records ?? []) as T[];
  } finally {
    if (!existing) await runner.release();
  }
}
