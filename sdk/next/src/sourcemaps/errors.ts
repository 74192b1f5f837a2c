/**
 * Why an upload failed. In every case the maps are left in place, so fixing the cause and
 * running again uploads them.
 *
 * - `NO_DIR`: no folder given and no `.next` here, or the folder does not exist.
 * - `INVALID_DSN`: `TRACKER_DSN` (or `dsn`) is set but is not `https://et_<key>@host/<projectId>`.
 * - `CONFLICT`: two different maps share a basename (the server keys maps by basename).
 * - `INVALID_MAP`: a `.js.map` file is not a source map (not JSON, or no `mappings`/`sections`).
 * - `REJECTED`: the server answered non-2xx (its `error.message` is in the message).
 * - `NETWORK`: no answer after the retries (connection refused or reset, timeout).
 * - `DELETE_FAILED`: uploaded, but a map could not be deleted from the build output.
 */
export type UploadErrorCode =
  'NO_DIR' | 'INVALID_DSN' | 'CONFLICT' | 'INVALID_MAP' | 'REJECTED' | 'NETWORK' | 'DELETE_FAILED';

export class UploadSourceMapsError extends Error {
  override readonly name = 'UploadSourceMapsError';
  readonly code: UploadErrorCode;
  /** HTTP status, for `REJECTED`. */
  readonly status?: number;
  /** The server's `error.code`, for `REJECTED` when it sent one. */
  readonly serverCode?: string;

  constructor(code: UploadErrorCode, message: string, details: { status?: number; serverCode?: string } = {}) {
    super(message);
    this.code = code;
    this.status = details.status;
    this.serverCode = details.serverCode;
  }
}
