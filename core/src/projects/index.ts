export { createProject } from './create-project';
export type { CreatedProject } from './create-project';
export { formatDsn } from './dsn';
export { findKeyInfo } from './find-key';
export type { KeyInfo } from './find-key';
export { findPrimaryKeys, findProject, isUuid, listProjects } from './find-project';
export { deleteProject, renameProject, updateProjectPrivacy } from './manage-project';
export { disableProjectKeyForUser, listProjectKeys, MAX_ENABLED_KEYS, rotateProjectKeyForUser } from './project-keys';
export { MAX_KEY_RATE_LIMIT_PER_SECOND, updateProjectKeyForUser } from './update-project-key';
export {
  MAX_TRACE_URL_TEMPLATE_CHARS,
  normalizeTraceUrlTemplate,
  traceUrl,
  updateProjectTraceLink,
} from './trace-link';
export { MAX_PREVIEW_SAMPLE_CHARS, previewScrubbing, SAMPLE_ERROR_EVENT } from './preview-scrubbing';
export type { ScrubbingPreview } from './preview-scrubbing';
