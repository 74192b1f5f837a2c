/**
 * `https://et_<key>@<host>[/<path prefix>]/<number>`. Our SDKs derive the ingest URL from the
 * origin and send the key in `Authorization: DSN et_<key>`; Sentry's SDKs read the path's last
 * segment as the project (they keep only its leading digits, hence a number, not the UUID) and
 * send to `<prefix>/api/<number>/envelope/` with the key as `sentry_key`.
 */
export function formatDsn(publicUrl: string, publicKey: string, projectNumber: number): string {
  const url = new URL(publicUrl);
  url.username = publicKey;
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${projectNumber}`;
  return url.toString();
}
