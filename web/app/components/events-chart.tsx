import { Link, useLocation } from '@remix-run/react';
import { bucketLabel, bucketSpan, CHART_RANGES, type ChartRange } from '../lib/chart-range';
import { withParams } from '../lib/filters';
import { formatNumber } from '../lib/format';

export type SeriesPoint = { ts: string; count: number };

// Drawn near the size it is shown at (half a desktop row, or a phone's width), so the 11 px tick
// labels stay readable after scaling.
const W = 360;
const H = 100;
const PAD = { left: 32, right: 4, top: 8, bottom: 20 };
const BAR_GAP = 2;

/**
 * Events per bucket of the range (per hour for 24 hours) as columns, server-rendered SVG like the issues-list sparkline: geometry in
 * attributes, colour by class (the CSP allows no inline style, decision 010). The summary is the
 * accessible name; each column has the span it covers (date and times) and its count as a `<title>`
 * tooltip, and the axis ticks carry dates when the range spans days.
 */
export function EventsChart({ points, range }: { points: SeriesPoint[]; range: ChartRange }) {
  const label = (iso: string) => bucketLabel(iso, range.param);
  const total = points.reduce((n, p) => n + p.count, 0);
  const max = Math.max(1, ...points.map((p) => p.count));
  const busiest = points.reduce<SeriesPoint | null>((best, p) => (p.count > (best?.count ?? 0) ? p : best), null);
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const slot = plotW / Math.max(1, points.length);
  const baseline = PAD.top + plotH;
  const summary =
    `${formatNumber(total)} event${total === 1 ? '' : 's'} in ${range.words}` +
    (busiest ? `; the busiest ${range.bucket}, from ${label(busiest.ts)} UTC, had ${formatNumber(busiest.count)}` : '');
  const first = points[0];
  const last = points.at(-1);
  return (
    <svg viewBox={`0 0 ${W} ${H}`} className="events-chart" role="img" aria-label={summary}>
      <line className="axis" x1={PAD.left} x2={W - PAD.right} y1={baseline} y2={baseline} />
      <text className="tick" x={PAD.left - 6} y={PAD.top + 8} textAnchor="end">
        {formatNumber(max)}
      </text>
      <text className="tick" x={PAD.left - 6} y={baseline} textAnchor="end">
        0
      </text>
      {points.map((p, i) => {
        const height = p.count ? Math.max((p.count / max) * plotH, 1) : 0;
        const x = PAD.left + i * slot + BAR_GAP / 2;
        const width = Math.max(slot - BAR_GAP, 1);
        // The whole column carries the tooltip (a transparent hit area), so an empty hour says 0.
        return (
          <g key={p.ts}>
            <title>{`${bucketSpan(p.ts, range)}: ${formatNumber(p.count)} event${p.count === 1 ? '' : 's'}`}</title>
            <rect className="hour-hit" x={x.toFixed(1)} y={PAD.top} width={width.toFixed(1)} height={plotH} />
            {height > 0 && (
              <rect
                className="hour-bar"
                x={x.toFixed(1)}
                y={(baseline - height).toFixed(1)}
                width={width.toFixed(1)}
                height={height.toFixed(1)}
              />
            )}
          </g>
        );
      })}
      {first && (
        <text className="tick" x={PAD.left} y={H - 4}>
          {label(first.ts)}
        </text>
      )}
      {last && last !== first && (
        <text className="tick" x={W - PAD.right} y={H - 4} textAnchor="end">
          {label(last.ts)} UTC
        </text>
      )}
    </svg>
  );
}

/** The chart's ranges as links (the range is in the URL: `?range=`), the current one marked. */
export function ChartRangeLinks({ current }: { current: ChartRange }) {
  const location = useLocation();
  return (
    <nav className="range-links" aria-label="Chart range">
      {CHART_RANGES.map((r) => (
        <Link
          key={r.param}
          to={withParams(location, { range: r.param === '24h' ? null : r.param })}
          preventScrollReset
          aria-current={r.param === current.param ? 'true' : undefined}
        >
          {r.label}
        </Link>
      ))}
    </nav>
  );
}
