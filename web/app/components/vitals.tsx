import { formatDateTime } from '../lib/format';
import {
  formatShare,
  formatVital,
  METRIC_NAMES,
  rateVital,
  RATING_LABELS,
  THRESHOLDS,
  type Rating,
  type VitalMetric,
} from '../lib/vitals';

// Server-rendered SVG, no chart library and no inline styles (the CSP has no 'unsafe-inline'):
// geometry goes in SVG attributes, colours in CSS classes.

export type VitalStats = {
  metric: VitalMetric;
  count: number;
  p75: number | null;
  goodShare: number | null;
  needsImprovementShare: number | null;
  poorShare: number | null;
  thresholds: { good: number; poor: number };
};

/** A p75 value coloured by its rating; the rating is also in words for screen readers. */
export function VitalValue({ metric, value }: { metric: VitalMetric; value: number | null }) {
  if (value === null) return <span className="muted">—</span>;
  const rating = rateVital(value, THRESHOLDS[metric]);
  return (
    <span className={`vital-value rating-${rating}`}>
      {formatVital(metric, value)}
      <span className="visually-hidden"> ({RATING_LABELS[rating]})</span>
    </span>
  );
}

/** One metric: p75 in its rating's colour, the good / needs-improvement / poor shares as a bar. */
export function VitalCard({ stats }: { stats: VitalStats }) {
  const { metric, p75, count, thresholds } = stats;
  const rating: Rating | null = p75 === null ? null : rateVital(p75, thresholds);
  const shares: [Rating, number | null][] = [
    ['good', stats.goodShare],
    ['needs-improvement', stats.needsImprovementShare],
    ['poor', stats.poorShare],
  ];
  let x = 0;
  return (
    <section className={`card vital-card${rating ? ` vital-${rating}` : ''}`} aria-labelledby={`vital-${metric}`}>
      <h3 id={`vital-${metric}`}>
        {metric} <span className="muted vital-name">{METRIC_NAMES[metric]}</span>
      </h3>
      <p className="vital-p75">
        <span className={rating ? `rating-${rating}` : 'muted'}>{formatVital(metric, p75)}</span>
        <span className="muted"> p75</span>
      </p>
      <p className="vital-rating">
        {rating ? RATING_LABELS[rating] : 'No data'} · {count.toLocaleString('en')} page view{count === 1 ? '' : 's'}
      </p>
      {count > 0 && (
        <>
          <svg
            className="distribution"
            viewBox="0 0 100 6"
            preserveAspectRatio="none"
            role="img"
            aria-label={shares.map(([r, s]) => `${RATING_LABELS[r]} ${formatShare(s)}`).join(', ')}
          >
            {shares.map(([r, share]) => {
              const width = (share ?? 0) * 100;
              const rect = <rect key={r} className={`fill-${r}`} x={x} y={0} width={width} height={6} />;
              x += width;
              return rect;
            })}
          </svg>
          <ul className="distribution-legend">
            {shares.map(([r, share]) => (
              <li key={r}>
                <span className={`swatch fill-${r}`} aria-hidden="true" />
                {RATING_LABELS[r]} {formatShare(share)}
              </li>
            ))}
          </ul>
        </>
      )}
      <p className="hint">
        Good ≤ {formatVital(metric, thresholds.good)}, poor &gt; {formatVital(metric, thresholds.poor)}
      </p>
    </section>
  );
}

const W = 600;
const H = 150;
const PAD = { left: 64, right: 8, top: 10, bottom: 24 };

/**
 * p75 of one metric per bucket: a line through measured buckets (gaps where none was measured), a
 * dot per bucket with its value as a tooltip, and the good / poor thresholds as dashed lines.
 */
export function TrendChart({
  metric,
  buckets,
}: {
  metric: VitalMetric;
  buckets: { start: string; value: number | null }[];
}) {
  const thresholds = THRESHOLDS[metric];
  const measured = buckets.filter((b) => b.value !== null).map((b) => b.value as number);
  const top = Math.max(thresholds.poor, ...measured) * 1.1;
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const xOf = (i: number) => PAD.left + (buckets.length <= 1 ? plotW / 2 : (i * plotW) / (buckets.length - 1));
  const yOf = (v: number) => PAD.top + plotH - (v / top) * plotH;
  const segments: string[][] = [];
  let current: string[] | null = null;
  buckets.forEach((b, i) => {
    if (b.value === null) {
      current = null;
      return;
    }
    if (!current) segments.push((current = []));
    current.push(`${xOf(i).toFixed(1)},${yOf(b.value).toFixed(1)}`);
  });
  return (
    <figure className="trend">
      <figcaption>
        {metric} p75{' '}
        <span className="muted">
          ({measured.length} of {buckets.length} buckets measured)
        </span>
      </figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} className="trend-chart" role="img" aria-label={`${metric} p75 over time`}>
        <line className="axis" x1={PAD.left} x2={W - PAD.right} y1={PAD.top + plotH} y2={PAD.top + plotH} />
        {(['good', 'poor'] as const).map((t) => (
          <g key={t}>
            <line
              className={`threshold threshold-${t}`}
              x1={PAD.left}
              x2={W - PAD.right}
              y1={yOf(thresholds[t])}
              y2={yOf(thresholds[t])}
            />
            <text className="tick" x={PAD.left - 6} y={yOf(thresholds[t]) + 4} textAnchor="end">
              {formatVital(metric, thresholds[t])}
            </text>
          </g>
        ))}
        <text className="tick" x={PAD.left - 6} y={PAD.top + plotH + 4} textAnchor="end">
          0
        </text>
        {segments.map((points, i) => (
          <polyline key={i} className="trend-line" points={points.join(' ')} />
        ))}
        {buckets.map((b, i) =>
          b.value === null ? null : (
            <circle
              key={b.start}
              className={`trend-dot fill-${rateVital(b.value, thresholds)}`}
              cx={xOf(i)}
              cy={yOf(b.value)}
              r={3}
            >
              <title>{`${formatDateTime(b.start)}: ${formatVital(metric, b.value)}`}</title>
            </circle>
          ),
        )}
        {buckets.length > 0 && (
          <>
            <text className="tick" x={PAD.left} y={H - 6} textAnchor="start">
              {formatDateTime(buckets[0].start)}
            </text>
            <text className="tick" x={W - PAD.right} y={H - 6} textAnchor="end">
              {formatDateTime(buckets[buckets.length - 1].start)}
            </text>
          </>
        )}
      </svg>
    </figure>
  );
}
