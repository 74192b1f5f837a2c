import { formatNumber } from '../lib/format';

export type UsageCounter = { used: number; limit: number; remaining: number };
export type Usage = { period: string; periodEnd: string; events: UsageCounter; logs: UsageCounter };

/** From this share of the limit on, the meter turns amber; the usage-warning email goes at 80%. */
const WARN_SHARE = 0.8;

/**
 * One monthly counter against its plan limit. A native <meter>: accessible, coloured by the
 * browser from low/high/optimum, and sized by attributes, so the CSP needs no inline style.
 */
export function UsageMeter({ label, hint, meter }: { label: string; hint: string; meter: UsageCounter }) {
  const id = `usage-${label.toLowerCase()}`;
  const share = meter.limit > 0 ? meter.used / meter.limit : 1;
  return (
    <div className="usage">
      <label htmlFor={id}>
        {label} <span className="muted">({hint})</span>
      </label>
      <meter
        id={id}
        className="usage-meter"
        min={0}
        max={meter.limit}
        value={Math.min(meter.used, meter.limit)}
        low={meter.limit * WARN_SHARE}
        high={meter.limit * 0.99}
        optimum={0}
      >
        {formatNumber(meter.used)} of {formatNumber(meter.limit)}
      </meter>
      <p className={share >= 1 ? 'form-error usage-figures' : 'usage-figures'}>
        {formatNumber(meter.used)} of {formatNumber(meter.limit)} used · {formatNumber(meter.remaining)} remaining
        {share >= 1 && ' — new ones are refused until the reset'}
      </p>
    </div>
  );
}
