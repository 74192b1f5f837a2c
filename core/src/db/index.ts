export { openDatabase, StorageError } from './open-database';
export type { Database, DatabaseKind, OpenDatabaseOptions } from './open-database';
export { DataDirLockedError, lockDataDir } from './data-dir-lock';
export { queryRows } from './query-rows';
export { isTransientError } from './transient';
