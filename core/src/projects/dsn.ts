/**
 * `https://et_<key>@<host>/<projectId>`: the SDKs derive the ingest URL from the origin and
 * send the key in `Authorization: DSN et_<key>`.
 */
export function formatDsn(publicUrl: string, publicKey: string, projectId: string): string {
  const url = new URL(publicUrl);
  url.username = publicKey;
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${projectId}`;
  return url.toString();
}
