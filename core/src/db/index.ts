export { openDatabase, StorageError } from './open-database';
export type { Database, DatabaseKind, OpenDatabaseOptions } from './open-database';
export { DataDirLockedError, lockDataDir } from './data-dir-lock';
export { queryRows } from './query-rows';
export { isTransientError, someInErrorChain } from './transient';
export { buildPgliteImage, findPgliteImage, PGLITE_IMAGE_DIR } from './pglite-image';
export type { PgliteFolderOrigin } from './init-pglite-data-dir';
export { PGLITE_START_PARAMS, PGLITE_MEMORY_SETTINGS } from './pglite-settings';
