/** One check-in as the page shows it. */
export interface StripCheck {
  id: string;
  status: string;
  durationMs: number | null;
  statusCode: number | null;
  error: string | null;
  createdAt: string;
}

const STRIP_LENGTH = 90;

/** The last 90 check-ins, oldest left: a cell per check, coloured by its status, named for screen readers. */
export function CheckStrip({ checks }: { checks: StripCheck[] }) {
  const cells = [...checks].slice(0, STRIP_LENGTH).reverse();
  const failed = cells.filter((c) => c.status !== 'ok' && c.status !== 'in_progress').length;
  return (
    <div className="check-strip-wrap">
      <ol className="check-strip" aria-label={`Last ${cells.length} check-ins, ${failed} failed`}>
        {cells.map((c) => (
          <li
            key={c.id}
            className={`check-cell check-${c.status}`}
            title={`${c.createdAt.slice(0, 16).replace('T', ' ')} UTC · ${c.status}${c.error ? ` · ${c.error}` : ''}`}
          />
        ))}
      </ol>
      {cells.length === 0 && <p className="muted">No check-ins yet.</p>}
    </div>
  );
}

/** Response (or run) times of the last checks as a small line chart; nothing when none has a time. */
export function ResponseChart({ checks, label }: { checks: StripCheck[]; label: string }) {
  const points = [...checks]
    .reverse()
    .filter((c) => c.durationMs !== null)
    .slice(-STRIP_LENGTH);
  if (points.length < 2) return null;
  const max = Math.max(...points.map((p) => p.durationMs!), 1);
  const width = 300;
  const height = 60;
  const step = width / (points.length - 1);
  const path = points
    .map(
      (p, i) =>
        `${i === 0 ? 'M' : 'L'}${(i * step).toFixed(1)},${(height - (p.durationMs! / max) * height).toFixed(1)}`,
    )
    .join(' ');
  return (
    <figure className="response-chart">
      <svg
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-label={`${label}: up to ${Math.round(max)} ms over the last ${points.length} checks`}
      >
        <path d={path} fill="none" stroke="currentColor" strokeWidth="1.5" />
      </svg>
      <figcaption className="muted">
        {label}, max {Math.round(max)} ms
      </figcaption>
    </figure>
  );
}
