export {
  uploadSourceMaps,
  MAX_FILES_PER_REQUEST,
  MAX_BYTES_PER_REQUEST,
  type UploadSourceMapsOptions,
  type UploadSourceMapsResult,
  type UploadLogger,
} from './sourcemaps/upload-sourcemaps';
export { UploadSourceMapsError, type UploadErrorCode } from './sourcemaps/errors';
export { RELEASE_VARIABLES } from './sourcemaps/resolve-settings';
export { SDK_VERSION } from './version';
