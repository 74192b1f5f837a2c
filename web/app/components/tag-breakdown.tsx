import { formatNumber, formatPercent } from '../lib/format';
import { visibleText } from '../lib/visible-text';

export type TagBreakdownData = {
  key: string;
  /** Events (of the newest 10,000 the API reads) that carry the key. */
  count: number;
  /** Most frequent first; at most 10. */
  values: { value: string; count: number }[];
};

/**
 * The share as a bar: an SVG rect sized by attributes (no inline style under the CSP, decision
 * 010). Decoration only: the percentage is written out next to it.
 */
function ShareBar({ part, whole }: { part: number; whole: number }) {
  const width = whole > 0 ? Math.min(100, (part / whole) * 100) : 0;
  return (
    <svg className="tag-bar" viewBox="0 0 100 4" preserveAspectRatio="none" aria-hidden="true" focusable="false">
      <rect className="tag-bar-fill" x={0} y={0} width={width.toFixed(1)} height={4} />
    </svg>
  );
}

/**
 * Per tag key, its top values with their counts and shares of the events carrying the key; what
 * the top values leave over is one "Other values" row. Keys and values were written by whoever
 * holds the DSN: React text only, bidi controls made visible.
 */
export function TagBreakdown({ tags }: { tags: TagBreakdownData[] }) {
  if (tags.length === 0) return <p className="muted">Its events carried no tags.</p>;
  return (
    <ul className="tag-grid">
      {tags.map((tag) => {
        const other = tag.count - tag.values.reduce((n, v) => n + v.count, 0);
        return (
          <li key={tag.key}>
            <table className="tag-table">
              <caption>
                <span className="tag-key mono">{visibleText(tag.key)}</span>{' '}
                <span className="muted">
                  {formatNumber(tag.count)} event{tag.count === 1 ? '' : 's'}
                </span>
              </caption>
              <thead>
                <tr>
                  <th scope="col">Value</th>
                  <th scope="col" className="num">
                    Share
                  </th>
                  <th scope="col" className="num">
                    Events
                  </th>
                </tr>
              </thead>
              <tbody>
                {tag.values.map((v) => (
                  <tr key={v.value}>
                    <th scope="row" className="tag-value mono">
                      {visibleText(v.value)}
                    </th>
                    <td className="num tag-share">
                      {formatPercent(v.count, tag.count)}
                      <ShareBar part={v.count} whole={tag.count} />
                    </td>
                    <td className="num">{formatNumber(v.count)}</td>
                  </tr>
                ))}
                {other > 0 && (
                  <tr className="tag-other">
                    <th scope="row">Other values</th>
                    <td className="num tag-share">
                      {formatPercent(other, tag.count)}
                      <ShareBar part={other} whole={tag.count} />
                    </td>
                    <td className="num">{formatNumber(other)}</td>
                  </tr>
                )}
              </tbody>
            </table>
          </li>
        );
      })}
    </ul>
  );
}
