import { RelativeTime } from '../../components/time';
import type { ReleaseDetailQuery } from '../../graphql/graphql';
import { formatDateTime, formatNumber } from '../../lib/format';
import { visibleText } from '../../lib/visible-text';

type Release = NonNullable<ReleaseDetailQuery['release']>;

const UNITS = ['B', 'KB', 'MB', 'GB'] as const;

/** 1,536 → "1.5 KB" (binary multiples, one decimal above bytes). */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${formatNumber(value)} B` : `${value.toFixed(1)} ${UNITS[unit]}`;
}

/** The source maps stored for the version and the artifact bundles that brought some of them. */
export function ReleaseFilesSection({ release, now }: { release: Release; now: string }) {
  const { sourceMaps, artifactBundles } = release;
  return (
    <section className="card" aria-labelledby="release-files-heading">
      <h2 id="release-files-heading">
        Source maps <span className="muted">({formatNumber(sourceMaps.totalCount)})</span>
      </h2>
      {sourceMaps.totalCount === 0 ? (
        <p className="empty">
          No source maps for this release: its stack traces stay minified. Upload them with{' '}
          <code>tracker-upload-sourcemaps</code> or <code>sentry-cli sourcemaps upload</code>.
        </p>
      ) : (
        <>
          <p className="hint">
            {formatNumber(sourceMaps.totalCount)} {sourceMaps.totalCount === 1 ? 'file' : 'files'},{' '}
            {formatBytes(sourceMaps.totalBytes)} in all
            {sourceMaps.nodes.length < sourceMaps.totalCount && `; the ${sourceMaps.nodes.length} newest are listed`}.
          </p>
          <div className="table-scroll" tabIndex={0} role="region" aria-label="Source maps of this release">
            <table className="data-table release-files">
              <caption className="visually-hidden">Source maps, newest upload first</caption>
              <thead>
                <tr>
                  <th scope="col">File</th>
                  <th scope="col" className="num">
                    Size
                  </th>
                  <th scope="col">Uploaded</th>
                </tr>
              </thead>
              <tbody>
                {sourceMaps.nodes.map((f) => (
                  <tr key={f.filename}>
                    <th scope="row" className="mono break">
                      {visibleText(f.filename)}
                    </th>
                    <td className="num">{formatBytes(f.sizeBytes)}</td>
                    <td>
                      <RelativeTime iso={f.uploadedAt} now={now} />
                      <span className="health-previous">{formatDateTime(f.uploadedAt)}</span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      {artifactBundles.length > 0 && (
        <>
          <h3>Artifact bundles</h3>
          <ul className="plain-list">
            {artifactBundles.map((b) => (
              <li key={b.checksum}>
                <span className="mono">{b.checksum.slice(0, 12)}</span> · {formatNumber(b.fileCount)}{' '}
                {b.fileCount === 1 ? 'file' : 'files'}
                {b.dist && <> · dist {visibleText(b.dist)}</>} · assembled {formatDateTime(b.assembledAt)}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
