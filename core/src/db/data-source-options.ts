import { ENTITIES } from '../entities';
import { MIGRATIONS } from '../migrations';

/** What every DataSource of ours shares, on PostgreSQL and on PGlite. */
export const DATA_SOURCE_COMMON = {
  type: 'postgres' as const,
  entities: ENTITIES,
  migrations: MIGRATIONS,
  migrationsTableName: 'migrations',
  synchronize: false,
  logging: false as const,
};
