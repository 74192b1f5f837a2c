export { createProject } from './create-project';
export type { CreatedProject } from './create-project';
export { formatDsn } from './dsn';
export { findKeyInfo } from './find-key';
export type { KeyInfo } from './find-key';
export { findPrimaryKeys, findProjectForUser, isUuid, listProjects, requireProjectForUser } from './find-project';
